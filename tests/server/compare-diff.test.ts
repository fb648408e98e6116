/**
 * A commit's and a comparison's diff and patch media types over real HTTP on the store under test, judged by
 * Debian's git: the same objects copied byte for byte into a scratch repository, where `git diff` and `git
 * format-patch --stdout --no-signature` (renames and binary patches off, as feedgate writes none) must write what
 * feedgate answers, byte for byte, and `git apply --check` takes a text diff on the base's files. Files of every kind:
 * changed with a function line above a hunk, made and deleted, a path with a space and one with a byte git quotes,
 * a mode change, a link, a binary file, a submodule, a change of kind; authors whose names are not ASCII, a subject
 * folded past 78 columns; merges left out of a patch. Also the SHA media type with its ETag, GitHub's 406 and 404s,
 * and @octokit/rest 22 asking for each form.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Octokit } from "octokit-rest-latest";
import { ALICE_TOKEN } from "../helpers/client-world.js";
import { gitSkip, lazyRepository } from "../helpers/real-git.js";
import { issueScene, type IssueScene, type Json } from "../helpers/issue-scene.js";
import { decodeCommit, decodeTree } from "../../src/server/git/objects.js";

const REPO = "/repos/alice/hello";
const b64 = (text: string | Buffer) => Buffer.from(text).toString("base64");
const LONG_SUBJECT =
  "Teach the greeter to say hello in more languages than one, and say so in a subject longer than a mail line";

/** A file long enough for hunks apart, with function lines git names in their headers. */
const program = (changes: Record<number, string> = {}) =>
  Array.from({ length: 40 }, (_, i) => changes[i] ?? (i % 12 === 0 ? `function part${i}() {` : `  step(${i});`))
    .map((line) => `${line}\n`)
    .join("");

