/**
 * The check suites GitHub makes on a push, over real HTTP on the driver FEEDGATE_TEST_STORE names: a pushed branch's
 * head gets a queued suite of each installed app that takes `check_suite` with Checks (write), and that app alone
 * `check_suite.requested` (with the push's `before`), never an app without the event, with Checks (read), or whose
 * installation leaves the repository out, nor for a tag; an app's runs join the suite, `POST .../check-suites` makes
 * one by hand (201) or answers the one there is (200); `PATCH .../check-suites/preferences` turns pushes' suites off
 * and on for an app, by the repository's administrators only. GitHub's 403s and 422s write nothing. Bodies checked
 * against GitHub's published schemas, and @octokit/rest 22 calling checks.setSuitesPreferences and createSuite.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { Octokit } from "octokit-rest-latest";
import { startListeningApp, type ListeningApp } from "../helpers/listening-app.js";
import { ALICE_TOKEN, BOB_TOKEN } from "../helpers/client-world.js";
import { eventually, hookedReceiver, receiver, type Receiver } from "../helpers/webhook-receiver.js";
import { assertSchema, compileSchemas } from "../compat/schemas.js";
import { assertWebhook } from "../helpers/webhook-schemas.js";
import { registerApp, type RegisteredApp } from "../helpers/github-app.js";
import { InstallationTokens } from "../../src/server/services/apps/installation-tokens.js";

// biome-ignore lint/suspicious/noExplicitAny: JSON answers, read as asserted
type Json = Record<string, any>;

const REPO = "/repos/alice/hello";
const NULL_SHA = "0".repeat(40);

describe("check suites on push: made for the apps that take them, by hand, and turned off by preference", () => {
  let t: ListeningApp;
  let repoHook: Receiver;
  const ciHook = receiver();
  const readerHook = receiver();
  let ci: RegisteredApp;
  let ciToken: string;
  let installationId: number;
  let first: string;
  let tree: string;

  const call = async (method: string, path: string, auth: string | null = ALICE_TOKEN, body?: unknown) => {
    const res = await fetch(`${t.url}${path}`, {
      method,
      headers: {
        ...(auth === null ? {} : { authorization: `token ${auth}` }),
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, body: (await res.json()) as Json };
  };
  /** A new commit on `first`, pushed as a new branch (or, `at`, moving one). */
  const pushBranch = async (branch: string, message = branch) => {
    const made = await call("POST", `${REPO}/git/commits`, ALICE_TOKEN, { message, tree, parents: [first] });
    const ref = await call("POST", `${REPO}/git/refs`, ALICE_TOKEN, {
      ref: `refs/heads/${branch}`,
      sha: made.body.sha,
    });
    assert.equal(ref.status, 201, JSON.stringify(ref.body));
    return made.body.sha as string;
  };
  const suitesOf = async (sha: string) => {
    const res = await call("GET", `${REPO}/commits/${sha}/check-suites`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    for (const suite of res.body.check_suites) assertSchema("check-suite", suite);
    return res.body.check_suites as Json[];
  };
  /** The `check_suite` deliveries a receiver got about `sha`, in order. */
  const requests = (hook: Receiver, sha: string) =>
    hook.received
      .filter((r) => r.headers["x-github-event"] === "check_suite")
      .map((r) => JSON.parse(r.body) as Json)
      .filter((b) => b.check_suite.head_sha === sha);
  const requested = (sha: string, count = 1) =>
    eventually(
      () => requests(ciHook, sha),
      (seen) => seen.length >= count,
    );
  const preferences = (body: unknown, auth: string = ALICE_TOKEN) =>
    call("PATCH", `${REPO}/check-suites/preferences`, auth, body);

  before(async () => {
    compileSchemas("check-suite", "minimal-repository");
    t = await startListeningApp();
    repoHook = await hookedReceiver(t, "alice/hello");
    const tokens = new InstallationTokens(t.store, t.clock.now);
    ci = await registerApp(t, {
      owner: "alice",
      name: "Push CI",
      permissions: { checks: "write" },
      events: ["check_suite", "check_run"],
      webhookUrl: await ciHook.listen(),
    });
    const installation = await ci.install("alice", ["hello"]);
    installationId = installation.id;
    ciToken = (await tokens.mint(ci.app, installation)).token;
    // Apps a push makes no suite for: Checks (read) only; no check_suite event; an installation without hello.
    const reader = await registerApp(t, {
      owner: "alice",
      name: "Reader",
      permissions: { checks: "read" },
      events: ["check_suite"],
      webhookUrl: await readerHook.listen(),
    });
    await reader.install("alice", ["hello"]);
    const quiet = await registerApp(t, { owner: "alice", name: "Quiet", permissions: { checks: "write" }, events: [] });
    await quiet.install("alice", ["hello"]);
    const elsewhere = await registerApp(t, {
      owner: "alice",
      name: "Elsewhere",
      permissions: { checks: "write" },
      events: ["check_suite"],
    });
    await elsewhere.install("alice", ["secret"]);
    const made = await call("PUT", `${REPO}/contents/README.md`, ALICE_TOKEN, {
      message: "Initial commit",
      content: Buffer.from("# hello\n").toString("base64"),
    });
    first = made.body.commit.sha;
    tree = made.body.commit.tree.sha;
  });
  after(async () => {
    await t.close();
    await repoHook.close();
    await ciHook.close();
    await readerHook.close();
  });

  test("a new branch's head gets the suite of each app that takes checks, and that app alone is asked", async () => {
    const sha = await pushBranch("topic");
    const [delivery] = await requested(sha);
    assertWebhook("check_suite", "requested", delivery);
    assert.deepEqual(Object.keys(delivery!), ["action", "check_suite", "repository", "sender", "installation"]);
    assert.deepEqual(
      [delivery!.check_suite.status, delivery!.check_suite.head_branch, delivery!.check_suite.before],
      ["queued", "topic", NULL_SHA],
    );
    assert.deepEqual([delivery!.check_suite.after, delivery!.check_suite.latest_check_runs_count], [sha, 0]);
    assert.deepEqual([delivery!.installation.id, delivery!.sender.login], [installationId, "alice"]);
    const suites = await suitesOf(sha);
    assert.deepEqual(
      suites.map((s) => [s.app.slug, s.status, s.conclusion, s.head_branch, s.before]),
      [["push-ci", "queued", null, "topic", NULL_SHA]],
    );
    assert.equal(suites[0]!.id, delivery!.check_suite.id);
    // Its first run joins it.
    const run = await call("POST", `${REPO}/check-runs`, ciToken, { name: "build", head_sha: sha });
    assert.equal(run.status, 201, JSON.stringify(run.body));
    assert.equal(run.body.check_suite.id, suites[0]!.id);
    assert.equal((await suitesOf(sha)).length, 1);
    // Only the app is asked: not the repository's hook, nor the app with Checks (read).
    await eventually(
      () => repoHook.received.filter((r) => r.headers["x-github-event"] === "check_run"),
      (seen) => seen.length >= 1,
    );
    assert.deepEqual(requests(repoHook, sha), []);
    assert.deepEqual(requests(readerHook, sha), []);
  });

  test("a branch moved says where it was; a tag, or a head that has the app's suite, makes none", async () => {
    const before = (await call("GET", `${REPO}/git/ref/heads/main`)).body.object.sha as string;
    const moved = await call("PUT", `${REPO}/contents/more.txt`, ALICE_TOKEN, {
      message: "More",
      content: Buffer.from("more\n").toString("base64"),
    });
    const sha = moved.body.commit.sha as string;
    const [delivery] = await requested(sha);
    assert.deepEqual([delivery!.check_suite.before, delivery!.check_suite.head_branch], [before, "main"]);
    assert.equal((await suitesOf(sha))[0]!.before, before);
    // The same commit pushed as another branch and as a tag: the app has its suite already.
    await call("POST", `${REPO}/git/refs`, ALICE_TOKEN, { ref: "refs/heads/again", sha });
    await call("POST", `${REPO}/git/refs`, ALICE_TOKEN, { ref: "refs/tags/v1", sha });
    const tagged = await call("POST", `${REPO}/git/commits`, ALICE_TOKEN, { message: "tagged", tree, parents: [sha] });
    await call("POST", `${REPO}/git/refs`, ALICE_TOKEN, { ref: "refs/tags/v2", sha: tagged.body.sha });
    await pushBranch("marker");
    await eventually(
      () => ciHook.received.length,
      (n) => n >= 4,
    );
    assert.equal(requests(ciHook, sha).length, 1);
    assert.deepEqual(await suitesOf(tagged.body.sha), []);
  });

  test("POST check-suites: 201 for a suite made, 200 for the one there is; only the app's token; 422 for no commit", async () => {
    await preferences({ auto_trigger_checks: [{ app_id: ci.app.id, setting: false }] });
    const sha = await pushBranch("manual");
    assert.deepEqual(await suitesOf(sha), []);
    const made = await call("POST", `${REPO}/check-suites`, ciToken, { head_sha: sha });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    assertSchema("check-suite", made.body);
    assert.deepEqual(
      [made.body.status, made.body.head_sha, made.body.head_branch, made.body.app.id],
      ["queued", sha, "manual", ci.app.id],
    );
    const again = await call("POST", `${REPO}/check-suites`, ciToken, { head_sha: sha });
    assert.deepEqual([again.status, again.body.id], [200, made.body.id]);
    const written = JSON.stringify(await suitesOf(sha));
    const user = await call("POST", `${REPO}/check-suites`, ALICE_TOKEN, { head_sha: sha });
    assert.deepEqual([user.status, user.body.message], [403, "You must authenticate via a GitHub App."]);
    assert.equal((await call("POST", `${REPO}/check-suites`, null, { head_sha: sha })).status, 401);
    const unknown = await call("POST", `${REPO}/check-suites`, ciToken, { head_sha: "3".repeat(40) });
    assert.deepEqual([unknown.status, unknown.body.message], [422, `No commit found for SHA: ${"3".repeat(40)}`]);
    assert.equal((await call("POST", `${REPO}/check-suites`, ciToken, {})).status, 422);
    assert.equal(JSON.stringify(await suitesOf(sha)), written);
    // Nobody was asked: a suite made by hand is the app's own doing.
    assert.deepEqual(requests(ciHook, sha), []);
    await preferences({ auto_trigger_checks: [{ app_id: ci.app.id, setting: true }] });
  });

  test("preferences turn an app's suites on push off and on, answered with the repository's", async () => {
    const off = await preferences({ auto_trigger_checks: [{ app_id: ci.app.id, setting: false }] });
    assert.equal(off.status, 200, JSON.stringify(off.body));
    assert.deepEqual(off.body.preferences, { auto_trigger_checks: [{ app_id: ci.app.id, setting: false }] });
    assertSchema("minimal-repository", off.body.repository);
    assert.equal(off.body.repository.full_name, "alice/hello");
    const quiet = await pushBranch("while-off");
    assert.deepEqual(await suitesOf(quiet), []);
    const on = await preferences({ auto_trigger_checks: [{ app_id: ci.app.id, setting: true }] });
    assert.deepEqual(on.body.preferences.auto_trigger_checks, [{ app_id: ci.app.id, setting: true }]);
    const asked = await pushBranch("while-on");
    assert.equal((await requested(asked)).length, 1);
    // An empty list changes nothing and shows what is set.
    assert.deepEqual((await preferences({})).body.preferences.auto_trigger_checks, [
      { app_id: ci.app.id, setting: true },
    ]);
  });

  test("preferences are the administrators': 404 for who cannot see it, 422 for an unknown app, nothing written", async () => {
    const set = async () => (await preferences({})).body.preferences;
    const before = JSON.stringify(await set());
    const stranger = await preferences({ auto_trigger_checks: [{ app_id: ci.app.id, setting: false }] }, BOB_TOKEN);
    assert.ok([403, 404].includes(stranger.status), JSON.stringify(stranger.body));
    const unknownApp = await preferences({ auto_trigger_checks: [{ app_id: 999_999, setting: false }] });
    assert.equal(unknownApp.status, 422);
    assert.deepEqual(unknownApp.body.errors, [
      { resource: "CheckSuitePreference", code: "invalid", field: "auto_trigger_checks[0].app_id" },
    ]);
    const noSetting = await preferences({ auto_trigger_checks: [{ app_id: ci.app.id }] });
    assert.deepEqual([noSetting.status, noSetting.body.errors[0].code], [422, "missing_field"]);
    assert.equal((await preferences({ auto_trigger_checks: [{ app_id: ci.app.id, setting: "no" }] })).status, 422);
    assert.equal(JSON.stringify(await set()), before);
  });

  test("@octokit/rest 22 sets preferences and creates a suite by its base URL", async () => {
    const alice = new Octokit({ baseUrl: t.url, auth: ALICE_TOKEN });
    const where = { owner: "alice", repo: "hello" };
    const set = await alice.rest.checks.setSuitesPreferences({
      ...where,
      auto_trigger_checks: [{ app_id: ci.app.id, setting: false }],
    });
    assert.deepEqual(set.data.preferences.auto_trigger_checks, [{ app_id: ci.app.id, setting: false }]);
    const sha = await pushBranch("octokit");
    const app = new Octokit({ baseUrl: t.url, auth: ciToken });
    const made = await app.rest.checks.createSuite({ ...where, head_sha: sha });
    assert.deepEqual([made.status, made.data.head_sha], [201, sha]);
    await alice.rest.checks.setSuitesPreferences({
      ...where,
      auto_trigger_checks: [{ app_id: ci.app.id, setting: true }],
    });
  });
});
