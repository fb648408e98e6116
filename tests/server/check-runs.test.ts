/**
 * Check runs and suites over real HTTP, on the driver FEEDGATE_TEST_STORE names: written only by a GitHub App's
 * installation token (anything else is GitHub's 403), each run in its app's suite of the head SHA, the suite's status
 * and conclusion derived from its runs; the webhooks a repository hook and the app's hook receive (created and
 * completed to both, rerequested to the app alone); filters, annotations and GitHub's 422s with nothing written; and
 * @octokit/rest 22, unmodified, calling checks.create, update and listForRef by its base URL.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { Octokit } from "octokit-rest-latest";
import { startListeningApp, type ListeningApp } from "../helpers/listening-app.js";
import { ALICE_TOKEN } from "../helpers/client-world.js";
import { eventually, hookedReceiver, receiver, type Receiver } from "../helpers/webhook-receiver.js";
import { assertSchema, compileSchemas } from "../compat/schemas.js";
import { assertWebhook } from "../helpers/webhook-schemas.js";
import { registerApp, type RegisteredApp } from "../helpers/github-app.js";
import { InstallationTokens } from "../../src/server/services/apps/installation-tokens.js";

// biome-ignore lint/suspicious/noExplicitAny: JSON answers, read as asserted
type Json = Record<string, any>;

const REPO = "/repos/alice/hello";

describe("check runs and suites: written by apps, derived suites, webhooks to hooks and apps", () => {
  let t: ListeningApp;
  let repoHook: Receiver;
  const appHook = receiver();
  let bot: RegisteredApp;
  let token: string;
  let installationId: number;
  let otherToken: string;
  let first: string;
  let tree: string;

  const call = async (method: string, path: string, auth: string | null = token, body?: unknown) => {
    const res = await fetch(`${t.url}${path}`, {
      method,
      headers: {
        ...(auth === null ? {} : { authorization: `token ${auth}` }),
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, headers: res.headers, body: (await res.json()) as Json };
  };
  /** A new commit on its own branch, for a test of its own. */
  const commit = async (branch: string) => {
    const made = await call("POST", `${REPO}/git/commits`, ALICE_TOKEN, { message: branch, tree, parents: [first] });
    await call("POST", `${REPO}/git/refs`, ALICE_TOKEN, { ref: `refs/heads/${branch}`, sha: made.body.sha });
    return made.body.sha as string;
  };
  const create = (body: Json, auth: string | null = token) => call("POST", `${REPO}/check-runs`, auth, body);
  const update = (id: number, body: Json, auth: string | null = token) =>
    call("PATCH", `${REPO}/check-runs/${id}`, auth, body);
  /** What one receiver got of `event` about `sha`: `action` and body, in order. */
  const got = (hook: Receiver, event: string, sha: string) =>
    hook.received
      .filter((r) => r.headers["x-github-event"] === event)
      .map((r) => JSON.parse(r.body) as Json)
      .filter((b) => (b.check_run ?? b.check_suite).head_sha === sha);
  const actions = (hook: Receiver, sha: string) =>
    hook.received
      .filter((r) => String(r.headers["x-github-event"]).startsWith("check_"))
      .map((r) => ({ event: String(r.headers["x-github-event"]), body: JSON.parse(r.body) as Json }))
      .filter(({ body }) => (body.check_run ?? body.check_suite).head_sha === sha)
      .map(({ event, body }) => `${event}.${body.action}`);
  const waitFor = (hook: Receiver, sha: string, count: number) =>
    eventually(
      () => actions(hook, sha),
      (seen) => seen.length >= count,
    );

  before(async () => {
    compileSchemas("check-run", "check-suite");
    t = await startListeningApp();
    repoHook = await hookedReceiver(t, "alice/hello");
    bot = await registerApp(t, {
      owner: "alice",
      name: "CI Checks",
      permissions: { checks: "write" },
      events: ["check_run", "check_suite"],
      webhookUrl: await appHook.listen(),
    });
    const tokens = new InstallationTokens(t.store, t.clock.now);
    const installation = await bot.install("alice", ["hello"]);
    installationId = installation.id;
    token = (await tokens.mint(bot.app, installation)).token;
    const other = await registerApp(t, { owner: "alice", name: "Other Checks", permissions: { checks: "write" } });
    otherToken = (await tokens.mint(other.app, await other.install("alice", ["hello"]))).token;
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
    await appHook.close();
  });

  test("a run goes queued, in progress, completed; its suite follows; both hooks get created and completed", async () => {
    const sha = await commit("lifecycle");
    const made = await create({
      name: "build",
      head_sha: sha,
      external_id: "42",
      details_url: "https://ci.example/42",
    });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    assertSchema("check-run", made.body);
    assert.equal(made.headers.get("location"), made.body.url);
    assert.deepEqual(
      [made.body.status, made.body.conclusion, made.body.started_at, made.body.app.slug, made.body.external_id],
      ["queued", null, "2026-01-15T10:00:00Z", "ci-checks", "42"],
    );
    const suiteId = made.body.check_suite.id as number;
    const suite = async () => (await call("GET", `${REPO}/check-suites/${suiteId}`)).body;
    assert.deepEqual([(await suite()).status, (await suite()).head_branch], ["queued", "lifecycle"]);

    const progressing = await update(made.body.id, { status: "in_progress" });
    assert.equal(progressing.body.status, "in_progress");
    assert.equal((await suite()).status, "in_progress");
    t.clock.advance(60_000);
    const done = await update(made.body.id, {
      conclusion: "success",
      output: { title: "Built", summary: "All good", text: "Details" },
    });
    assert.equal(done.status, 200, JSON.stringify(done.body));
    assertSchema("check-run", done.body);
    assert.deepEqual(
      [done.body.status, done.body.conclusion, done.body.completed_at, done.body.output.title, done.body.output.text],
      ["completed", "success", "2026-01-15T10:01:00Z", "Built", "Details"],
    );
    const completed = await suite();
    assertSchema("check-suite", completed);
    assert.deepEqual(
      [completed.status, completed.conclusion, completed.latest_check_runs_count, completed.head_sha],
      ["completed", "success", 1, sha],
    );
    assert.deepEqual((await call("GET", `${REPO}/check-runs/${made.body.id}`)).body, done.body);

    const expected = ["check_run.created", "check_run.completed", "check_suite.completed"];
    assert.deepEqual(await waitFor(repoHook, sha, 3), expected);
    // The app took check_suite: the push of the branch made its suite and asked it first (check-suites-push.test.ts).
    assert.deepEqual(await waitFor(appHook, sha, 4), ["check_suite.requested", ...expected]);
    const [createdHook] = got(repoHook, "check_run", sha);
    assertWebhook("check_run", "created", createdHook);
    assert.deepEqual(Object.keys(createdHook!), ["action", "check_run", "repository", "sender"]);
    assert.equal(createdHook!.check_run.check_suite.id, suiteId);
    assert.equal(createdHook!.sender.login, "ci-checks[bot]");
    const completedHook = got(appHook, "check_run", sha)[1]!;
    assertWebhook("check_run", "completed", completedHook);
    assert.equal(completedHook.installation.id, installationId);
    const suiteHook = got(appHook, "check_suite", sha)[1]!;
    assertWebhook("check_suite", "completed", suiteHook);
    assert.deepEqual([suiteHook.check_suite.conclusion, suiteHook.check_suite.latest_check_runs_count], ["success", 1]);
  });

  test("a suite's conclusion is its runs' highest priority; a run made completed sends created and completed", async () => {
    const sha = await commit("priority");
    const lint = await create({ name: "lint", head_sha: sha, status: "in_progress" });
    const test = await create({ name: "test", head_sha: sha, conclusion: "timed_out" });
    assert.deepEqual([test.body.status, test.body.conclusion], ["completed", "timed_out"]);
    assert.equal(lint.body.check_suite.id, test.body.check_suite.id);
    const suites = await call("GET", `${REPO}/commits/priority/check-suites`);
    assert.equal(suites.status, 200);
    for (const s of suites.body.check_suites) assertSchema("check-suite", s);
    assert.deepEqual(
      suites.body.check_suites.map((s: Json) => [s.status, s.conclusion, s.latest_check_runs_count]),
      [["in_progress", null, 2]],
    );
    await update(lint.body.id, { conclusion: "success" });
    const after = (await call("GET", `${REPO}/commits/${sha}/check-suites`)).body;
    assert.deepEqual(
      [after.total_count, after.check_suites[0].status, after.check_suites[0].conclusion],
      [1, "completed", "timed_out"],
    );
    assert.deepEqual(await waitFor(repoHook, sha, 5), [
      "check_run.created",
      "check_run.created",
      "check_run.completed",
      "check_run.completed",
      "check_suite.completed",
    ]);
  });

  test("a commit's runs: each name's latest by default, all, by name, status and app, paged", async () => {
    const sha = await commit("listing");
    const old = await create({ name: "build", head_sha: sha, conclusion: "failure" });
    const again = await create({ name: "build", head_sha: sha, status: "in_progress" });
    await create({ name: "docs", head_sha: sha, conclusion: "success" });
    const other = await create({ name: "scan", head_sha: sha }, otherToken);
    assert.equal(other.status, 201);
    const list = async (query = "") => {
      const res = await call("GET", `${REPO}/commits/listing/check-runs${query}`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      for (const run of res.body.check_runs) assertSchema("check-run", run);
      return [res.body.total_count, res.body.check_runs.map((r: Json) => `${r.name} ${r.status}`)];
    };
    assert.deepEqual(await list(), [3, ["scan queued", "docs completed", "build in_progress"]]);
    assert.deepEqual(await list("?filter=all"), [
      4,
      ["scan queued", "docs completed", "build in_progress", "build completed"],
    ]);
    assert.deepEqual(await list("?check_name=build&filter=all"), [2, ["build in_progress", "build completed"]]);
    assert.deepEqual(await list("?status=completed"), [1, ["docs completed"]]);
    assert.deepEqual(await list(`?app_id=${bot.app.id}`), [2, ["docs completed", "build in_progress"]]);
    const paged = await call("GET", `${REPO}/commits/${sha}/check-runs?per_page=1&page=2`);
    assert.deepEqual([paged.body.total_count, paged.body.check_runs[0].name], [3, "docs"]);
    assert.match(paged.headers.get("link") ?? "", /rel="next"/);
    const inSuite = await call("GET", `${REPO}/check-suites/${old.body.check_suite.id}/check-runs?filter=all`);
    assert.deepEqual(
      inSuite.body.check_runs.map((r: Json) => r.id),
      [
        (await call("GET", `${REPO}/commits/${sha}/check-runs?app_id=${bot.app.id}`)).body.check_runs[0].id,
        again.body.id,
        old.body.id,
      ],
    );
    const bad = await call("GET", `${REPO}/commits/${sha}/check-runs?status=done`);
    assert.equal(bad.status, 422);
    assert.equal((await call("GET", `${REPO}/commits/no-such-branch/check-runs`)).status, 422);
  });

  test("annotations are added to a run's, at most 50 a request, and listed in order with their blob", async () => {
    const sha = await commit("annotated");
    const note = (n: number) => ({
      path: "README.md",
      start_line: n,
      end_line: n,
      annotation_level: n % 2 ? "warning" : "notice",
      message: `line ${n}`,
    });
    const output = (from: number, count: number) => ({
      title: "Lint",
      summary: `${count} notes`,
      annotations: Array.from({ length: count }, (_, i) => note(from + i)),
    });
    const made = await create({ name: "lint", head_sha: sha, output: output(1, 50) });
    assert.equal(made.body.output.annotations_count, 50);
    const more = await update(made.body.id, { output: { ...output(51, 2), title: "Lint again" } });
    assert.deepEqual([more.body.output.annotations_count, more.body.output.title], [52, "Lint again"]);
    const page = await call("GET", `${REPO}/check-runs/${made.body.id}/annotations?per_page=2&page=26`);
    assert.equal(page.status, 200);
    assert.deepEqual(page.body, [
      {
        path: "README.md",
        start_line: 51,
        end_line: 51,
        start_column: null,
        end_column: null,
        annotation_level: "warning",
        title: null,
        message: "line 51",
        raw_details: null,
        blob_href: `${new URL(t.url).origin}/alice/hello/blob/${sha}/README.md`,
      },
      { ...page.body[0], start_line: 52, end_line: 52, annotation_level: "notice", message: "line 52" },
    ]);
    const tooMany = await update(made.body.id, { output: output(100, 51) });
    assert.equal(tooMany.status, 422);
    assert.equal((await call("GET", `${REPO}/check-runs/${made.body.id}`)).body.output.annotations_count, 52);
  });

  test("refused writes change nothing: no app, conclusion missing, bad status, unknown SHA, another app's run", async () => {
    const sha = await commit("refused");
    const run = await create({ name: "build", head_sha: sha });
    const written = async () =>
      JSON.stringify([
        (await call("GET", `${REPO}/commits/${sha}/check-runs?filter=all`)).body,
        repoHook.received.length,
      ]);
    await waitFor(repoHook, sha, 1);
    const before = await written();
    const user = await create({ name: "build", head_sha: sha }, ALICE_TOKEN);
    assert.deepEqual([user.status, user.body.message], [403, "You must authenticate via a GitHub App."]);
    assert.equal((await create({ name: "build", head_sha: sha }, null)).status, 401);
    const noConclusion = await create({ name: "build", head_sha: sha, status: "completed" });
    assert.equal(noConclusion.status, 422);
    assert.deepEqual(noConclusion.body.errors, [{ resource: "CheckRun", code: "missing_field", field: "conclusion" }]);
    assert.equal((await update(run.body.id, { status: "completed" })).status, 422);
    assert.equal((await create({ name: "build", head_sha: sha, status: "done" })).status, 422);
    assert.equal((await create({ name: "build", head_sha: sha, conclusion: "great" })).status, 422);
    assert.equal((await create({ name: "build", head_sha: sha, output: { title: "No summary" } })).status, 422);
    const unknown = await create({ name: "build", head_sha: "3".repeat(40) });
    assert.deepEqual([unknown.status, unknown.body.message], [422, `No commit found for SHA: ${"3".repeat(40)}`]);
    const foreign = await update(run.body.id, { conclusion: "success" }, otherToken);
    assert.deepEqual([foreign.status, foreign.body.message], [403, "Resource not accessible by integration"]);
    assert.equal((await update(run.body.id, { conclusion: "success" }, ALICE_TOKEN)).status, 403);
    assert.equal((await update(999_999, { conclusion: "success" })).status, 404);
    assert.equal((await call("GET", `${REPO}/check-runs/999999`)).status, 404);
    assert.equal((await call("GET", `${REPO}/check-suites/nope`)).status, 404);
    assert.equal(await written(), before);
  });

  test("a rerequest queues the suite again and asks its app alone; another app may not", async () => {
    const sha = await commit("rerequested");
    const run = await create({ name: "build", head_sha: sha, conclusion: "failure" });
    await waitFor(appHook, sha, 4);
    assert.equal((await call("POST", `${REPO}/check-runs/${run.body.id}/rerequest`, otherToken)).status, 403);
    const again = await call("POST", `${REPO}/check-runs/${run.body.id}/rerequest`);
    assert.deepEqual([again.status, again.body], [201, {}]);
    const suiteId = run.body.check_suite.id;
    const queued = (await call("GET", `${REPO}/check-suites/${suiteId}`)).body;
    assert.deepEqual([queued.status, queued.conclusion], ["queued", null]);
    assert.equal((await call("GET", `${REPO}/check-runs/${run.body.id}`)).body.status, "completed");
    const suiteAgain = await call("POST", `${REPO}/check-suites/${suiteId}/rerequest`);
    assert.deepEqual([suiteAgain.status, suiteAgain.body], [201, {}]);
    assert.equal((await call("POST", `${REPO}/check-suites/${suiteId}/rerequest`, otherToken)).status, 403);
    assert.deepEqual(await waitFor(appHook, sha, 6), [
      "check_suite.requested",
      "check_run.created",
      "check_run.completed",
      "check_suite.completed",
      "check_run.rerequested",
      "check_suite.rerequested",
    ]);
    assertWebhook("check_run", "rerequested", got(appHook, "check_run", sha)[2]);
    assertWebhook("check_suite", "rerequested", got(appHook, "check_suite", sha)[2]);
    // The repository's hook gets only created and completed (GitHub: "repository hooks get only these two").
    assert.deepEqual(await waitFor(repoHook, sha, 3), [
      "check_run.created",
      "check_run.completed",
      "check_suite.completed",
    ]);
    const queuedRun = await create({ name: "lint", head_sha: sha });
    const refused = await call("POST", `${REPO}/check-runs/${queuedRun.body.id}/rerequest`);
    assert.equal(refused.status, 422);
  });

  test("@octokit/rest 22 creates, updates and lists check runs with an installation token", async () => {
    const sha = await commit("octokit");
    const octokit = new Octokit({ baseUrl: t.url, auth: token });
    const repo = { owner: "alice", repo: "hello" };
    const made = await octokit.checks.create({ ...repo, name: "octo", head_sha: sha, status: "in_progress" });
    assert.equal(made.status, 201);
    const updated = await octokit.checks.update({
      ...repo,
      check_run_id: made.data.id,
      conclusion: "neutral",
      output: {
        title: "Octo",
        summary: "Done",
        annotations: [{ path: "README.md", start_line: 1, end_line: 1, annotation_level: "notice", message: "hi" }],
      },
    });
    assert.deepEqual(
      [updated.data.status, updated.data.conclusion, updated.data.output.annotations_count],
      ["completed", "neutral", 1],
    );
    const listed = await octokit.checks.listForRef({ ...repo, ref: "octokit" });
    assert.deepEqual([listed.data.total_count, listed.data.check_runs.map((r) => r.id)], [1, [made.data.id]]);
    const refused = await new Octokit({ baseUrl: t.url, auth: ALICE_TOKEN }).checks
      .create({ ...repo, name: "octo", head_sha: sha })
      .catch((error: { status: number }) => error);
    assert.equal((refused as { status: number }).status, 403);
  });
});
