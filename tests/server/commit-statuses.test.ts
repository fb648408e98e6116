/**
 * Commit statuses over real HTTP, on the driver FEEDGATE_TEST_STORE names: reports of a commit by anyone with push
 * access or an app with the Commit statuses permission, each making the `status` webhook and no Events API event;
 * the reports of a branch, tag or SHA newest first and paged; the combined status as GitHub computes it; GitHub's
 * 401, 403, 404 and 422 with nothing written; and @octokit/rest 22, unmodified, calling them by its base URL.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { Octokit } from "octokit-rest-latest";
import { startListeningApp, type ListeningApp } from "../helpers/listening-app.js";
import { ALICE_TOKEN, BOB_TOKEN } from "../helpers/client-world.js";
import { eventually, hookedReceiver, type Receiver } from "../helpers/webhook-receiver.js";
import { assertSchema, compileSchemas } from "../compat/schemas.js";
import { assertWebhook } from "../helpers/webhook-schemas.js";
import { registerApp } from "../helpers/github-app.js";
import { InstallationTokens } from "../../src/server/services/apps/installation-tokens.js";

// biome-ignore lint/suspicious/noExplicitAny: JSON answers, read as asserted
type Json = Record<string, any>;

const REPO = "/repos/alice/hello";

describe("commit statuses: reported by pushers and apps, listed, combined, webhooks", () => {
  let t: ListeningApp;
  let hook: Receiver;
  let head: string;
  let first: string;
  let tree: string;

  const call = async (method: string, path: string, token: string | null = ALICE_TOKEN, body?: unknown) => {
    const res = await fetch(`${t.url}${path}`, {
      method,
      headers: {
        ...(token === null ? {} : { authorization: `token ${token}` }),
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, headers: res.headers, body: (await res.json()) as Json };
  };
  const report = async (sha: string, body: Json, token: string | null = ALICE_TOKEN) =>
    call("POST", `${REPO}/statuses/${sha}`, token, body);
  /** A new commit of the README's tree on `parent`, for a test of its own; `branch` then points at it. */
  const commit = async (message: string, branch?: string) => {
    const made = await call("POST", `${REPO}/git/commits`, ALICE_TOKEN, { message, tree, parents: [first] });
    if (branch)
      await call("POST", `${REPO}/git/refs`, ALICE_TOKEN, { ref: `refs/heads/${branch}`, sha: made.body.sha });
    return made.body.sha as string;
  };
  /** The status webhooks delivered so far about one commit. */
  const statusHooks = (sha: string) =>
    hook.received
      .filter((r) => r.headers["x-github-event"] === "status")
      .map((r) => JSON.parse(r.body) as Json)
      .filter((body) => body.sha === sha);
  /** What a refused write could have left behind: the statuses of both commits, and the deliveries. */
  const written = async () =>
    JSON.stringify([
      (await call("GET", `${REPO}/commits/${head}/statuses?per_page=100`)).body,
      (await call("GET", `${REPO}/commits/${first}/statuses?per_page=100`)).body,
      hook.received.length,
    ]);

  before(async () => {
    compileSchemas("status", "combined-commit-status");
    t = await startListeningApp();
    hook = await hookedReceiver(t, "alice/hello");
    const put = async (path: string, message: string, text: string, sha?: string) =>
      (
        await call("PUT", `${REPO}/contents/${path}`, ALICE_TOKEN, {
          message,
          content: Buffer.from(text).toString("base64"),
          ...(sha ? { sha } : {}),
        })
      ).body;
    const made = await put("README.md", "Initial commit", "# hello\n");
    first = made.commit.sha;
    tree = made.commit.tree.sha;
    head = (await put("CHANGES", "Add CHANGES", "1.0\n")).commit.sha;
  });
  after(async () => {
    await t.close();
    await hook.close();
  });

  test("a status is 201 with its Location, GitHub's shape, and the status webhook; no Events API event", async () => {
    const head = await commit("Reported", "reported");
    const events = (await call("GET", `${REPO}/events`)).body;
    const made = await report(head, {
      state: "pending",
      target_url: "https://ci.example/builds/1",
      description: "Building",
      context: "ci/build",
    });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    assertSchema("status", made.body);
    assert.equal(made.headers.get("location"), `${t.url}${REPO}/statuses/${head}`);
    assert.equal(made.body.url, `${t.url}${REPO}/statuses/${head}`);
    assert.deepEqual(
      [made.body.state, made.body.context, made.body.target_url, made.body.description, made.body.creator.login],
      ["pending", "ci/build", "https://ci.example/builds/1", "Building", "alice"],
    );
    assert.equal(made.body.created_at, "2026-01-15T10:00:00Z");

    const [body] = await eventually(
      () => statusHooks(head),
      (bodies) => bodies.length === 1,
    );
    assert.ok(body, "no status webhook");
    assertWebhook("status", null, body);
    assert.deepEqual(Object.keys(body), [
      "id",
      "sha",
      "name",
      "target_url",
      "context",
      "description",
      "state",
      "commit",
      "branches",
      "created_at",
      "updated_at",
      "repository",
      "sender",
    ]);
    assert.deepEqual(
      [body.id, body.sha, body.name, body.state, body.context, body.commit.sha, body.commit.commit.message],
      [made.body.id, head, "alice/hello", "pending", "ci/build", head, "Reported"],
    );
    assert.deepEqual(
      body.branches.filter((b: Json) => b.name === "reported"),
      [{ name: "reported", commit: { sha: head, url: `${t.url}${REPO}/commits/${head}` }, protected: false }],
    );
    assert.equal(body.created_at, "2026-01-15T10:00:00+00:00");
    assert.equal(body.sender.login, "alice");
    // An older commit is listed with each branch holding it ("each branch containing the SHA"), not only heads.
    await report(first, { state: "success" });
    const [older] = await eventually(
      () => statusHooks(first),
      (bodies) => bodies.length === 1,
    );
    assert.equal(older?.context, "default");
    assert.ok(older?.branches.some((b: Json) => b.name === "reported" && b.commit.sha === head));
    assert.deepEqual((await call("GET", `${REPO}/events`)).body, events);
  });

  test("a ref's statuses, newest first, by branch, tag, SHA and the legacy path, paged with Link", async () => {
    const sha = await commit("Listed", "listed");
    await call("POST", `${REPO}/git/refs`, ALICE_TOKEN, { ref: "refs/tags/listed-1", sha });
    for (const [state, context] of [
      ["pending", "ci/build"],
      ["success", "ci/build"],
      ["failure", "ci/lint"],
    ] as const)
      assert.equal((await report(sha, { state, context })).status, 201);
    const byBranch = await call("GET", `${REPO}/commits/listed/statuses`);
    assert.equal(byBranch.status, 200);
    for (const status of byBranch.body as unknown as Json[]) assertSchema("status", status);
    assert.deepEqual(
      (byBranch.body as unknown as Json[]).map((s) => `${s.context} ${s.state}`),
      ["ci/lint failure", "ci/build success", "ci/build pending"],
    );
    assert.deepEqual((await call("GET", `${REPO}/commits/${sha}/statuses`)).body, byBranch.body);
    assert.deepEqual((await call("GET", `${REPO}/commits/listed-1/statuses`)).body, byBranch.body);
    assert.deepEqual((await call("GET", `${REPO}/statuses/listed`)).body, byBranch.body);
    const paged = await call("GET", `${REPO}/commits/listed/statuses?per_page=1&page=2`);
    assert.deepEqual(
      (paged.body as unknown as Json[]).map((s) => `${s.context} ${s.state}`),
      ["ci/build success"],
    );
    assert.match(paged.headers.get("link") ?? "", /per_page=1&page=3>; rel="next", .*per_page=1&page=3>; rel="last"/);
  });

  test("the combined status: the latest of each context, failure over pending over success", async () => {
    const sha = await commit("Combined", "combined");
    const combined = async (ref: string) => {
      const res = await call("GET", `${REPO}/commits/${ref}/status`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assertSchema("combined-commit-status", res.body);
      return res.body;
    };
    const none = await combined(sha);
    assert.deepEqual([none.state, none.total_count, none.statuses], ["pending", 0, []]);
    await report(sha, { state: "success", context: "ci/build" });
    await report(sha, { state: "error", context: "ci/lint" });
    const failing = await combined("combined");
    assert.deepEqual([failing.state, failing.sha, failing.total_count], ["failure", sha, 2]);
    assert.deepEqual(
      failing.statuses.map((s: Json) => `${s.context} ${s.state}`),
      ["ci/build success", "ci/lint error"],
    );
    assert.equal(failing.repository.full_name, "alice/hello");
    assert.equal(failing.commit_url, `${t.url}${REPO}/commits/${sha}`);
    assert.equal(failing.url, `${t.url}${REPO}/commits/${sha}/status`);
    await report(sha, { state: "pending", context: "ci/lint" });
    assert.equal((await combined(sha)).state, "pending");
    // Contexts are case-insensitive: `CI/Lint` is the latest of `ci/lint`.
    await report(sha, { state: "success", context: "CI/Lint" });
    const passing = await combined(sha);
    assert.deepEqual([passing.state, passing.total_count], ["success", 2]);
    const paged = await call("GET", `${REPO}/commits/${sha}/status?per_page=1`);
    assert.deepEqual([paged.body.statuses.length, paged.body.total_count], [1, 2]);
  });

  test("an unknown ref is GitHub's 422, an unknown SHA or repository 404", async () => {
    const unknown = await call("GET", `${REPO}/commits/no-such-branch/status`);
    assert.deepEqual([unknown.status, unknown.body.message], [422, "No commit found for SHA: no-such-branch"]);
    assert.equal((await call("GET", `${REPO}/commits/${"1".repeat(40)}/statuses`)).status, 404);
    assert.equal((await call("GET", "/repos/alice/nothing/commits/main/status")).status, 404);
  });

  test("refused reports write nothing: bad state, unknown SHA, no state, no push access, anonymous", async () => {
    const before = await written();
    const badState = await report(head, { state: "done" });
    assert.equal(badState.status, 422);
    assert.equal(badState.body.message, "Validation Failed");
    assert.deepEqual(badState.body.errors, [
      { resource: "Status", code: "custom", field: "state", message: "state is not included in the list" },
    ]);
    const unknown = await report("2".repeat(40), { state: "success" });
    assert.deepEqual([unknown.status, unknown.body.message], [422, `No commit found for SHA: ${"2".repeat(40)}`]);
    assert.equal((await report(head, { context: "ci" })).status, 422);
    const bob = await report(head, { state: "success" }, BOB_TOKEN);
    assert.deepEqual([bob.status, bob.body.message], [403, "Must have push access to repository"]);
    assert.equal((await report(head, { state: "success" }, null)).status, 401);
    const nowhere = await call("POST", `/repos/alice/nothing/statuses/${head}`, ALICE_TOKEN, { state: "success" });
    assert.equal(nowhere.status, 404);
    assert.equal(await written(), before);
  });

  test("an installation token with Commit statuses reports as the app's bot; without it, GitHub's 403", async () => {
    const bot = await registerApp(t, { owner: "alice", name: "CI Bot", permissions: { statuses: "write" } });
    const installation = await bot.install("alice", ["hello"]);
    const tokens = new InstallationTokens(t.store, t.clock.now);
    const { token } = await tokens.mint(bot.app, installation);
    const made = await report(head, { state: "success", context: "ci/bot" }, token);
    assert.equal(made.status, 201, JSON.stringify(made.body));
    assert.deepEqual([made.body.creator.login, made.body.creator.type], ["ci-bot[bot]", "Bot"]);
    const reader = await registerApp(t, { owner: "alice", name: "Reader Bot", permissions: { statuses: "read" } });
    const readOnly = await tokens.mint(reader.app, await reader.install("alice", ["hello"]));
    const refused = await report(head, { state: "success" }, readOnly.token);
    assert.deepEqual([refused.status, refused.body.message], [403, "Resource not accessible by integration"]);
    assert.equal((await call("GET", `${REPO}/commits/${head}/status`, readOnly.token)).status, 200);
  });

  test("@octokit/rest 22 creates a status, lists a ref's and reads the combined status by its base URL", async () => {
    const octokit = new Octokit({ baseUrl: t.url, auth: ALICE_TOKEN });
    const repo = { owner: "alice", repo: "hello" };
    const sha = await commit("Reported by Octokit", "octokit");
    await octokit.repos.createCommitStatus({ ...repo, sha, state: "success" });
    const made = await octokit.repos.createCommitStatus({
      ...repo,
      sha,
      state: "error",
      context: "deploy",
      description: "Deploy failed",
    });
    assert.equal(made.status, 201);
    assert.equal(made.data.state, "error");
    const combined = await octokit.repos.getCombinedStatusForRef({ ...repo, ref: "octokit" });
    assert.deepEqual([combined.data.state, combined.data.total_count, combined.data.sha], ["failure", 2, sha]);
    const listed = await octokit.repos.listCommitStatusesForRef({ ...repo, ref: sha, per_page: 1 });
    assert.deepEqual(
      listed.data.map((s) => s.context),
      ["deploy"],
    );
    const all = await octokit.paginate(octokit.repos.listCommitStatusesForRef, { ...repo, ref: sha, per_page: 1 });
    assert.deepEqual(
      all.map((s) => s.context),
      ["deploy", "default"],
    );
    const refused = await octokit.repos
      .createCommitStatus({ ...repo, sha, state: "nope" as "error" })
      .catch((error: { status: number }) => error);
    assert.equal((refused as { status: number }).status, 422);
  });
});
