/**
 * Pull requests as actions, over the app's real routes and store: opening one from a branch (201, PullRequestEvent
 * in its 2025 trimmed shape, `pull_request.opened`), GitHub's refusals (no commits between, one already open, a base
 * or head that is not a branch), its commits and files, a push to its head (`synchronize`), mergeability computed on
 * paths, and merging (a merge commit with both parents, the push on the base, `merged` and `closed`, the issue its
 * body closes closed by the merge commit); each body checked against GitHub's published schema.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { BOB_TOKEN } from "../helpers/client-world.js";
import { assertSchema, compileSchemas } from "../compat/schemas.js";
import { assertWebhook } from "../helpers/webhook-schemas.js";
import { issueScene, ZOE_TOKEN, type IssueScene, type Json } from "../helpers/issue-scene.js";

const REPO = "/repos/alice/hello";
const b64 = (text: string) => Buffer.from(text).toString("base64");

describe("pull requests: opened, synchronized, merged", () => {
  let s: IssueScene;
  const json = (res: { statusCode: number; body: string }, status: number): Json => {
    assert.equal(res.statusCode, status, res.body);
    return JSON.parse(res.body) as Json;
  };
  const call = async (method: "GET" | "POST" | "PATCH" | "PUT", path: string, body?: unknown, status = 200) =>
    json(await s.send(method, `${REPO}${path}`, undefined, body), status);
  const put = (path: string, text: string, branch: string, sha?: string) =>
    call(
      "PUT",
      `/contents/${path}`,
      { message: `Write ${path}`, content: b64(text), branch, ...(sha ? { sha } : {}) },
      sha ? 200 : 201,
    );
  const branchSha = async (branch: string) => (await call("GET", `/git/ref/heads/${branch}`)).object.sha as string;
  const latestEvents = async (n: number) => (await call("GET", `/events?per_page=${n}`)) as unknown as Json[];

  let issueNumber = 0;
  before(async () => {
    compileSchemas(
      "pull-request",
      "pull-request-simple",
      "pull-request-merge-result",
      "pull-request-review",
      "issue",
      "commit",
      "git-commit",
    );
    s = await issueScene();
    await put("README.md", "# hello\n", "main");
    await call("POST", "/git/refs", { ref: "refs/heads/feature", sha: await branchSha("main") }, 201);
    await put("src/app.txt", "one\ntwo\n", "feature");
    issueNumber = (await call("POST", "/issues", { title: "The app is missing" }, 201)).number;
    // Two branches made (create and push each), a push, an issue opened: each test counts on from there.
    await s.delivered(6);
  });
  after(async () => s.close());

  let number = 0;
  test("opening one: 201, numbered with the issues, its commits and files computed, event and webhook", async () => {
    const seen = s.deliveries();
    const head = await branchSha("feature");
    const base = await branchSha("main");
    const res = await s.send("POST", `${REPO}/pulls`, undefined, {
      title: "Add the app",
      head: "feature",
      base: "main",
      body: `Fixes #${issueNumber}`,
    });
    const pull = json(res, 201);
    assertSchema("pull-request", pull);
    number = pull.number;
    assert.equal(number, issueNumber + 1, "one number space with the issues");
    assert.equal(res.headers.location, pull.url);
    assert.deepEqual(
      [pull.state, pull.merged, pull.mergeable, pull.mergeable_state, pull.draft],
      ["open", false, true, "clean", false],
    );
    assert.deepEqual([pull.head.ref, pull.head.sha, pull.head.label], ["feature", head, "alice:feature"]);
    assert.deepEqual([pull.base.ref, pull.base.sha, pull.base.repo.full_name], ["main", base, "alice/hello"]);
    assert.deepEqual([pull.commits, pull.changed_files, pull.additions, pull.deletions], [1, 1, 2, 0]);
    assert.equal(pull.html_url, `http://localhost/alice/hello/pull/${number}`);

    const [event] = await latestEvents(1);
    assert.equal(event!.type, "PullRequestEvent");
    assert.deepEqual(event!.payload, {
      action: "opened",
      number,
      pull_request: {
        url: `http://localhost${REPO}/pulls/${number}`,
        id: pull.id,
        number,
        head: {
          ref: "feature",
          sha: head,
          repo: { id: pull.head.repo.id, url: `http://localhost${REPO}`, name: "hello" },
        },
        base: {
          ref: "main",
          sha: base,
          repo: { id: pull.base.repo.id, url: `http://localhost${REPO}`, name: "hello" },
        },
      },
    });
    const [opened] = (await s.delivered(seen + 1)).slice(seen);
    assert.deepEqual([opened!.event, opened!.action, opened!.body.number], ["pull_request", "opened", number]);
    assertWebhook("pull_request", "opened", opened!.body);
    assert.equal(opened!.body.pull_request.head.sha, head);

    // A pull request is an issue: listed with the issues, with its `pull_request`.
    const asIssue = await call("GET", `/issues/${number}`);
    assertSchema("issue", asIssue);
    assert.equal(asIssue.pull_request.url, pull.url);
    assert.equal(asIssue.html_url, pull.html_url);
    const listed = (await call("GET", "/pulls")) as unknown as Json[];
    assert.deepEqual(
      listed.map((p) => p.number),
      [number],
    );
    assertSchema("pull-request-simple", listed[0]);
    assert.deepEqual((await call("GET", "/pulls?head=alice:feature")) as unknown as Json[], listed);
    assert.deepEqual(await call("GET", "/pulls?head=alice:other"), []);
    assert.deepEqual(await call("GET", "/pulls?state=closed"), []);
  });

  test("GitHub's refusals change nothing", async () => {
    await s.delivered(7);
    const before = await s.written();
    const refuse = async (body: Json, error: Json) => {
      const answer = json(await s.send("POST", `${REPO}/pulls`, undefined, body), 422);
      assert.equal(answer.message, "Validation Failed");
      assert.deepEqual(answer.errors, [{ resource: "PullRequest", field: "", ...error }]);
    };
    await refuse(
      { title: "Again", head: "feature", base: "main" },
      { code: "custom", message: "A pull request already exists for alice:feature." },
    );
    await refuse(
      { title: "Nothing", head: "main", base: "main" },
      { code: "custom", message: "No commits between main and main" },
    );
    await refuse({ title: "No base", head: "feature", base: "nope" }, { field: "base", code: "invalid" });
    await refuse({ title: "No head", head: "nope", base: "main" }, { field: "head", code: "invalid" });
    assert.equal((await s.send("GET", `${REPO}/pulls/${issueNumber}`)).statusCode, 404, "an issue is no pull request");
    assert.equal(await s.written(), before);
  });

  test("its commits and files; a push to its head is `synchronize`", async () => {
    const seen = s.deliveries();
    const before = await branchSha("feature");
    const file = (await call("GET", "/contents/src/app.txt?ref=feature")).sha;
    await put("src/app.txt", "one\ntwo\nthree\n", "feature", file);
    const after = await branchSha("feature");
    const delivered = (await s.delivered(seen + 2)).slice(seen);
    const sync = delivered.find((d) => d.event === "pull_request");
    assert.ok(sync, JSON.stringify(delivered.map((d) => d.event)));
    assert.deepEqual([sync.action, sync.body.before, sync.body.after], ["synchronize", before, after]);
    assertWebhook("pull_request", "synchronize", sync.body);

    const commits = (await call("GET", `/pulls/${number}/commits`)) as unknown as Json[];
    assert.deepEqual(
      commits.map((c) => c.commit.message),
      ["Write src/app.txt", "Write src/app.txt"],
    );
    for (const commit of commits) assertSchema("commit", commit);
    const files = (await call("GET", `/pulls/${number}/files`)) as unknown as Json[];
    assert.deepEqual(
      files.map((f) => [f.filename, f.status, f.additions, f.deletions]),
      [["src/app.txt", "added", 3, 0]],
    );
    assert.match(files[0]!.patch, /^@@ -0,0 \+1,3 @@\n\+one\n\+two\n\+three$/);
    const pull = await call("GET", `/pulls/${number}`);
    assert.deepEqual([pull.head.sha, pull.commits], [after, 2]);
  });

  test("a path changed on both sides conflicts: 405 on merge, nothing written", async () => {
    await call("POST", "/git/refs", { ref: "refs/heads/clash", sha: await branchSha("main") }, 201);
    await put("README.md", "# clash\n", "clash", (await call("GET", "/contents/README.md?ref=clash")).sha);
    const clash = await call("POST", "/pulls", { title: "Clash", head: "clash", base: "main" }, 201);
    await put("README.md", "# main moved\n", "main", (await call("GET", "/contents/README.md")).sha);
    const read = await call("GET", `/pulls/${clash.number}`);
    assert.deepEqual([read.mergeable, read.mergeable_state], [false, "dirty"]);
    const main = await branchSha("main");
    const refused = json(await s.send("PUT", `${REPO}/pulls/${clash.number}/merge`, undefined, {}), 405);
    assert.equal(refused.message, "Pull Request is not mergeable");
    assert.equal(await branchSha("main"), main);
    assert.equal((await call("GET", `/pulls/${clash.number}`)).state, "open");
    // Closed by its author instead: PullRequestEvent `closed`, not merged.
    const closed = await call("PATCH", `/pulls/${clash.number}`, { state: "closed" });
    assert.deepEqual(
      [closed.state, closed.merged, closed.mergeable, closed.mergeable_state],
      ["closed", false, null, "unknown"],
    );
    const [event] = await latestEvents(1);
    assert.deepEqual([event!.type, event!.payload.action], ["PullRequestEvent", "closed"]);
    // A branch made (create, push), two pushes, a pull request opened and closed: after the 9 of the tests before.
    await s.delivered(15);
  });

  test("review requests and reviews: zoe asked, zoe approves, the author may not approve their own", async () => {
    const requested = await call("POST", `/pulls/${number}/requested_reviewers`, { reviewers: ["zoe"] }, 201);
    assertSchema("pull-request-simple", requested);
    assert.deepEqual(
      requested.requested_reviewers.map((u: Json) => u.login),
      ["zoe"],
    );
    assert.deepEqual(
      (await call("GET", `/pulls/${number}/requested_reviewers`)).users.map((u: Json) => u.login),
      ["zoe"],
    );
    const [asked] = await latestEvents(1);
    assert.deepEqual(
      [asked!.type, asked!.payload.action, asked!.payload.requested_reviewer.login],
      ["PullRequestEvent", "review_requested", "zoe"],
    );
    assert.equal(
      json(
        await s.send("POST", `${REPO}/pulls/${number}/requested_reviewers`, undefined, { reviewers: ["alice"] }),
        422,
      ).message,
      "Review cannot be requested from pull request author.",
    );
    assert.equal(
      json(await s.send("POST", `${REPO}/pulls/${number}/reviews`, undefined, { event: "APPROVE" }), 422).message,
      "Can not approve your own pull request",
    );
    const approved = json(
      await s.send("POST", `${REPO}/pulls/${number}/reviews`, ZOE_TOKEN, { event: "APPROVE", body: "Looks right" }),
      200,
    );
    assertSchema("pull-request-review", approved);
    assert.deepEqual(
      [approved.state, approved.user.login, approved.commit_id],
      ["APPROVED", "zoe", await branchSha("feature")],
    );
    const [reviewed] = await latestEvents(1);
    assert.deepEqual(
      [reviewed!.type, reviewed!.payload.action, reviewed!.payload.review.state],
      ["PullRequestReviewEvent", "created", "APPROVED"],
    );
    const listed = (await call("GET", `/pulls/${number}/reviews`)) as unknown as Json[];
    assert.deepEqual(
      listed.map((r) => [r.id, r.state]),
      [[approved.id, "APPROVED"]],
    );
    const delivered = await Promise.race([
      s.delivered(17),
      new Promise<never>((_, no) => setTimeout(() => no(new Error(`only ${s.deliveries()}`)), 5000)),
    ]);
    assert.deepEqual(
      delivered.slice(15).map((d) => [d.event, d.action]),
      [
        ["pull_request", "review_requested"],
        ["pull_request_review", "submitted"],
      ],
    );
    assertWebhook("pull_request_review", "submitted", delivered[16]!.body);
  });

  test("merging: a merge commit on the base, merged and closed, and the issue its body fixes closed", async () => {
    const stale = json(await s.send("PUT", `${REPO}/pulls/${number}/merge`, undefined, { sha: "0".repeat(40) }), 409);
    assert.equal(stale.message, "Head branch was modified. Review and try the merge again.");
    assert.equal((await s.send("GET", `${REPO}/pulls/${number}/merge`)).statusCode, 404);
    assert.equal((await s.send("PUT", `${REPO}/pulls/${number}/merge`, BOB_TOKEN, {})).statusCode, 403);

    const seen = s.deliveries();
    const base = await branchSha("main");
    const head = await branchSha("feature");
    const merged = await call("PUT", `/pulls/${number}/merge`, { sha: head });
    assertSchema("pull-request-merge-result", merged);
    assert.deepEqual([merged.merged, merged.message], [true, "Pull Request successfully merged"]);
    assert.equal(await branchSha("main"), merged.sha);
    const commit = await call("GET", `/git/commits/${merged.sha}`);
    assert.deepEqual(
      commit.parents.map((p: Json) => p.sha),
      [base, head],
    );
    assert.equal(commit.message, `Merge pull request #${number} from alice/feature\n\nAdd the app`);
    assert.deepEqual([commit.committer.name, commit.committer.email], ["GitHub", "noreply@github.com"]);
    const tree = await call("GET", `/git/trees/${commit.tree.sha}?recursive=1`);
    assert.deepEqual(
      tree.tree.filter((e: Json) => e.type === "blob").map((e: Json) => e.path),
      ["README.md", "src/app.txt"],
    );
    assert.equal(
      Buffer.from((await call("GET", `/contents/README.md`)).content, "base64").toString(),
      "# main moved\n",
      "the base's own change is kept",
    );

    const pull = await call("GET", `/pulls/${number}`);
    assertSchema("pull-request", pull);
    assert.deepEqual(
      [pull.state, pull.merged, pull.merged_by.login, pull.merge_commit_sha, pull.commits, pull.mergeable],
      ["closed", true, "alice", merged.sha, 2, null],
    );
    assert.equal((await s.send("GET", `${REPO}/pulls/${number}/merge`)).statusCode, 204);
    const fixed = await call("GET", `/issues/${issueNumber}`);
    assert.deepEqual([fixed.state, fixed.state_reason, fixed.closed_by.login], ["closed", "completed", "alice"]);
    const issueEvents = (await call("GET", `/issues/${issueNumber}/events`)) as unknown as Json[];
    assert.deepEqual(
      issueEvents.map((e) => [e.event, e.commit_id]),
      [["closed", merged.sha]],
    );
    const pullEvents = (await call("GET", `/issues/${number}/events`)) as unknown as Json[];
    assert.deepEqual(
      pullEvents.map((e) => [e.event, e.commit_id]),
      [
        ["review_requested", null],
        ["merged", merged.sha],
        ["closed", null],
      ],
    );

    const types = (await latestEvents(3)).map((e) => [e.type, e.payload.action ?? null]);
    assert.deepEqual(types, [
      ["IssuesEvent", "closed"],
      ["PullRequestEvent", "closed"],
      ["PushEvent", null],
    ]);
    const delivered = (await s.delivered(seen + 3)).slice(seen);
    assert.deepEqual(
      delivered.map((d) => [d.event, d.action ?? null]),
      [
        ["push", null],
        ["pull_request", "closed"],
        ["issues", "closed"],
      ],
    );
    assert.equal(delivered[1]!.body.pull_request.merged, true);
    assertWebhook("pull_request", "closed", delivered[1]!.body);
    assert.equal(
      json(await s.send("PUT", `${REPO}/pulls/${number}/merge`, undefined, {}), 405).message,
      "Pull Request is not mergeable",
    );
  });

  test("from a fork: opened with `owner:branch`, and a push to the fork's branch is the parent's `synchronize`", async () => {
    const fork = (await s.send("POST", `${REPO}/forks`, ZOE_TOKEN, {})).json() as Json;
    const forkRepo = `/repos/${fork.full_name}`;
    const zoe = async (method: "GET" | "POST" | "PUT", path: string, body: unknown, status: number) =>
      json(await s.send(method, `${forkRepo}${path}`, ZOE_TOKEN, body), status);
    // A new fork starts with its source's branches.
    assert.equal((await zoe("GET", "/git/ref/heads/main", undefined, 200)).object.sha, await branchSha("main"));
    await zoe("POST", "/git/refs", { ref: "refs/heads/zoe-fix", sha: await branchSha("main") }, 201);
    await zoe("PUT", "/contents/FIX.md", { message: "Fix", content: b64("fixed\n"), branch: "zoe-fix" }, 201);
    const opened = json(
      await s.send("POST", `${REPO}/pulls`, ZOE_TOKEN, { title: "A fix from zoe", head: "zoe:zoe-fix", base: "main" }),
      201,
    );
    assert.deepEqual(
      [opened.head.label, opened.head.repo.full_name, opened.maintainer_can_modify, opened.commits],
      ["zoe:zoe-fix", fork.full_name, true, 1],
    );
    const before = opened.head.sha;
    const file = (await zoe("GET", "/contents/FIX.md?ref=zoe-fix", undefined, 200)).sha;
    await zoe(
      "PUT",
      "/contents/FIX.md",
      { message: "Fix more", content: b64("fixed twice\n"), branch: "zoe-fix", sha: file },
      200,
    );
    const after = (await zoe("GET", "/git/ref/heads/zoe-fix", undefined, 200)).object.sha;
    let sync: Json | undefined;
    for (let tries = 0; !sync && tries < 100; tries++) {
      sync = (await s.delivered(s.deliveries())).find(
        (d) => d.action === "synchronize" && d.body.number === opened.number,
      );
      if (!sync) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.ok(sync, "alice/hello's hook gets the synchronize of zoe's push");
    assert.deepEqual(
      [sync.body.before, sync.body.after, sync.body.repository.full_name, sync.body.sender.login],
      [before, after, "alice/hello", "zoe"],
    );
    assertWebhook("pull_request", "synchronize", sync.body);
    assert.equal((await call("GET", `/pulls/${opened.number}`)).head.sha, after);
  });

  test("labelled and closed through the issues API, a pull request's webhooks are pull_request's", async () => {
    const opened = await call("POST", "/pulls", { title: "Docs", head: "clash", base: "main" }, 201);
    const seen = s.deliveries();
    await call("POST", `/issues/${opened.number}/labels`, { labels: ["docs"] });
    await call("PATCH", `/issues/${opened.number}`, { state: "closed" });
    const [event] = await latestEvents(1);
    assert.deepEqual(
      [event!.type, event!.payload.action, event!.payload.number],
      ["PullRequestEvent", "closed", opened.number],
    );
    let made: Json[] = [];
    for (let tries = 0; made.length < 2 && tries < 100; tries++) {
      made = (await s.delivered(s.deliveries()))
        .slice(seen)
        .filter((d) => d.body.number === opened.number && d.action !== "opened");
      if (made.length < 2) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.deepEqual(
      made.map((d) => [d.event, d.action]),
      [
        ["pull_request", "labeled"],
        ["pull_request", "closed"],
      ],
    );
    assert.equal(made[0]!.body.label.name, "docs");
    assertWebhook("pull_request", "labeled", made[0]!.body);
    assertWebhook("pull_request", "closed", made[1]!.body);
  });

  test("update-branch: the base merged into the head, 202, a push to the head; 422 when stale or up to date", async () => {
    await call("POST", "/git/refs", { ref: "refs/heads/stale", sha: await branchSha("main") }, 201);
    await put("STALE.md", "stale\n", "stale");
    const opened = await call("POST", "/pulls", { title: "Stale", head: "stale", base: "main" }, 201);
    await put("MAIN.md", "main moves on\n", "main");
    const path = `${REPO}/pulls/${opened.number}/update-branch`;
    const before = await branchSha("stale");
    assert.equal(
      json(await s.send("PUT", path, undefined, { expected_head_sha: "1".repeat(40) }), 422).message,
      "expected head sha didn't match current head ref.",
    );
    assert.equal(await branchSha("stale"), before);
    const answer = json(await s.send("PUT", path, undefined, { expected_head_sha: before }), 202);
    assert.deepEqual(answer, {
      message: "Updating pull request branch.",
      url: `http://localhost/repos/alice/hello/pulls/${opened.number}`,
    });
    const head = await call("GET", `/git/commits/${await branchSha("stale")}`);
    assert.deepEqual(
      [head.parents.map((p: Json) => p.sha), head.message],
      [[before, await branchSha("main")], "Merge branch 'main' into stale"],
    );
    const pull = await call("GET", `/pulls/${opened.number}`);
    assert.deepEqual([pull.head.sha, pull.changed_files, pull.mergeable], [head.sha, 1, true]);
    assert.equal(
      json(await s.send("PUT", path, undefined, {}), 422).message,
      "There are no new commits on the base branch.",
    );
  });

  test("a rebase merge writes each commit again on the base, in order, with its author and message", async () => {
    await call("POST", "/git/refs", { ref: "refs/heads/rebased", sha: await branchSha("main") }, 201);
    await put("ONE.md", "one\n", "rebased");
    await put("TWO.md", "two\n", "rebased");
    const opened = await call("POST", "/pulls", { title: "Two commits", head: "rebased", base: "main" }, 201);
    await put("BASE.md", "the base moved\n", "main");
    const base = await branchSha("main");
    const originals = (await call("GET", `/pulls/${opened.number}/commits`)) as unknown as Json[];
    const merged = await call("PUT", `/pulls/${opened.number}/merge`, { merge_method: "rebase" });
    assert.equal(await branchSha("main"), merged.sha);
    const second = await call("GET", `/git/commits/${merged.sha}`);
    const first = await call("GET", `/git/commits/${second.parents[0].sha}`);
    assert.deepEqual(
      [first.parents.map((p: Json) => p.sha), first.message, second.message],
      [[base], "Write ONE.md", "Write TWO.md"],
    );
    assert.deepEqual(first.author, originals[0]!.commit.author, "the author kept");
    assert.deepEqual([second.committer.name, second.committer.email], ["GitHub", "noreply@github.com"]);
    assert.ok(!originals.some((c) => c.sha === merged.sha), "written again, not fast-forwarded");
    const tree = await call("GET", `/git/trees/${second.tree.sha}?recursive=1`);
    for (const path of ["BASE.md", "ONE.md", "TWO.md"])
      assert.ok(
        tree.tree.some((e: Json) => e.path === path),
        path,
      );
  });
});
