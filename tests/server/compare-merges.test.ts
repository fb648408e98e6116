/**
 * Comparing two commits, merging a branch and the commit look-ups bots use, over real HTTP on the store under test:
 * `BASE...HEAD` (and `..`) between branches, tags, SHA-1s and a fork's `owner:branch`, with exact counts, commits and
 * files from the merge base; GitHub's 404s; a branch merged (201 with the merge commit, its push event and webhook),
 * already merged (204), conflicting (409) or missing (404), each refusal leaving everything as it was; the branches
 * whose head a commit is, and the pull requests of a commit. Bodies checked against GitHub's published schemas.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { ALICE_TOKEN, BOB_TOKEN } from "../helpers/client-world.js";
import { Octokit } from "octokit-rest-latest";
import { assertSchema, compileSchemas } from "../compat/schemas.js";
import { assertWebhook } from "../helpers/webhook-schemas.js";
import { issueScene, ZOE_TOKEN, type IssueScene, type Json } from "../helpers/issue-scene.js";

const REPO = "/repos/alice/hello";
const b64 = (text: string) => Buffer.from(text).toString("base64");

describe("compare two commits, merge a branch, a commit's branches and pull requests", () => {
  let s: IssueScene;
  let url = "";
  /** A request over the socket, as a client sends it. */
  const http = async (method: string, path: string, body?: unknown, token: string | null = ALICE_TOKEN) => {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: {
        ...(token ? { authorization: `token ${token}` } : {}),
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text ? (JSON.parse(text) as Json) : null };
  };
  const call = async (method: string, path: string, body?: unknown, status = 200, token = ALICE_TOKEN) => {
    const res = await http(method, path, body, token);
    assert.equal(res.status, status, JSON.stringify(res.body));
    return res.body!;
  };
  const put = (path: string, text: string, branch: string, repo = REPO, token = ALICE_TOKEN) =>
    call("PUT", `${repo}/contents/${path}`, { message: `Write ${path}`, content: b64(text), branch }, 201, token);
  const branchSha = async (branch: string, repo = REPO) =>
    (await call("GET", `${repo}/git/ref/heads/${branch}`)).object.sha as string;
  const branch = async (name: string, from: string) =>
    call("POST", `${REPO}/git/refs`, { ref: `refs/heads/${name}`, sha: from }, 201);
  const compare = (basehead: string, query = "") => call("GET", `${REPO}/compare/${basehead}${query}`);
  const shas = (commits: Json[]) => commits.map((c) => c.sha as string);
  /** The push webhook that moved a ref to `after`, once it came (deliveries come in the order they were made). */
  const pushWebhook = async (after: string) => {
    for (let n = 1; ; n++) {
      const found = (await s.delivered(n)).find((d) => d.event === "push" && d.body.after === after);
      if (found) return found;
    }
  };

  /** main: C0 (README); feature: C0, F1 (src/app.txt), F2 (src/more.txt); main then gets M1 (docs.md). */
  const at: Record<string, string> = {};
  before(async () => {
    compileSchemas("commit-comparison", "commit", "branch-short", "pull-request-simple");
    s = await issueScene();
    url = await s.t.app.listen({ port: 0, host: "127.0.0.1" });
    await put("README.md", "# hello\n", "main");
    at.C0 = await branchSha("main");
    await branch("feature", at.C0);
    await put("src/app.txt", "one\ntwo\n", "feature");
    at.F1 = await branchSha("feature");
    await put("src/more.txt", "three\n", "feature");
    at.F2 = await branchSha("feature");
    await branch("topic/x", at.F1);
    await call("POST", `${REPO}/git/refs`, { ref: "refs/tags/v1", sha: at.C0 }, 201);
  });
  after(async () => s.close());

  test("ahead, behind and identical: counts, commits oldest first, files from the merge base", async () => {
    const ahead = await compare("main...feature");
    assertSchema("commit-comparison", ahead);
    assert.deepEqual([ahead.status, ahead.ahead_by, ahead.behind_by, ahead.total_commits], ["ahead", 2, 0, 2]);
    assert.deepEqual(shas(ahead.commits), [at.F1, at.F2]);
    assert.deepEqual([ahead.base_commit.sha, ahead.merge_base_commit.sha], [at.C0, at.C0]);
    assert.deepEqual(
      ahead.files.map((f: Json) => [f.filename, f.status, f.additions, f.deletions]),
      [
        ["src/app.txt", "added", 2, 0],
        ["src/more.txt", "added", 1, 0],
      ],
    );
    assert.equal(ahead.files[0].patch, "@@ -0,0 +1,2 @@\n+one\n+two");
    assert.equal(ahead.url, `${url}${REPO}/compare/main...feature`);
    assert.ok(ahead.html_url.endsWith("/alice/hello/compare/main...feature"), ahead.html_url);
    assert.equal(
      ahead.permalink_url,
      `${ahead.html_url.split("/compare/")[0]}/compare/alice:${at.C0}...alice:${at.F2}`,
    );
    assert.equal(ahead.diff_url, `${ahead.html_url}.diff`);
    assert.equal(ahead.patch_url, `${ahead.html_url}.patch`);

    const behind = await compare("feature...main");
    assert.deepEqual(
      [behind.status, behind.ahead_by, behind.behind_by, behind.commits, behind.files],
      ["behind", 0, 2, [], []],
    );
    const same = await compare("main...main");
    assert.deepEqual([same.status, same.ahead_by, same.behind_by, same.commits], ["identical", 0, 0, []]);
  });

  test("sides as a tag, a SHA-1 and a branch with a slash; `..` read as `...`", async () => {
    const bySha = await compare(`v1...${at.F2}`);
    assert.deepEqual([bySha.status, bySha.ahead_by, ...shas(bySha.commits)], ["ahead", 2, at.F1, at.F2]);
    const slashed = await compare("main...topic/x");
    assert.deepEqual([slashed.ahead_by, ...shas(slashed.commits)], [1, at.F1]);
    const twoDots = await compare("main..feature");
    assert.deepEqual([twoDots.status, twoDots.ahead_by, shas(twoDots.commits)], ["ahead", 2, [at.F1, at.F2]]);
  });

  test("paged: the page's commits, a Link header, the files on the first page only", async () => {
    const second = await http("GET", `${REPO}/compare/main...feature?per_page=1&page=2`);
    assert.equal(second.status, 200);
    assert.deepEqual(shas(second.body!.commits), [at.F2]);
    assert.equal(second.body!.total_commits, 2);
    assert.equal(second.body!.files, undefined);
    assert.match(second.headers.get("link") ?? "", /page=1>; rel="prev"/);
    const first = await http("GET", `${REPO}/compare/main...feature?per_page=1`);
    assert.deepEqual(shas(first.body!.commits), [at.F1]);
    assert.equal(first.body!.files.length, 2);
    assert.match(first.headers.get("link") ?? "", /page=2>; rel="next"/);
  });

  test("refused with GitHub's 404s: a side naming nothing, no dots, no common ancestor", async () => {
    for (const basehead of ["main...nothing", "nothing...main", "main", "nobody:main...main", "main...zed:main"]) {
      const res = await http("GET", `${REPO}/compare/${basehead}`);
      assert.deepEqual([res.status, res.body!.message], [404, "Not Found"], basehead);
    }
    // A history of its own: a commit without parents, made through git data.
    const blob = await call("POST", `${REPO}/git/blobs`, { content: "alone\n" }, 201);
    const tree = await call(
      "POST",
      `${REPO}/git/trees`,
      { tree: [{ path: "a.txt", mode: "100644", type: "blob", sha: blob.sha }] },
      201,
    );
    const orphan = await call("POST", `${REPO}/git/commits`, { message: "Alone", tree: tree.sha, parents: [] }, 201);
    await branch("orphan", orphan.sha);
    const res = await http("GET", `${REPO}/compare/main...orphan`);
    assert.deepEqual([res.status, res.body!.message], [404, "No common ancestor between main and orphan."]);
  });

  test("a fork's `owner:branch` in the same network", async () => {
    await call("POST", `${REPO}/forks`, {}, 202, ZOE_TOKEN);
    await put("zoe.txt", "zoe\n", "main", "/repos/zoe/hello", ZOE_TOKEN);
    const zoeMain = await branchSha("main", "/repos/zoe/hello");
    const cross = await compare("main...zoe:main");
    assertSchema("commit-comparison", cross);
    assert.deepEqual([cross.status, cross.ahead_by, cross.behind_by, ...shas(cross.commits)], ["ahead", 1, 0, zoeMain]);
    assert.deepEqual(
      cross.files.map((f: Json) => f.filename),
      ["zoe.txt"],
    );
    assert.match(cross.permalink_url, new RegExp(`/compare/alice:${at.C0}\\.\\.\\.zoe:${zoeMain}$`));
    const back = await call("GET", `/repos/zoe/hello/compare/alice:feature...main`);
    assert.deepEqual([back.status, back.ahead_by, back.behind_by], ["diverged", 1, 2]);
  });

  test("diverged: the base's own commits are behind, the files are the head's since the merge base", async () => {
    await put("docs.md", "docs\n", "main");
    at.M1 = await branchSha("main");
    const diverged = await compare("main...feature");
    assert.deepEqual(
      [
        diverged.status,
        diverged.ahead_by,
        diverged.behind_by,
        diverged.base_commit.sha,
        diverged.merge_base_commit.sha,
      ],
      ["diverged", 2, 1, at.M1, at.C0],
    );
    assert.deepEqual(
      diverged.files.map((f: Json) => f.filename),
      ["src/app.txt", "src/more.txt"],
    );
  });

  test("merging a branch: 201 with the merge commit on both parents, pushed with its event and webhook", async () => {
    const res = await http("POST", `${REPO}/merges`, { base: "main", head: "feature" });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const merged = res.body!;
    assertSchema("commit", merged);
    assert.deepEqual(
      merged.parents.map((p: Json) => p.sha),
      [at.M1, at.F2],
    );
    assert.equal(merged.commit.message, "Merge feature into main");
    assert.deepEqual([merged.commit.author.name, merged.commit.committer.name], ["alice", "GitHub"]);
    assert.equal(merged.author.login, "alice");
    assert.deepEqual(
      merged.files.map((f: Json) => [f.filename, f.status]),
      [
        ["src/app.txt", "added"],
        ["src/more.txt", "added"],
      ],
    );
    assert.equal(await branchSha("main"), merged.sha);
    const tree = await call("GET", `${REPO}/git/trees/${merged.commit.tree.sha}?recursive=1`);
    assert.deepEqual(
      tree.tree.filter((e: Json) => e.type === "blob").map((e: Json) => e.path),
      ["README.md", "docs.md", "src/app.txt", "src/more.txt"],
    );
    const pushed = await pushWebhook(merged.sha);
    assertWebhook("push", null, pushed!.body);
    assert.deepEqual(
      [pushed!.body.ref, pushed!.body.before, pushed!.body.after],
      ["refs/heads/main", at.M1, merged.sha],
    );
    assert.deepEqual(
      pushed!.body.commits.map((c: Json) => c.id),
      [at.F1, at.F2, merged.sha],
    );
    const [event] = (await call("GET", `${REPO}/events?per_page=1`)) as unknown as Json[];
    assert.deepEqual([event!.type, event!.payload.head, event!.payload.before], ["PushEvent", merged.sha, at.M1]);
    at.MERGE = merged.sha;
  });

  test("refusals write nothing: 204 already merged, 409 conflict, 404 base or head, 403 without push", async () => {
    await branch("left", at.MERGE!);
    await call("PUT", `${REPO}/contents/README.md`, {
      message: "Left",
      content: b64("# left\n"),
      branch: "left",
      sha: (await call("GET", `${REPO}/contents/README.md?ref=left`)).sha,
    });
    await call("PUT", `${REPO}/contents/README.md`, {
      message: "Right",
      content: b64("# right\n"),
      branch: "main",
      sha: (await call("GET", `${REPO}/contents/README.md?ref=main`)).sha,
    });
    const main = await branchSha("main");
    // Everything the writes above deliver has come, so that only a refusal could change what is written.
    await pushWebhook(main);
    const before = await s.written();
    const deliveries = s.deliveries();
    const cases: [unknown, number, string | null, string?][] = [
      [{ base: "main", head: "feature" }, 204, null],
      [{ base: "main", head: at.F1 }, 204, null],
      [{ base: "main", head: "left" }, 409, "Merge conflict"],
      [{ base: "nope", head: "feature" }, 404, "Base does not exist"],
      [{ base: "main", head: "nope" }, 404, "Head does not exist"],
      [{ base: "main", head: "feature" }, 403, "Must have push access to repository", BOB_TOKEN],
    ];
    for (const [body, status, message, token] of cases) {
      const res = await http("POST", `${REPO}/merges`, body, token ?? ALICE_TOKEN);
      assert.equal(res.status, status, JSON.stringify([body, res.body]));
      assert.equal(res.body?.message ?? null, message);
    }
    assert.equal(await branchSha("main"), main);
    assert.equal(await s.written(), before);
    assert.equal(s.deliveries(), deliveries);
  });

  test("a merge of a SHA-1 with its own message", async () => {
    await put("late.txt", "late\n", "topic/x");
    const head = await branchSha("topic/x");
    const merged = await call("POST", `${REPO}/merges`, { base: "left", head, commit_message: "Shipped topic" }, 201);
    assert.deepEqual([merged.commit.message, merged.parents[1].sha], ["Shipped topic", head]);
    assert.equal(await branchSha("left"), merged.sha);
  });

  test("the branches whose head a commit is", async () => {
    await branch("twin", at.F2!);
    const heads = (await call("GET", `${REPO}/commits/${at.F2}/branches-where-head`)) as unknown as Json[];
    for (const found of heads) assertSchema("branch-short", found);
    assert.deepEqual(
      heads.map((b) => [b.name, b.commit.sha, b.protected]),
      [
        ["feature", at.F2, false],
        ["twin", at.F2, false],
      ],
    );
    assert.deepEqual(await call("GET", `${REPO}/commits/${at.C0}/branches-where-head`), []);
    const none = await http("GET", `${REPO}/commits/${"0".repeat(40)}/branches-where-head`);
    assert.deepEqual([none.status, none.body!.message], [422, `No commit found for SHA: ${"0".repeat(40)}`]);
  });

  test("the pull requests of a commit: by their head, and by the merge commit of a merged one", async () => {
    await put("pr.txt", "pr\n", "twin");
    const head = await branchSha("twin");
    const pull = await call("POST", `${REPO}/pulls`, { title: "Twin", head: "twin", base: "main" }, 201);
    const byHead = (await call("GET", `${REPO}/commits/${head}/pulls`)) as unknown as Json[];
    for (const found of byHead) assertSchema("pull-request-simple", found);
    assert.deepEqual(
      byHead.map((p) => [p.number, p.head.sha]),
      [[pull.number, head]],
    );
    const merged = await call("PUT", `${REPO}/pulls/${pull.number}/merge`, {});
    const byMerge = (await call("GET", `${REPO}/commits/${merged.sha}/pulls`)) as unknown as Json[];
    assert.deepEqual(
      byMerge.map((p) => [p.number, p.merge_commit_sha]),
      [[pull.number, merged.sha]],
    );
    const byBranch = (await call("GET", `${REPO}/commits/twin/pulls`)) as unknown as Json[];
    assert.deepEqual(
      byBranch.map((p) => p.number),
      [pull.number],
    );
    assert.deepEqual(await call("GET", `${REPO}/commits/${at.C0}/pulls`), []);
  });

  test("@octokit/rest 22, unmodified: compareCommitsWithBasehead and merge", async () => {
    const octokit = new Octokit({ baseUrl: url, auth: ALICE_TOKEN });
    const repo = { owner: "alice", repo: "hello" };
    await branch("octo", await branchSha("main"));
    await put("octo.txt", "octo\n", "octo");
    const compared = await octokit.repos.compareCommitsWithBasehead({ ...repo, basehead: "main...octo" });
    assert.deepEqual(
      [compared.data.status, compared.data.ahead_by, compared.data.files?.[0]?.filename],
      ["ahead", 1, "octo.txt"],
    );
    const merged = await octokit.repos.merge({ ...repo, base: "main", head: "octo", commit_message: "Octo" });
    assert.equal(merged.status, 201);
    assert.deepEqual([merged.data.commit.message, merged.data.parents.length], ["Octo", 2]);
    const again = await octokit.repos.merge({ ...repo, base: "main", head: "octo" });
    assert.equal(again.status, 204);
    await assert.rejects(
      octokit.repos.merge({ ...repo, base: "gone", head: "octo" }),
      (error: Error & { status?: number }) => error.status === 404 && error.message.includes("Base does not exist"),
    );
  });
});
