/**
 * Branch protection over the app's real routes and store: an administrator's rules written whole, read whole and by
 * part, and shown on the branch; GitHub's 404 for anyone else and its 422s; merges into a protected branch held to its
 * required checks (statuses and check runs) and approvals, 405 in GitHub's words and `mergeable_state` blocked or
 * behind until they are met; pushes held to it, the refs API's 422 and the contents API's 409, force-pushes and
 * deletions refused for everyone, an administrator passing the rest unless the rules are enforced on them; and an
 * organization's repository's pushers. Bodies against GitHub's published schemas; a refusal writes nothing. And the
 * latest @octokit/rest, unmodified, doing the same through its own methods.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { assertSchema, compileSchemas } from "../compat/schemas.js";
import { assertWebhook } from "../helpers/webhook-schemas.js";
import { issueScene, ZOE_TOKEN, type IssueScene, type Json } from "../helpers/issue-scene.js";
import { Octokit } from "octokit-rest-latest";
import { ALICE_TOKEN, BOB_TOKEN } from "../helpers/client-world.js";
import { startListeningApp, type ListeningApp } from "../helpers/listening-app.js";
import { registerApp } from "../helpers/github-app.js";
import { InstallationTokens } from "../../src/server/services/apps/installation-tokens.js";

const REPO = "/repos/alice/hello";
const PROTECTION = `${REPO}/branches/main/protection`;
const b64 = (text: string) => Buffer.from(text).toString("base64");
const DOCS = "https://docs.github.com/articles/about-protected-branches";

/** Rules as GitHub's PUT takes them, every part given (`null` leaves one off). */
const rules = (parts: Json = {}): Json => ({
  required_status_checks: { strict: false, contexts: ["ci"] },
  enforce_admins: false,
  required_pull_request_reviews: { required_approving_review_count: 1 },
  restrictions: null,
  ...parts,
});

