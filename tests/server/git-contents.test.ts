/**
 * Code without a git server, through the contents API: a repository's first file makes its first commit (the branch,
 * `CreateEvent`, a `create` and a `push` webhook), an edit names the blob it replaces (409 when stale, 422 when
 * left out, nothing written either way), reads answer base64 and the raw media type, and every SHA-1 is the one
 * Debian's git computes for the same content, tree and commit.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { ALICE_TOKEN, BOB_TOKEN } from "../helpers/client-world.js";
import { assertSchema, compileSchemas } from "../compat/schemas.js";
import { gitSkip, lazyRepository } from "../helpers/real-git.js";
import { issueScene, ZOE_TOKEN, type IssueScene, type Json } from "../helpers/issue-scene.js";

const README = "# hello\n\nA repository made through the contents API.\n";
const b64 = (text: string) => Buffer.from(text).toString("base64");

describe("contents: files written as commits and read back", () => {
  let s: IssueScene;
  const git = lazyRepository();
  const json = (res: { statusCode: number; body: string }, status: number): Json => {
    assert.equal(res.statusCode, status, res.body);
    return JSON.parse(res.body) as Json;
  };
  const events = async () => json(await s.send("GET", "/repos/alice/hello/events", ALICE_TOKEN), 200) as Json[];
  const ref = async () =>
    s.t.store.git.ref((await s.t.store.directory.findRepo("alice", "hello"))!.id, "refs/heads/main");

  before(async () => {
    // Compiled before any delivery is in flight (compileSchemas says why).
    compileSchemas(
      "file-commit",
      "git-commit",
      "content-file",
      "content-directory",
      "branch-short",
      "branch-with-protection",
      "commit",
    );
    s = await issueScene();
  });
  after(async () => {
    await s.close();
    git.remove();
  });

  test("an empty repository answers contents 404 and git data 409, as GitHub's", async () => {
    assert.deepEqual(
      json(await s.send("GET", "/repos/alice/hello/contents/README.md", ALICE_TOKEN), 404).message,
      "This repository is empty.",
    );
    assert.equal(
      json(await s.send("GET", "/repos/alice/hello/git/matching-refs/heads", ALICE_TOKEN), 409).message,
      "Git Repository is empty.",
    );
    assert.equal(
      json(await s.send("POST", "/repos/alice/hello/git/blobs", ALICE_TOKEN, { content: "x" }), 409).message,
      "Git Repository is empty.",
    );
  });

  test("the first PUT makes the branch's first commit: 201, CreateEvent, create and push webhooks", async () => {
    const before = s.deliveries();
    const res = await s.send("PUT", "/repos/alice/hello/contents/README.md", ALICE_TOKEN, {
      message: "Add a README",
      content: b64(README),
      committer: { name: "Alice Liddell", email: "alice@example.com", date: "2026-01-15T11:00:00+01:00" },
    });
    const body = json(res, 201);
    assertSchema("file-commit", body);
    assert.equal(body.content.path, "README.md");
    assert.equal(body.content.size, Buffer.byteLength(README));
    assert.equal(body.commit.message, "Add a README");
    assert.deepEqual(body.commit.parents, []);
    assert.deepEqual(body.commit.author, {
      name: "Alice Liddell",
      email: "alice@example.com",
      date: "2026-01-15T10:00:00Z",
    });
    assert.deepEqual(body.commit.verification, {
      verified: false,
      reason: "unsigned",
      signature: null,
      payload: null,
      verified_at: null,
    });
    assert.equal((await ref())?.sha, body.commit.sha);
    const [created] = await events();
    assert.equal(created!.type, "CreateEvent");
    assert.deepEqual(created!.payload, {
      ref: "main",
      ref_type: "branch",
      master_branch: "main",
      description: null,
      pusher_type: "user",
    });
    const delivered = (await s.delivered(before + 2)).slice(before);
    assert.deepEqual(
      delivered.map((d) => d.event),
      ["create", "push"],
    );
    const push = delivered[1]!.body;
    assert.equal(push.ref, "refs/heads/main");
    assert.equal(push.before, "0".repeat(40));
    assert.equal(push.after, body.commit.sha);
    assert.equal(push.created, true);
    assert.equal(push.compare, `http://localhost/alice/hello/commit/${body.commit.sha}`);
    assert.equal(push.commits.length, 1);
    assert.deepEqual(push.commits[0].added, ["README.md"]);
    assert.equal(push.head_commit.id, body.commit.sha);
    assert.equal(push.head_commit.timestamp, "2026-01-15T11:00:00+01:00");
    assert.deepEqual(push.pusher, { name: "alice", email: push.pusher.email });
  });

  test("each SHA-1 is git's own: the blob, the tree and the commit", { skip: gitSkip }, async () => {
    const file = json(await s.send("GET", "/repos/alice/hello/contents/README.md", ALICE_TOKEN), 200);
    const blob = await git.get().writeAsync("blob", Buffer.from(README));
    assert.equal(file.sha, blob);
    const head = (await ref())!.sha;
    const commit = json(await s.send("GET", `/repos/alice/hello/git/commits/${head}`, ALICE_TOKEN), 200);
    assertSchema("git-commit", commit);
    const [tree] = await git.get().mktreeAsync([[{ mode: "100644", name: "README.md", sha: blob }]]);
    assert.equal(commit.tree.sha, tree);
    const person = "Alice Liddell";
    const env = {
      GIT_AUTHOR_NAME: person,
      GIT_AUTHOR_EMAIL: "alice@example.com",
      GIT_AUTHOR_DATE: "2026-01-15T11:00:00+01:00",
      GIT_COMMITTER_NAME: person,
      GIT_COMMITTER_EMAIL: "alice@example.com",
      GIT_COMMITTER_DATE: "2026-01-15T11:00:00+01:00",
    };
    assert.equal(await git.get().textAsync(["commit-tree", tree!], "Add a README", env), head);
  });

  test("GET answers the file in base64 wrapped as GitHub's, or its bytes for the raw media type", async () => {
    const file = json(await s.send("GET", "/repos/alice/hello/contents/README.md", null), 200);
    assertSchema("content-file", file);
    assert.equal(file.encoding, "base64");
    assert.match(file.content, /\n$/);
    assert.equal(Buffer.from(file.content, "base64").toString(), README);
    assert.equal(file.url, "http://localhost:80/repos/alice/hello/contents/README.md?ref=main");
    const raw = await s.t.app.inject({
      method: "GET",
      url: "/repos/alice/hello/contents/README.md",
      headers: { accept: "application/vnd.github.v3.raw" },
    });
    assert.equal(raw.statusCode, 200);
    assert.equal(raw.body, README);
    assert.match(String(raw.headers["content-type"]), /^application\/vnd\.github\.raw/);
    const root = json(await s.send("GET", "/repos/alice/hello/contents/", null), 200);
    assertSchema("content-directory", [root]);
    assert.deepEqual(
      root.map((entry: Json) => [entry.type, entry.path]),
      [["file", "README.md"]],
    );
    const download = await s.t.app.inject({ method: "GET", url: new URL(file.download_url).pathname });
    assert.deepEqual([download.statusCode, download.body], [200, README]);
    assert.match(String(download.headers["content-type"]), /^text\/plain/);
    assert.equal((await s.t.app.inject({ method: "GET", url: "/alice/hello/raw/main/missing" })).statusCode, 404);
    const readme = json(await s.send("GET", "/repos/alice/hello/readme", null), 200);
    assert.equal(readme.sha, file.sha);
    assert.equal(json(await s.send("GET", "/repos/alice/hello/contents/missing.txt", null), 404).message, "Not Found");
    assert.equal(
      json(await s.send("GET", "/repos/alice/hello/contents/README.md?ref=nope", null), 404).message,
      "No commit found for the ref nope",
    );
  });

  test("an edit without the blob's sha is 422, with a stale one 409, and neither writes anything", async () => {
    const head = (await ref())!.sha;
    const missing = await s.send("PUT", "/repos/alice/hello/contents/README.md", ALICE_TOKEN, {
      message: "m",
      content: b64("x"),
    });
    assert.equal(json(missing, 422).message, 'Invalid request.\n\n"sha" wasn\'t supplied.');
    const stale = "f".repeat(40);
    const conflict = await s.send("PUT", "/repos/alice/hello/contents/README.md", ALICE_TOKEN, {
      message: "m",
      content: b64("x"),
      sha: stale,
    });
    assert.equal(json(conflict, 409).message, `README.md does not match ${stale}`);
    assert.equal(
      json(
        await s.send("PUT", "/repos/alice/hello/contents/a//b", ALICE_TOKEN, { message: "m", content: b64("x") }),
        404,
      ).message,
      "Not Found",
    );
    assert.equal((await ref())!.sha, head);
  });

  test("a PUT replacing the file answers 200 and pushes: PushEvent and a push webhook that modified it", async () => {
    const current = json(await s.send("GET", "/repos/alice/hello/contents/README.md", null), 200);
    const before = s.deliveries();
    const head = (await ref())!.sha;
    const res = await s.send("PUT", "/repos/alice/hello/contents/README.md", ZOE_TOKEN, {
      message: "Say more",
      content: b64(`${README}More.\n`),
      sha: current.sha,
    });
    const body = json(res, 200);
    assert.deepEqual(
      body.commit.parents.map((p: Json) => p.sha),
      [head],
    );
    assert.equal(body.commit.author.name, "zoe");
    const [pushed] = await events();
    assert.equal(pushed!.type, "PushEvent");
    assert.equal(pushed!.actor.login, "zoe");
    assert.deepEqual(pushed!.payload, {
      repository_id: pushed!.repo.id,
      push_id: Number(pushed!.id),
      ref: "refs/heads/main",
      head: body.commit.sha,
      before: head,
    });
    const [push] = (await s.delivered(before + 1)).slice(before);
    assert.equal(push!.event, "push");
    assert.equal(push!.body.forced, false);
    assert.equal(
      push!.body.compare,
      `http://localhost/alice/hello/compare/${head.slice(0, 12)}...${body.commit.sha.slice(0, 12)}`,
    );
    assert.deepEqual(
      push!.body.commits.map((c: Json) => c.modified),
      [["README.md"]],
    );
    assert.equal(push!.body.commits[0].author.username, "zoe");
  });

  test("a file in a new directory, then deleted: the directory goes with its last file", async () => {
    const add = json(
      await s.send("PUT", "/repos/alice/hello/contents/docs/guide/intro.md", ALICE_TOKEN, {
        message: "Add intro",
        content: b64("Intro\n"),
      }),
      201,
    );
    const dir = json(await s.send("GET", "/repos/alice/hello/contents/docs", null), 200);
    assert.deepEqual(
      dir.map((entry: Json) => [entry.type, entry.path]),
      [["dir", "docs/guide"]],
    );
    assert.equal(
      json(
        await s.send("DELETE", "/repos/alice/hello/contents/docs/guide/intro.md", ALICE_TOKEN, {
          message: "Drop",
          sha: "0".repeat(40),
        }),
        409,
      ).message,
      `docs/guide/intro.md does not match ${"0".repeat(40)}`,
    );
    const gone = json(
      await s.send("DELETE", "/repos/alice/hello/contents/docs/guide/intro.md", ALICE_TOKEN, {
        message: "Drop intro",
        sha: add.content.sha,
      }),
      200,
    );
    assertSchema("file-commit", gone);
    assert.equal(gone.content, null);
    assert.equal(json(await s.send("GET", "/repos/alice/hello/contents/docs", null), 404).message, "Not Found");
    assert.equal(
      json(
        await s.send("DELETE", "/repos/alice/hello/contents/docs/guide/intro.md", ALICE_TOKEN, {
          message: "Again",
          sha: add.content.sha,
        }),
        404,
      ).message,
      "Not Found",
    );
  });

  test("a write needs push access: 403 for a reader, 404 for an anonymous caller's private miss", async () => {
    const refused = await s.send("PUT", "/repos/alice/hello/contents/x.txt", BOB_TOKEN, {
      message: "m",
      content: b64("x"),
    });
    assert.equal(json(refused, 403).message, "Must have push access to repository");
    assert.equal(
      (await s.send("PUT", "/repos/alice/hello/contents/x.txt", null, { message: "m", content: b64("x") })).statusCode,
      401,
    );
    assert.equal(
      json(
        await s.send("PUT", "/repos/alice/hello/contents/x.txt", ALICE_TOKEN, { message: "m", content: "not base64!" }),
        422,
      ).message,
      "Validation Failed",
    );
  });

  test("auto_init gives a new repository GitHub's first commit: a README of its name and description", async () => {
    const made = await s.send("POST", "/user/repos", ALICE_TOKEN, {
      name: "initialised",
      description: "Made with a README",
      auto_init: true,
    });
    assert.equal(made.statusCode, 201, made.body);
    const readme = json(await s.send("GET", "/repos/alice/initialised/readme", ALICE_TOKEN), 200);
    assert.equal(Buffer.from(readme.content, "base64").toString(), "# initialised\nMade with a README\n");
    const head = json(await s.send("GET", "/repos/alice/initialised/git/ref/heads/main", ALICE_TOKEN), 200);
    const commit = json(
      await s.send("GET", `/repos/alice/initialised/git/commits/${head.object.sha}`, ALICE_TOKEN),
      200,
    );
    assert.deepEqual([commit.message, commit.parents, commit.author.name], ["Initial commit", [], "alice"]);
    const plain = await s.send("POST", "/user/repos", ALICE_TOKEN, { name: "plain" });
    assert.equal(plain.statusCode, 201, plain.body);
    assert.equal(
      json(await s.send("GET", "/repos/alice/plain/readme", ALICE_TOKEN), 404).message,
      "This repository is empty.",
    );
  });

  test("branches and commits read the history: newest first, filtered by path, each commit with its diff", async () => {
    const branches = json(await s.send("GET", "/repos/alice/hello/branches", null), 200);
    assertSchema("branch-short", branches);
    assert.deepEqual(
      branches.map((b: Json) => b.name),
      ["main"],
    );
    const main = json(await s.send("GET", "/repos/alice/hello/branches/main", null), 200);
    assertSchema("branch-with-protection", main);
    assert.equal(main.commit.sha, (await ref())!.sha);
    assert.equal(json(await s.send("GET", "/repos/alice/hello/branches/nope", null), 404).message, "Branch not found");

    const history = json(await s.send("GET", "/repos/alice/hello/commits?per_page=100", null), 200) as Json[];
    assertSchema("commit", history);
    assert.deepEqual(
      history.map((c) => c.commit.message),
      ["Drop intro", "Add intro", "Say more", "Add a README"],
    );
    assert.deepEqual([history[0]!.author?.login, history[3]!.author], ["alice", null]);
    const readmeOnly = json(await s.send("GET", "/repos/alice/hello/commits?path=README.md", null), 200) as Json[];
    assert.deepEqual(
      readmeOnly.map((c) => c.commit.message),
      ["Say more", "Add a README"],
    );
    const byZoe = json(await s.send("GET", "/repos/alice/hello/commits?author=zoe", null), 200) as Json[];
    assert.deepEqual(
      byZoe.map((c) => c.commit.message),
      ["Say more"],
    );
    const paged = await s.send("GET", "/repos/alice/hello/commits?per_page=1&page=2", null);
    assert.match(String(paged.headers.link), /rel="next".*rel="last"/);

    const edit = json(await s.send("GET", `/repos/alice/hello/commits/${history[2]!.sha}`, null), 200);
    assertSchema("commit", edit);
    assert.deepEqual(edit.stats, { total: 1, additions: 1, deletions: 0 });
    assert.deepEqual(
      edit.files.map((f: Json) => [f.filename, f.status, f.patch]),
      [["README.md", "modified", "@@ -1,3 +1,4 @@\n # hello\n \n A repository made through the contents API.\n+More."]],
    );
    assert.equal(
      json(await s.send("GET", "/repos/alice/hello/commits/no-such-ref", null), 422).message,
      "No commit found for SHA: no-such-ref",
    );
    assert.equal((await s.send("GET", `/repos/alice/hello/commits/${"a".repeat(40)}`, null)).statusCode, 404);
  });
});