describe("diff and patch media types, as git writes them", { skip: gitSkip }, () => {
  let s: IssueScene;
  let url = "";
  const git = lazyRepository();
  const at: Record<string, string> = {};

  const http = async (path: string, accept?: string, headers: Record<string, string> = {}) => {
    const res = await fetch(`${url}${path}`, {
      headers: { authorization: `token ${ALICE_TOKEN}`, ...(accept ? { accept } : {}), ...headers },
    });
    return { status: res.status, headers: res.headers, text: await res.text() };
  };
  const text = async (path: string, accept: string) => {
    const res = await http(path, accept);
    assert.equal(res.status, 200, res.text);
    return res;
  };
  const call = async (method: string, path: string, body: unknown, status = 201) => {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: { authorization: `token ${ALICE_TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    const answer = (await res.json()) as Json;
    assert.equal(res.status, status, JSON.stringify(answer));
    return answer;
  };
  /** A file written on a branch: 201 made, 200 replaced (`extra.sha`). */
  const put = (path: string, content: string, branch: string, extra: Json = {}) =>
    call(
      "PUT",
      `${REPO}/contents/${encodeURI(path)}`,
      { message: `Write ${path}`, content: b64(content), branch, ...extra },
      extra.sha === undefined ? 201 : 200,
    );
  const head = async (branch: string) =>
    (await call("GET", `${REPO}/git/ref/heads/${branch}`, undefined, 200)).object.sha as string;
  const currentSha = async (path: string, branch: string) =>
    (await call("GET", `${REPO}/contents/${encodeURI(path)}?ref=${branch}`, undefined, 200)).sha as string;

  /** Every object reachable from `commits`, copied from feedgate's store into the scratch repository as stored. */
  async function copyToGit(commits: string[]) {
    const repo = (await s.t.store.directory.findRepo("alice", "hello"))!;
    const seen = new Set<string>();
    const copy = async (sha: string): Promise<void> => {
      if (seen.has(sha)) return;
      seen.add(sha);
      const object = (await s.t.store.git.object(repo.networkId, sha))!;
      assert.equal(await git.get().writeAsync(object.type as "blob", object.body), sha);
      if (object.type === "commit") {
        const fields = decodeCommit(object.body);
        await copy(fields.tree);
        for (const parent of fields.parents) await copy(parent);
      } else if (object.type === "tree") {
        for (const entry of decodeTree(object.body)) if (entry.mode !== "160000") await copy(entry.sha);
      }
    };
    for (const sha of commits) await copy(sha);
  }
  const gitText = (args: string[]) =>
    git
      .get()
      .runAsync(args)
      .then((out) => out.toString("utf8"));

  before(async () => {
    s = await issueScene();
    url = await s.t.app.listen({ port: 0, host: "127.0.0.1" });
    await put("README.md", "# hello\n", "main");
    await put("src/greet.js", program(), "main");
    await put("tool.sh", "echo old\n", "main");
    await put("gone.txt", "going\n", "main");
    at.base = await head("main");
    await call("POST", `${REPO}/git/refs`, { ref: "refs/heads/feature", sha: at.base });
    // F1: text only, by an author whose name is not ASCII, with a long subject and a body.
    await put("src/greet.js", program({ 5: "  step(5, 'hola');", 30: "  step(30, 'salut');" }), "feature", {
      sha: await currentSha("src/greet.js", "feature"),
      message: `${LONG_SUBJECT}\n\nBoth greetings land at once.   \nA second line.\n\n\n`,
      author: { name: "Zoë Ünïcode", email: "zoe@example.com", date: "2026-01-10T09:30:00+02:00" },
    });
    await put("docs/my notes.txt", "a note\n", "feature");
    await put("naïve.txt", "café\n", "feature");
    at.F1 = await head("feature");
    // F2 through git data: a deletion, a mode change, a link, a binary file, a submodule and a change of kind.
    const binary = await call("POST", `${REPO}/git/blobs`, {
      content: b64(Buffer.from([0, 1, 2, 3])),
      encoding: "base64",
    });
    const f1 = await call("GET", `${REPO}/git/commits/${at.F1}`, undefined, 200);
    const tree = await call("POST", `${REPO}/git/trees`, {
      base_tree: f1.tree.sha,
      tree: [
        { path: "gone.txt", mode: "100644", type: "blob", sha: null },
        { path: "tool.sh", mode: "100755", type: "blob", content: "echo old\n" },
        { path: "latest", mode: "120000", type: "blob", content: "src/greet.js" },
        { path: "bin.dat", mode: "100644", type: "blob", sha: binary.sha },
        { path: "vendor/lib", mode: "160000", type: "commit", sha: "6ca3721222109997540bd6d9ccd396902e0ad2f9" },
        { path: "README.md", mode: "120000", type: "blob", content: "docs/my notes.txt" },
      ],
    });
    const f2 = await call("POST", `${REPO}/git/commits`, {
      message: "Add tools (and =?odd?= words)\n\nWith ünïcode in the body.\n",
      tree: tree.sha,
      parents: [at.F1],
      author: { name: 'Bob, the "builder"', email: "bob@example.com", date: "2026-01-11T23:59:59-05:30" },
    });
    await call("PATCH", `${REPO}/git/refs/heads/feature`, { sha: f2.sha }, 200);
    at.F2 = f2.sha;
    // main moves on, and is merged into feature: a merge commit the patch leaves out.
    await put("later.txt", "later\n", "main");
    at.M1 = await head("main");
    await call("POST", `${REPO}/merges`, { base: "feature", head: "main" });
    at.merged = await head("feature");
    await copyToGit([at.merged]);
  });
  after(async () => {
    await s.close();
    git.remove();
  });

  test("a comparison's diff is git diff from the merge base to the head, byte for byte", async () => {
    const res = await text(`${REPO}/compare/main...feature`, "application/vnd.github.diff");
    assert.match(res.headers.get("content-type") ?? "", /^application\/vnd\.github\.diff; charset=utf-8/);
    const theirs = await gitText(["diff", "--no-renames", `${at.M1}...${at.merged}`]);
    assert.equal(res.text, theirs);
    for (const expected of [
      'diff --git "a/na\\303\\257ve.txt" "b/na\\303\\257ve.txt"',
      "+++ b/docs/my notes.txt\t",
      "old mode 100644\nnew mode 100755",
      "Binary files /dev/null and b/bin.dat differ",
      "+Subproject commit 6ca3721222109997540bd6d9ccd396902e0ad2f9",
      "deleted file mode 100644\nindex ",
      "@@ -28,7 +28,7 @@ function part24() {",
    ])
      assert.ok(res.text.includes(expected), expected);
    assert.equal(
      (await text(`${REPO}/compare/${at.base}..${at.F1}`, "application/vnd.github.v3.diff")).text,
      await gitText(["diff", at.base!, at.F1!]),
    );
  });

  test("a comparison's patch is git format-patch of its commits, merges left out, byte for byte", async () => {
    const res = await text(`${REPO}/compare/main...feature`, "application/vnd.github.patch");
    assert.match(res.headers.get("content-type") ?? "", /^application\/vnd\.github\.patch; charset=utf-8/);
    const theirs = await gitText([
      "format-patch",
      "--stdout",
      "--no-signature",
      "--no-renames",
      "--no-binary",
      `${at.M1}..${at.merged}`,
    ]);
    assert.equal(res.text, theirs);
    // F1's three commits and F2; the merge of main is not among them.
    assert.equal((res.text.match(/^From [0-9a-f]{40} Mon Sep 17 00:00:00 2001$/gm) ?? []).length, 4);
    for (const expected of [
      "From: =?UTF-8?q?Zo=C3=AB=20=C3=9Cn=C3=AFcode?= <zoe@example.com>",
      "Date: Sat, 10 Jan 2026 09:30:00 +0200",
      `Subject: [PATCH 1/4] ${LONG_SUBJECT.slice(0, 50)}`,
      'From: "Bob, the \\"builder\\"" <bob@example.com>',
      "Date: Sun, 11 Jan 2026 23:59:59 -0530",
      "Content-Transfer-Encoding: 8bit",
    ])
      assert.ok(res.text.includes(expected), expected);
  });

  test("a commit's diff and patch against its first parent; a root commit's against nothing", async () => {
    for (const sha of [at.F1!, at.F2!]) {
      const diff = await text(`${REPO}/commits/${sha}`, "application/vnd.github.diff");
      assert.equal(diff.text, await gitText(["diff", "--no-renames", `${sha}^`, sha]));
      const patch = await text(`${REPO}/commits/${sha}`, "application/vnd.github.patch");
      assert.equal(
        patch.text,
        await gitText(["format-patch", "--stdout", "--no-signature", "--no-renames", "--no-binary", "-1", sha]),
      );
      assert.match(patch.text, /^Subject: \[PATCH\] /m);
    }
    const root = (await call("GET", `${REPO}/commits?sha=main&per_page=100`, undefined, 200)) as unknown as Json[];
    const first = root.at(-1)!.sha as string;
    const rootPatch = await text(`${REPO}/commits/${first}`, "application/vnd.github.patch");
    assert.equal(rootPatch.text, await gitText(["format-patch", "--stdout", "--no-signature", "--root", "-1", first]));
    // A branch's name names its head, as for the JSON answer.
    assert.equal(
      (await text(`${REPO}/commits/feature`, "application/vnd.github.diff")).text,
      await gitText(["diff", "--no-renames", `${at.merged}^`, at.merged!]),
    );
  });

  test("git apply takes a text diff on the base's files", async () => {
    const diff = (await text(`${REPO}/compare/${at.base}...${at.F1}`, "application/vnd.github.diff")).text;
    const tree = mkdtempSync(join(tmpdir(), "feedgate-apply-"));
    try {
      const inTree = ["-C", tree, "--git-dir", git.get().dir, "--work-tree", tree];
      await git.get().runAsync([...inTree, "checkout", "-q", at.base!, "--", "."]);
      await git.get().runAsync([...inTree, "apply", "--check", "-"], diff);
      const stale = diff.replace("-  step(5);", "-  step(55);");
      assert.notEqual(stale, diff);
      await assert.rejects(git.get().runAsync([...inTree, "apply", "--check", "-"], stale));
    } finally {
      rmSync(tree, { recursive: true, force: true });
    }
  });

  test("the SHA media type answers the commit's SHA-1, with it as the ETag", async () => {
    const res = await text(`${REPO}/commits/main`, "application/vnd.github.sha");
    assert.equal(res.text, at.M1);
    assert.match(res.headers.get("content-type") ?? "", /^application\/vnd\.github\.sha/);
    assert.equal(res.headers.get("etag"), `"${at.M1}"`);
    const same = await http(`${REPO}/commits/main`, "application/vnd.github.sha", { "if-none-match": `"${at.M1}"` });
    assert.deepEqual([same.status, same.text], [304, ""]);
    const moved = await http(`${REPO}/commits/main`, "application/vnd.github.sha", { "if-none-match": `"${at.base}"` });
    assert.equal(moved.status, 200);
  });

  test("refused: formats these routes do not serve are 406, sides and commits that name nothing 404 or 422", async () => {
    const notServed = [
      [`${REPO}/commits/main`, "html"],
      [`${REPO}/compare/main...feature`, "sha"],
      [`${REPO}/compare/main...feature`, "raw"],
    ] as const;
    for (const [path, param] of notServed) {
      const res = await http(path, `application/vnd.github.${param}`);
      assert.deepEqual(
        [res.status, JSON.parse(res.text).message],
        [406, `This resource does not support the '${param}' media type parameter.`],
        `${path} ${param}`,
      );
    }
    const missing = await http(`${REPO}/compare/main...nothing`, "application/vnd.github.diff");
    assert.deepEqual([missing.status, JSON.parse(missing.text).message], [404, "Not Found"]);
    const unknown = await http(`${REPO}/commits/no-such-branch`, "application/vnd.github.patch");
    assert.deepEqual(
      [unknown.status, JSON.parse(unknown.text).message],
      [422, "No commit found for SHA: no-such-branch"],
    );
  });

  test("@octokit/rest 22 asks for the diff, the patch and the SHA with its mediaType option", async () => {
    const octokit = new Octokit({ baseUrl: url, auth: ALICE_TOKEN });
    const where = { owner: "alice", repo: "hello" };
    const diff = await octokit.rest.repos.compareCommitsWithBasehead({
      ...where,
      basehead: "main...feature",
      mediaType: { format: "diff" },
    });
    assert.equal(String(diff.data), await gitText(["diff", "--no-renames", `${at.M1}...${at.merged}`]));
    const patch = await octokit.rest.repos.getCommit({ ...where, ref: at.F1!, mediaType: { format: "patch" } });
    assert.match(String(patch.data), /^From [0-9a-f]{40} Mon Sep 17 00:00:00 2001\n/);
    const sha = await octokit.rest.repos.getCommit({ ...where, ref: "main", mediaType: { format: "sha" } });
    assert.equal(String(sha.data), at.M1);
  });
});