describe("branch protection: written by administrators, obeyed by merges and pushes", () => {
  let s: IssueScene;
  const json = (res: { statusCode: number; body: string }, status: number): Json => {
    assert.equal(res.statusCode, status, res.body);
    return res.body === "" ? {} : (JSON.parse(res.body) as Json);
  };
  const call = async (
    method: "GET" | "POST" | "PATCH" | "PUT" | "DELETE",
    path: string,
    body?: unknown,
    status = 200,
    token?: string | null,
  ) => json(await s.send(method, path.startsWith("/") ? path : `${REPO}/${path}`, token, body), status);
  const protect = (parts: Json = {}) => call("PUT", PROTECTION, rules(parts));
  const headOf = async (branch: string) => (await call("GET", `git/ref/heads/${branch}`)).object.sha as string;
  const write = (path: string, text: string, branch: string, token?: string, status = 201) =>
    call("PUT", `contents/${path}`, { message: `Write ${path}`, content: b64(text), branch }, status, token);
  /** Every delivery so far, once one matching `match` has come. */
  const deliveredOnce = async (match: (d: Json) => boolean) => {
    for (let tries = 0; ; tries++) {
      const all = await s.delivered(s.deliveries());
      if (all.some(match)) return all;
      assert.ok(tries < 100, "the delivery came");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  /** What a write can leave behind (the hook's deliveries aside: earlier webhooks may still be arriving). */
  const written = async () => JSON.stringify((JSON.parse(await s.written()) as unknown[]).slice(0, -1));
  const mergeState = async (number: number) => (await call("GET", `pulls/${number}`)).mergeable_state as string;
  /** A pull request by zoe of a new branch off main with one file: its number. */
  const pullOf = async (branch: string) => {
    await call("POST", "git/refs", { ref: `refs/heads/${branch}`, sha: await headOf("main") }, 201);
    await write(`${branch}.txt`, `${branch}\n`, branch, ZOE_TOKEN);
    return (await call("POST", "pulls", { title: branch, head: branch, base: "main" }, 201, ZOE_TOKEN))
      .number as number;
  };

  before(async () => {
    compileSchemas(
      "protected-branch",
      "branch-protection",
      "status-check-policy",
      "protected-branch-pull-request-review",
      "branch-with-protection",
      "branch-short",
    );
    s = await issueScene();
    await write("README.md", "# hello\n", "main");
    await call("POST", "git/refs", { ref: "refs/heads/topic", sha: await headOf("main") }, 201);
  });
  after(async () => s.close());

  test("an administrator's rules: PUT answers GitHub's shape, GET and its parts read them, the branch shows them", async () => {
    const put = await protect({
      required_status_checks: { strict: true, contexts: ["ci", "lint", "ci"] },
      required_pull_request_reviews: { required_approving_review_count: 2, dismiss_stale_reviews: true },
      required_linear_history: true,
    });
    assertSchema("protected-branch", put);
    assert.match(put.url, /\/repos\/alice\/hello\/branches\/main\/protection$/);
    assert.deepEqual(put.required_status_checks.contexts, ["ci", "lint"]);
    assert.deepEqual(put.required_status_checks.checks, [
      { context: "ci", app_id: null },
      { context: "lint", app_id: null },
    ]);
    assert.deepEqual(
      [put.required_pull_request_reviews.required_approving_review_count, put.enforce_admins.enabled],
      [2, false],
    );
    assert.deepEqual([put.required_linear_history.enabled, put.allow_force_pushes.enabled], [true, false]);
    assert.equal(put.restrictions, undefined, "left off, as GitHub leaves a null part out");
    const got = await call("GET", PROTECTION);
    assertSchema("branch-protection", got);
    assert.deepEqual(got, put);
    const checks = await call("GET", `${PROTECTION}/required_status_checks`);
    assertSchema("status-check-policy", checks);
    assert.deepEqual([checks.strict, checks.contexts], [true, ["ci", "lint"]]);
    const reviews = await call("GET", `${PROTECTION}/required_pull_request_reviews`);
    assertSchema("protected-branch-pull-request-review", reviews);
    assert.deepEqual([reviews.required_approving_review_count, reviews.dismiss_stale_reviews], [2, true]);
    // The branch: protected, its checks required of non-administrators; the list shows it, `protected` filters.
    const branch = await call("GET", "branches/main");
    assertSchema("branch-with-protection", branch);
    assert.deepEqual(
      [branch.protected, branch.protection.enabled, branch.protection.required_status_checks.enforcement_level],
      [true, true, "non_admins"],
    );
    assert.deepEqual(branch.protection.required_status_checks.contexts, ["ci", "lint"]);
    const listed = (await call("GET", "branches")) as unknown as Json[];
    assertSchema("branch-short", listed);
    assert.deepEqual(
      listed.map((b) => [b.name, b.protected, b.protection_url !== undefined]),
      [
        ["main", true, true],
        ["topic", false, false],
      ],
    );
    const only = async (query: string) =>
      ((await call("GET", `branches?protected=${query}`)) as unknown as Json[]).map((b) => b.name);
    assert.deepEqual([await only("true"), await only("false")], [["main"], ["topic"]]);
    assert.equal((await call("GET", "branches/topic")).protected, false);
  });

  test("anyone but an administrator is told nothing is there; GitHub's 404s and 422s, nothing written", async () => {
    await protect();
    const before = await call("GET", PROTECTION);
    for (const token of [ZOE_TOKEN, BOB_TOKEN, null]) {
      const read = json(await s.send("GET", PROTECTION, token), 404);
      assert.equal(read.message, "Not Found");
      assert.equal((await s.send("GET", `${PROTECTION}/required_status_checks`, token)).statusCode, 404);
    }
    assert.equal((await s.send("PUT", PROTECTION, ZOE_TOKEN, rules())).statusCode, 404);
    assert.equal((await s.send("DELETE", PROTECTION, ZOE_TOKEN)).statusCode, 404);
    assert.equal((await s.send("PUT", PROTECTION, null, rules())).statusCode, 401);
    assert.equal(json(await s.send("GET", `${REPO}/branches/topic/protection`), 404).message, "Branch not protected");
    assert.equal(json(await s.send("GET", `${REPO}/branches/nothing/protection`), 404).message, "Branch not found");
    assert.equal(
      json(await s.send("PUT", `${REPO}/branches/nothing/protection`, undefined, rules()), 404).message,
      "Branch not found",
    );
    const refused = async (body: Json, message: string | RegExp) => {
      const answer = json(await s.send("PUT", PROTECTION, undefined, body), 422);
      if (typeof message === "string") assert.equal(answer.message, message);
      else assert.match(answer.message + JSON.stringify(answer.errors ?? []), message);
    };
    await refused(
      { required_status_checks: null },
      'Invalid request.\n\n"enforce_admins", "required_pull_request_reviews", "restrictions" weren\'t supplied.',
    );
    await refused(
      rules({ required_status_checks: { contexts: ["ci"] } }),
      'Invalid request.\n\n"strict" wasn\'t supplied.',
    );
    await refused(
      rules({ restrictions: { users: ["zoe"], teams: [] } }),
      "Only organization repositories can have users and team restrictions",
    );
    await refused(
      rules({ required_pull_request_reviews: { required_approving_review_count: 7 } }),
      /required_approving_review_count/,
    );
    await refused(rules({ enforce_admins: "yes" }), /enforce_admins/);
    assert.deepEqual(await call("GET", PROTECTION), before);
    const noReviews = await protect({ required_pull_request_reviews: null, required_status_checks: null });
    assert.equal(noReviews.required_pull_request_reviews, undefined);
    assert.equal(
      json(await s.send("GET", `${PROTECTION}/required_pull_request_reviews`), 404).message,
      "Required pull request reviews not enabled",
    );
    assert.equal(
      json(await s.send("GET", `${PROTECTION}/required_status_checks`), 404).message,
      "Required status checks not enabled",
    );
  });

  test("a merge waits for its required checks and approvals: 405 in GitHub's words, mergeable_state blocked", async () => {
    await protect();
    const number = await pullOf("checked");
    const head = await headOf("checked");
    assert.equal(await mergeState(number), "blocked");
    const merge = async (status: number) =>
      json(await s.send("PUT", `${REPO}/pulls/${number}/merge`, ZOE_TOKEN, {}), status);
    const both = await merge(405);
    assert.equal(
      both.message,
      'At least 1 approving review is required by reviewers with write access. Required status check "ci" is expected.',
    );
    assert.equal(both.documentation_url, DOCS);
    // A failing status does not pass; a success does. A reader's approval does not count; a writer's does.
    await call("POST", `statuses/${head}`, { state: "failure", context: "ci" }, 201, ZOE_TOKEN);
    assert.match((await merge(405)).message, /Required status check "ci" is expected\.$/);
    await call("POST", `statuses/${head}`, { state: "success", context: "ci" }, 201, ZOE_TOKEN);
    assert.equal((await merge(405)).message, "At least 1 approving review is required by reviewers with write access.");
    await call("POST", `pulls/${number}/reviews`, { event: "APPROVE" }, 200, BOB_TOKEN);
    assert.equal(await mergeState(number), "blocked");
    const before = await written();
    const main = await headOf("main");
    await merge(405);
    assert.deepEqual([await written(), await headOf("main")], [before, main], "a refused merge writes nothing");
    await call("POST", `pulls/${number}/reviews`, { event: "APPROVE" }, 200);
    assert.equal(await mergeState(number), "clean");
    const merged = await merge(200);
    assert.equal(merged.merged, true);
    assert.equal(await headOf("main"), merged.sha);
    const [event] = (await call("GET", "events?per_page=3")) as unknown as Json[];
    assert.deepEqual([event!.type, event!.payload.action], ["PullRequestEvent", "closed"]);
    const all = await deliveredOnce((d) => d.event === "pull_request" && d.action === "closed");
    assert.ok(
      all.some((d) => d.event === "push" && d.body.after === merged.sha),
      "the merge's push",
    );
  });

  test("strict checks: a head behind its base is `behind`, every check expected, until updated and checked again", async () => {
    await protect({
      required_status_checks: { strict: true, contexts: ["ci"] },
      required_pull_request_reviews: { required_approving_review_count: 1, dismiss_stale_reviews: true },
    });
    const number = await pullOf("behind");
    await call("POST", `statuses/${await headOf("behind")}`, { state: "success", context: "ci" }, 201, ZOE_TOKEN);
    await call("POST", `pulls/${number}/reviews`, { event: "APPROVE" }, 200);
    assert.equal(await mergeState(number), "clean");
    // alice administers the repository and the rules are not enforced on her: her push to main passes them.
    await write("NEWS.md", "news\n", "main");
    assert.equal(await mergeState(number), "behind");
    const refused = json(await s.send("PUT", `${REPO}/pulls/${number}/merge`, ZOE_TOKEN, {}), 405);
    assert.equal(refused.message, 'Required status check "ci" is expected.');
    await call("PUT", `pulls/${number}/update-branch`, {}, 202, ZOE_TOKEN);
    // Up to date now, but the new head is not checked, and the approval was of the old one (stale reviews dismissed).
    assert.equal(await mergeState(number), "blocked");
    await call("POST", `statuses/${await headOf("behind")}`, { state: "success", context: "ci" }, 201, ZOE_TOKEN);
    assert.match(json(await s.send("PUT", `${REPO}/pulls/${number}/merge`, ZOE_TOKEN, {}), 405).message, /approving/);
    await call("POST", `pulls/${number}/reviews`, { event: "APPROVE" }, 200);
    assert.equal(await mergeState(number), "clean");
    await call("PUT", `pulls/${number}/merge`, {}, 200, ZOE_TOKEN);
  });

  test("a required check of an app: only that app's check run passes it; `app_id: -1` takes any source", async () => {
    const tokens = new InstallationTokens(s.t.store, s.t.clock.now);
    const mint = async (name: string) => {
      const bot = await registerApp(s.t, { owner: "alice", name, permissions: { checks: "write" } });
      return { bot, token: (await tokens.mint(bot.app, await bot.install("alice", ["hello"]))).token };
    };
    const ci = await mint("Required CI");
    const other = await mint("Other CI");
    await protect({
      required_status_checks: { strict: false, checks: [{ context: "build", app_id: ci.bot.app.id }] },
      required_pull_request_reviews: null,
    });
    assert.deepEqual((await call("GET", `${PROTECTION}/required_status_checks`)).checks, [
      { context: "build", app_id: ci.bot.app.id },
    ]);
    const number = await pullOf("by-app");
    const head = await headOf("by-app");
    const merge = (status: number) =>
      s.send("PUT", `${REPO}/pulls/${number}/merge`, ZOE_TOKEN, {}).then((r) => json(r, status));
    const run = (token: string, conclusion: string) =>
      call("POST", "check-runs", { name: "build", head_sha: head, status: "completed", conclusion }, 201, token);
    // A status of the name, or another app's run of it, is not the app's check.
    await call("POST", `statuses/${head}`, { state: "success", context: "build" }, 201, ZOE_TOKEN);
    await run(other.token, "success");
    assert.equal((await merge(405)).message, 'Required status check "build" is expected.');
    await run(ci.token, "failure");
    assert.equal(await mergeState(number), "blocked");
    await run(ci.token, "neutral");
    assert.equal(await mergeState(number), "clean");
    // Any source: the status of the name passes it, whatever the app's newest run says.
    await run(ci.token, "failure");
    await protect({
      required_status_checks: { strict: false, checks: [{ context: "build", app_id: -1 }] },
      required_pull_request_reviews: null,
    });
    assert.equal(await mergeState(number), "clean");
    await merge(200);
  });

  test("pushes obey it: the refs API's 422 and the contents API's 409, nothing written", async () => {
    await protect();
    await call("POST", "git/refs", { ref: "refs/heads/merge-me", sha: await headOf("main") }, 201);
    await write("merge-me.txt", "merge me\n", "merge-me");
    const main = await headOf("main");
    const before = await written();
    const file = json(
      await s.send("PUT", `${REPO}/contents/direct.txt`, ZOE_TOKEN, { message: "Direct", content: b64("x\n") }),
      409,
    );
    assert.equal(
      file.message,
      'Could not update file: Required status check "ci" is expected. Changes must be made through a pull request.',
    );
    assert.equal(file.documentation_url, DOCS);
    // A fast-forward made through git data: its commit is checked, and the branch still takes changes by pull only.
    const tree = (await call("GET", `git/commits/${main}`)).tree.sha;
    const commit = (await call("POST", "git/commits", { message: "Direct", tree, parents: [main] }, 201, ZOE_TOKEN))
      .sha;
    await call("POST", `statuses/${commit}`, { state: "success", context: "ci" }, 201, ZOE_TOKEN);
    const ref = json(await s.send("PATCH", `${REPO}/git/refs/heads/main`, ZOE_TOKEN, { sha: commit }), 422);
    assert.equal(ref.message, "Changes must be made through a pull request.");
    // Force-pushes and deletions are refused to everyone, the repository's owner too.
    const older = (await call("GET", `git/commits/${main}`)).parents[0].sha;
    const forced = json(
      await s.send("PATCH", `${REPO}/git/refs/heads/main`, undefined, { sha: older, force: true }),
      422,
    );
    assert.equal(forced.message, "Cannot force-push to a protected branch");
    const deleted = json(await s.send("DELETE", `${REPO}/git/refs/heads/main`), 422);
    assert.equal(deleted.message, "Cannot delete a protected branch");
    const merged = json(await s.send("POST", `${REPO}/merges`, ZOE_TOKEN, { base: "main", head: "merge-me" }), 409);
    assert.match(merged.message, /Changes must be made through a pull request\.$/);
    assert.deepEqual([await written(), await headOf("main")], [before, main], "refused pushes write nothing");
    // The owner administers the repository: the other rules leave her alone, until they are enforced on her too.
    await call("PATCH", "git/refs/heads/main", { sha: commit });
    assert.equal(await headOf("main"), commit);
    const [event] = (await call("GET", "events?per_page=1")) as unknown as Json[];
    assert.deepEqual([event!.type, event!.payload.head], ["PushEvent", commit]);
    const enforced = await protect({ enforce_admins: true });
    assert.equal(enforced.enforce_admins.enabled, true);
    assert.equal((await call("GET", "branches/main")).protection.required_status_checks.enforcement_level, "everyone");
    const own = json(
      await s.send("PUT", `${REPO}/contents/own.txt`, undefined, { message: "Own", content: b64("x\n") }),
      409,
    );
    assert.match(own.message, /^Could not update file: /);
    // Allowed, a force-push and a deletion go through.
    await protect({
      allow_force_pushes: true,
      allow_deletions: true,
      required_status_checks: null,
      required_pull_request_reviews: null,
    });
    await call("PATCH", "git/refs/heads/main", { sha: main, force: true });
    assert.equal(await headOf("main"), main);
  });

  test("DELETE removes it: 204, the branch unprotected and pushed to freely", async () => {
    await protect();
    assert.equal((await s.send("DELETE", PROTECTION)).statusCode, 204);
    assert.equal(json(await s.send("GET", PROTECTION), 404).message, "Branch not protected");
    assert.equal(json(await s.send("DELETE", PROTECTION), 404).message, "Branch not protected");
    assert.equal((await call("GET", "branches/main")).protected, false);
    await write("free.txt", "free\n", "main", ZOE_TOKEN);
  });

  test("an organization's repository: only the users its restrictions name push, and they see the rest of the rules", async () => {
    const site = "/repos/acme/site";
    await call("PUT", `${site}/contents/README.md`, { message: "Site", content: b64("site\n") }, 201);
    const invitation = await call("PUT", `${site}/collaborators/zoe`, undefined, 201);
    assert.equal((await s.send("PATCH", `/user/repository_invitations/${invitation.id}`, ZOE_TOKEN)).statusCode, 204);
    const restricted = (users: string[]) =>
      call("PUT", `${site}/branches/main/protection`, {
        required_status_checks: null,
        enforce_admins: null,
        required_pull_request_reviews: null,
        restrictions: { users, teams: [] },
      });
    const none = await restricted([]);
    assert.deepEqual(none.restrictions.users, []);
    const put = (status: number) =>
      s
        .send("PUT", `${site}/contents/zoe-${status}.txt`, ZOE_TOKEN, { message: "Zoe", content: b64("z\n") })
        .then((res) => json(res, status));
    assert.equal(
      (await put(409)).message,
      "Could not update file: You're not authorized to push to this branch. Visit https://docs.github.com/articles/about-protected-branches for more information.",
    );
    const zoe = await restricted(["zoe"]);
    assertSchema("protected-branch", zoe);
    assert.deepEqual(
      zoe.restrictions.users.map((u: Json) => u.login),
      ["zoe"],
    );
    await put(201);
    const unknown = json(
      await s.send("PUT", `${site}/branches/main/protection`, undefined, {
        required_status_checks: null,
        enforce_admins: null,
        required_pull_request_reviews: null,
        restrictions: { users: ["nobody-at-all"], teams: [] },
      }),
      422,
    );
    assert.equal(unknown.errors[0].field, "restrictions.users");
  });

  test("no Events API event and no webhook of a protection's writes", async () => {
    const events = JSON.stringify(await call("GET", "events?per_page=5"));
    await protect();
    await call("DELETE", PROTECTION, undefined, 204);
    assert.equal(JSON.stringify(await call("GET", "events?per_page=5")), events);
    // An issue opened after them: once its webhook has come, every delivery made before it has, none of a protection.
    const issue = await call("POST", "issues", { title: "After protection" }, 201);
    const all = await deliveredOnce((d) => d.event === "issues" && d.body.issue.number === issue.number);
    assertWebhook(
      "issues",
      "opened",
      all.find((d) => d.event === "issues" && d.body.issue.number === issue.number)!.body,
    );
    assert.deepEqual(
      all.filter((d) => d.event.startsWith("branch_protection")),
      [],
    );
  });
});

describe("@octokit/rest 22 against a protected branch: protection written and read, a commit commented, a merge refused", () => {
  let t: ListeningApp;
  before(async () => {
    t = await startListeningApp();
  });
  after(() => t.close());

  test("Octokit's own methods, unmodified", async () => {
    const octokit = new Octokit({ baseUrl: t.url, auth: ALICE_TOKEN });
    const repo = { owner: "alice", repo: "hello" };
    const made = await octokit.repos.createOrUpdateFileContents({
      ...repo,
      path: "README.md",
      message: "Hello",
      content: b64("# hello\n"),
    });
    const sha = made.data.commit.sha!;
    await octokit.repos.updateBranchProtection({
      ...repo,
      branch: "main",
      required_status_checks: { strict: false, contexts: ["ci"] },
      enforce_admins: true,
      required_pull_request_reviews: null,
      restrictions: null,
    });
    const { data: protection } = await octokit.repos.getBranchProtection({ ...repo, branch: "main" });
    assert.deepEqual(protection.required_status_checks?.contexts, ["ci"]);
    const { data: checks } = await octokit.repos.getStatusChecksProtection({ ...repo, branch: "main" });
    assert.equal(checks.strict, false);
    const { data: branch } = await octokit.repos.getBranch({ ...repo, branch: "main" });
    assert.deepEqual(
      [branch.protected, branch.protection.required_status_checks?.enforcement_level],
      [true, "everyone"],
    );

    const { data: comment } = await octokit.repos.createCommitComment({ ...repo, commit_sha: sha, body: "Checked?" });
    const listed = await octokit.paginate(octokit.repos.listCommentsForCommit, { ...repo, commit_sha: sha });
    assert.deepEqual(
      listed.map((c) => c.body),
      ["Checked?"],
    );
    await octokit.repos.updateCommitComment({ ...repo, comment_id: comment.id, body: "Checked." });
    assert.equal((await octokit.repos.getCommitComment({ ...repo, comment_id: comment.id })).data.body, "Checked.");

    await octokit.git.createRef({ ...repo, ref: "refs/heads/topic", sha });
    await octokit.repos.createOrUpdateFileContents({
      ...repo,
      path: "topic.txt",
      message: "Topic",
      content: b64("topic\n"),
      branch: "topic",
    });
    const { data: pull } = await octokit.pulls.create({ ...repo, title: "Topic", head: "topic", base: "main" });
    assert.equal((await octokit.pulls.get({ ...repo, pull_number: pull.number })).data.mergeable_state, "blocked");
    await assert.rejects(octokit.pulls.merge({ ...repo, pull_number: pull.number }), {
      status: 405,
      message: /Required status check "ci" is expected\./,
    });
    await octokit.repos.createCommitStatus({ ...repo, sha: pull.head.sha, state: "success", context: "ci" });
    assert.equal((await octokit.pulls.merge({ ...repo, pull_number: pull.number })).data.merged, true);
    await octokit.repos.deleteBranchProtection({ ...repo, branch: "main" });
    assert.equal((await octokit.repos.getBranch({ ...repo, branch: "main" })).data.protected, false);
  });
});
