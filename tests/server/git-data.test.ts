/**
 * Git data without a git server: blobs, trees (with `base_tree`, deletions, `?recursive=1`), commits and annotated
 * tags stored under the SHA-1s Debian's git computes for the same bytes, and refs whose writes are pushes: a new
 * branch makes `CreateEvent` and the `create` and `push` webhooks, a fast-forward `PushEvent` and `push`, a forced
 * update needs `force` (GitHub's 422 without it), a delete `DeleteEvent` and `delete`. Refused writes change nothing.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { ALICE_TOKEN, BOB_TOKEN } from "../helpers/client-world.js";
import { assertSchema, compileSchemas } from "../compat/schemas.js";
import { gitSkip, lazyRepository } from "../helpers/real-git.js";
import { issueScene, type IssueScene, type Json } from "../helpers/issue-scene.js";

const REPO = "/repos/alice/hello";

describe("git data: objects under git's SHA-1s, refs as pushes", () => {
  let s: IssueScene;
  let first: string;
  const git = lazyRepository();
  const json = (res: { statusCode: number; body: string }, status: number): Json => {
    assert.equal(res.statusCode, status, res.body);
    return JSON.parse(res.body) as Json;
  };
  const post = async (path: string, body: unknown, status = 201) =>
    json(await s.send("POST", `${REPO}${path}`, ALICE_TOKEN, body), status);
  const get = async (path: string, status = 200) => json(await s.send("GET", `${REPO}${path}`, ALICE_TOKEN), status);
  const latestEvent = async () => (json(await s.send("GET", `${REPO}/events`, ALICE_TOKEN), 200) as Json[])[0]!;

  before(async () => {
    // Compiled before any delivery is in flight (compileSchemas says why).
    compileSchemas("short-blob", "blob", "git-tree", "git-commit", "git-ref", "git-tag");
    s = await issueScene();
    // The git data API refuses an empty repository (409): its first commit comes through the contents API.
    const made = await s.send("PUT", `${REPO}/contents/README.md`, ALICE_TOKEN, {
      message: "Initial commit",
      content: Buffer.from("# hello\n").toString("base64"),
    });
    first = json(made, 201).commit.sha;
  });
  after(async () => {
    await s.close();
    git.remove();
  });

  test("a blob made from utf-8 or base64 is read back in base64 under git's SHA-1", { skip: gitSkip }, async () => {
    const made = await post("/git/blobs", { content: "hello, git\n" });
    assertSchema("short-blob", made);
    assert.equal(made.sha, await git.get().hashAsync("blob", Buffer.from("hello, git\n")));
    const bytes = Buffer.from([0, 1, 2, 255]);
    const binary = await post("/git/blobs", { content: bytes.toString("base64"), encoding: "base64" });
    assert.equal(binary.sha, await git.get().hashAsync("blob", bytes));
    const read = await get(`/git/blobs/${binary.sha}`);
    assertSchema("blob", read);
    assert.deepEqual(Buffer.from(read.content, "base64"), bytes);
    assert.equal(read.size, 4);
    assert.equal((await post("/git/blobs", { content: "x", encoding: "latin1" }, 422)).message, "Validation Failed");
    assert.equal((await get(`/git/blobs/${"0".repeat(40)}`, 404)).message, "Not Found");
  });

  test("a tree on a base tree adds, replaces and deletes paths, as git's mktree would write it", {
    skip: gitSkip,
  }, async () => {
    const base = (await get(`/git/commits/${first}`)).tree.sha;
    const tree = await post("/git/trees", {
      base_tree: base,
      tree: [
        { path: "src/main.ts", mode: "100644", type: "blob", content: "export {};\n" },
        { path: "bin/run", mode: "100755", type: "blob", content: "#!/bin/sh\n" },
        { path: "README.md", mode: "100644", type: "blob", sha: null },
      ],
    });
    assertSchema("git-tree", tree);
    assert.deepEqual(
      tree.tree.map((e: Json) => [e.path, e.mode, e.type]),
      [
        ["bin", "040000", "tree"],
        ["src", "040000", "tree"],
      ],
    );
    const repository = git.get();
    const main = await repository.writeAsync("blob", Buffer.from("export {};\n"));
    const run = await repository.writeAsync("blob", Buffer.from("#!/bin/sh\n"));
    const [src, bin] = await repository.mktreeAsync([
      [{ mode: "100644", name: "main.ts", sha: main }],
      [{ mode: "100755", name: "run", sha: run }],
    ]);
    const [root] = await repository.mktreeAsync([
      [
        { mode: "040000", name: "bin", sha: bin! },
        { mode: "040000", name: "src", sha: src! },
      ],
    ]);
    assert.equal(tree.sha, root);
    const deep = await get(`/git/trees/${tree.sha}?recursive=1`);
    assert.deepEqual(
      deep.tree.map((e: Json) => [e.path, e.size ?? null]),
      [
        ["bin", null],
        ["bin/run", 10],
        ["src", null],
        ["src/main.ts", 11],
      ],
    );
    assert.equal(deep.truncated, false);
  });

  test("bad tree input is GitHub's 422: a bad mode, an unknown blob, a path git cannot store", async () => {
    const refused = async (entry: Json) => (await post("/git/trees", { tree: [entry] }, 422)).message as string;
    assert.match(await refused({ path: "a", mode: "100600", type: "blob", content: "x" }), /not a valid mode/);
    assert.match(
      await refused({ path: "a", mode: "100644", type: "blob", sha: "1".repeat(40) }),
      /is not a valid blob/,
    );
    assert.match(await refused({ path: "a/../b", mode: "100644", type: "blob", content: "x" }), /^tree\.path /);
    assert.match(await refused({ path: "a", mode: "100644", type: "tree", content: "x" }), /does not match mode/);
    assert.equal(
      (await post("/git/trees", { base_tree: "2".repeat(40), tree: [] }, 422)).message,
      "base_tree is not a valid tree oid",
    );
  });

  test("a commit with a parent, then refs: create, fast-forward, refused and forced updates, delete", {
    skip: gitSkip,
  }, async () => {
    const base = (await get(`/git/commits/${first}`)).tree.sha;
    const tree = await post("/git/trees", {
      base_tree: base,
      tree: [{ path: "CHANGES", mode: "100644", type: "blob", content: "1.0\n" }],
    });
    const author = { name: "Mona", email: "mona@example.com", date: "2026-01-15T12:30:00-05:00" };
    const commit = await post("/git/commits", { message: "Add CHANGES\n", tree: tree.sha, parents: [first], author });
    assertSchema("git-commit", commit);
    assert.deepEqual(commit.author, { name: "Mona", email: "mona@example.com", date: "2026-01-15T17:30:00Z" });
    assert.deepEqual(commit.committer, commit.author);
    const env = {
      GIT_AUTHOR_NAME: "Mona",
      GIT_AUTHOR_EMAIL: "mona@example.com",
      GIT_AUTHOR_DATE: author.date,
      GIT_COMMITTER_NAME: "Mona",
      GIT_COMMITTER_EMAIL: "mona@example.com",
      GIT_COMMITTER_DATE: author.date,
    };
    // git checks a parent exists: the first commit is made there too, from what the API says of it.
    const repository = git.get();
    const initial = await get(`/git/commits/${first}`);
    const readme = await repository.writeAsync("blob", Buffer.from("# hello\n"));
    const [initialTree] = await repository.mktreeAsync([[{ mode: "100644", name: "README.md", sha: readme }]]);
    const by = (who: Json, role: "AUTHOR" | "COMMITTER") => ({
      [`GIT_${role}_NAME`]: who.name,
      [`GIT_${role}_EMAIL`]: who.email,
      [`GIT_${role}_DATE`]: who.date,
    });
    const initialEnv = { ...by(initial.author, "AUTHOR"), ...by(initial.committer, "COMMITTER") };
    assert.equal(await repository.textAsync(["commit-tree", initialTree!], "Initial commit", initialEnv), first);
    const changes = await repository.writeAsync("blob", Buffer.from("1.0\n"));
    const [changedTree] = await repository.mktreeAsync([
      [
        { mode: "100644", name: "CHANGES", sha: changes },
        { mode: "100644", name: "README.md", sha: readme },
      ],
    ]);
    assert.equal(changedTree, tree.sha);
    assert.equal(await repository.textAsync(["commit-tree", tree.sha, "-p", first], "Add CHANGES\n", env), commit.sha);
    assert.equal(
      (await post("/git/commits", { message: "m", tree: tree.sha, parents: ["3".repeat(40)] }, 422)).message,
      "Parent SHA does not exist or is not a commit object",
    );

    // A branch at the first commit: CreateEvent, `create` and `push` (created, no new commits).
    let seen = s.deliveries();
    const branch = await post("/git/refs", { ref: "refs/heads/feature", sha: first });
    assertSchema("git-ref", branch);
    assert.deepEqual(branch.object, {
      type: "commit",
      sha: first,
      url: `http://localhost:80${REPO}/git/commits/${first}`,
    });
    const created = await latestEvent();
    assert.deepEqual(
      [created.type, created.payload.ref, created.payload.ref_type],
      ["CreateEvent", "feature", "branch"],
    );
    const [create, push] = (await s.delivered(seen + 2)).slice(seen);
    assert.deepEqual(
      [create!.event, push!.event, push!.body.created, push!.body.commits.length],
      ["create", "push", true, 0],
    );
    assert.equal(push!.body.head_commit.id, first);
    assert.equal(
      (await post("/git/refs", { ref: "refs/heads/feature", sha: first }, 422)).message,
      "Reference already exists",
    );
    assert.equal(
      (await post("/git/refs", { ref: "heads/x", sha: first }, 422)).message,
      "Reference name must contain at least three slash-separated components.",
    );
    assert.equal(
      (await post("/git/refs", { ref: "refs/heads/a..b", sha: first }, 422)).message,
      "refs/heads/a..b is not a valid ref name.",
    );
    assert.equal(
      (await post("/git/refs", { ref: "refs/heads/feature/sub", sha: first }, 422)).message,
      "Reference update failed",
    );

    // A fast-forward: PushEvent and `push` with the commit and the path it added.
    seen = s.deliveries();
    const moved = json(await s.send("PATCH", `${REPO}/git/refs/heads/feature`, ALICE_TOKEN, { sha: commit.sha }), 200);
    assert.equal(moved.object.sha, commit.sha);
    const pushed = await latestEvent();
    assert.deepEqual(pushed.payload, {
      repository_id: pushed.repo.id,
      push_id: Number(pushed.id),
      ref: "refs/heads/feature",
      head: commit.sha,
      before: first,
    });
    const [fastForward] = (await s.delivered(seen + 1)).slice(seen);
    assert.equal(fastForward!.body.forced, false);
    assert.deepEqual(
      fastForward!.body.commits.map((c: Json) => [c.id, c.added, c.timestamp]),
      [[commit.sha, ["CHANGES"], "2026-01-15T12:30:00-05:00"]],
    );

    // Back to the first commit: not a fast-forward, refused without force, forced with it.
    const refused = await s.send("PATCH", `${REPO}/git/refs/heads/feature`, ALICE_TOKEN, { sha: first });
    assert.equal(json(refused, 422).message, "Update is not a fast forward");
    assert.equal((await get("/git/ref/heads/feature")).object.sha, commit.sha);
    seen = s.deliveries();
    json(await s.send("PATCH", `${REPO}/git/refs/heads/feature`, ALICE_TOKEN, { sha: first, force: true }), 200);
    const [forced] = (await s.delivered(seen + 1)).slice(seen);
    assert.equal(forced!.body.forced, true);

    const refs = await get("/git/matching-refs/heads");
    assert.deepEqual(
      refs.map((r: Json) => r.ref),
      ["refs/heads/feature", "refs/heads/main"],
    );
    assert.deepEqual(await get("/git/matching-refs/heads/nothing"), []);

    // Deleted: DeleteEvent, `delete` and `push` (deleted).
    seen = s.deliveries();
    assert.equal((await s.send("DELETE", `${REPO}/git/refs/heads/feature`, ALICE_TOKEN)).statusCode, 204);
    const deleted = await latestEvent();
    assert.deepEqual(
      [deleted.type, deleted.payload],
      ["DeleteEvent", { ref: "feature", ref_type: "branch", pusher_type: "user" }],
    );
    const [remove, gone] = (await s.delivered(seen + 2)).slice(seen);
    assert.deepEqual(
      [remove!.event, gone!.event, gone!.body.deleted, gone!.body.after],
      ["delete", "push", true, "0".repeat(40)],
    );
    assert.equal((await get("/git/ref/heads/feature", 404)).message, "Not Found");
    const again = await s.send("DELETE", `${REPO}/git/refs/heads/feature`, ALICE_TOKEN);
    assert.equal(json(again, 422).message, "Reference does not exist");
  });

  test("an annotated tag names its object under git's SHA-1; its ref's object is the tag", {
    skip: gitSkip,
  }, async () => {
    const tagger = { name: "Mona", email: "mona@example.com", date: "2026-01-15T12:00:00Z" };
    const tag = await post("/git/tags", { tag: "v1.0", message: "First\n", object: first, type: "commit", tagger });
    assertSchema("git-tag", tag);
    const body = `object ${first}\ntype commit\ntag v1.0\ntagger Mona <mona@example.com> ${Date.parse(tagger.date) / 1000} +0000\n\nFirst\n`;
    assert.equal(tag.sha, await git.get().hashAsync("tag", Buffer.from(body)));
    const ref = await post("/git/refs", { ref: "refs/tags/v1.0", sha: tag.sha });
    assert.equal(ref.object.type, "tag");
    const created = await latestEvent();
    assert.deepEqual([created.type, created.payload.ref_type, created.payload.ref], ["CreateEvent", "tag", "v1.0"]);
    const readme = json(await s.send("GET", `${REPO}/contents/README.md?ref=v1.0`, null), 200);
    assert.equal(Buffer.from(readme.content, "base64").toString(), "# hello\n");
  });

  test("writes need push access and refs need a token that may write the repository", async () => {
    const blob = await s.send("POST", `${REPO}/git/blobs`, BOB_TOKEN, { content: "x" });
    assert.equal(json(blob, 403).message, "Must have push access to repository");
    const ref = await s.send("POST", `${REPO}/git/refs`, null, { ref: "refs/heads/anon", sha: first });
    assert.equal(ref.statusCode, 401);
    assert.equal((await get("/git/ref/heads/anon", 404)).message, "Not Found");
  });
});
