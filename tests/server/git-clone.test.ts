/**
 * `git clone` and `git fetch` of Debian's git over smart HTTP, on each driver: a history made through the API (contents
 * writes, git data, a merge, an annotated tag) cloned in protocol v2 and v0 with every SHA-1 feedgate's and `git fsck`
 * clean, a fetch after a push bringing only the push's objects, a private repository only with a token (401 and git's
 * Basic challenge without one, 404 to a token without access), and `git push` refused with a message git shows.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { lstatSync, readFileSync, readlinkSync } from "node:fs";
import { ALICE_TOKEN, BOB_TOKEN } from "../helpers/client-world.js";
import { issueScene, type IssueScene } from "../helpers/issue-scene.js";
import { lazyWorkspace, toolSkip } from "../helpers/git-client.js";
import { apiCaller, type CodeHistory, makeHistory } from "../helpers/code-repository.js";

const skip = toolSkip("git");

describe("git clone and fetch over smart HTTP", { skip }, () => {
  let s: IssueScene;
  let url = "";
  let history: CodeHistory;
  const workspace = lazyWorkspace();
  const w = () => workspace.get();
  let call: ReturnType<typeof apiCaller>;

  before(async () => {
    s = await issueScene();
    url = await s.t.app.listen({ port: 0, host: "127.0.0.1" });
    call = apiCaller(url, ALICE_TOKEN);
    history = await makeHistory(call, "alice/hello");
  });
  after(async () => {
    await s.close();
    workspace.remove();
  });

  test("the repository's clone_url is feedgate's own, where git clones it", async () => {
    assert.equal((await call("GET", "/repos/alice/hello")).clone_url, `${url}/alice/hello.git`);
  });

  for (const version of [2, 0] as const) {
    test(`a protocol v${version} clone has feedgate's history, SHA-1 for SHA-1, and git fsck finds nothing`, async () => {
      const dir = `v${version}`;
      await w().text("git", ["-c", `protocol.version=${version}`, "clone", "-q", `${url}/alice/hello.git`, dir]);
      assert.equal(await w().git(dir, "rev-parse", "HEAD"), history.main);
      assert.equal(await w().git(dir, "rev-parse", "HEAD^2"), history.commits.at(-3), "the merge's second parent");
      assert.equal(await w().git(dir, "rev-parse", "refs/tags/v1.0"), history.tag);
      assert.equal(await w().git(dir, "rev-parse", "v1.0^{commit}"), history.main);
      assert.equal(await w().git(dir, "symbolic-ref", "HEAD"), "refs/heads/main");
      const listed = (await call("GET", "/repos/alice/hello/commits?per_page=100")) as unknown as { sha: string }[];
      const logged = (await w().git(dir, "log", "--format=%H")).split("\n");
      assert.deepEqual(
        logged,
        listed.map((c) => c.sha),
        "git log walks the commits the API lists, in its order",
      );
      assert.deepEqual([...logged].sort(), [...history.commits].sort());
      assert.equal(await w().git(dir, "rev-parse", "origin/feature"), history.commits.at(-3));
      await w().git(dir, "fsck", "--full", "--strict", "--no-dangling");
      // The checkout: an executable, a link, and a file the contents API wrote.
      assert.ok(lstatSync(w().path(dir, "bin/tool.sh")).mode & 0o100, "bin/tool.sh is executable");
      assert.equal(readlinkSync(w().path(dir, "readme-link")), "README.md");
      assert.equal(readFileSync(w().path(dir, "docs/café.md"), "utf8"), "non-ASCII\n");
    });
  }

  test("an empty repository clones empty, on the default branch it will have (ls-refs unborn)", async () => {
    await call("POST", "/user/repos", { name: "blank" }, 201);
    const cloned = await w().run("git", ["clone", `${url}/alice/blank.git`, "blank"]);
    assert.equal(cloned.code, 0, cloned.stderr);
    assert.match(cloned.stderr, /cloned an empty repository/);
    // git's own default would be master: main comes from feedgate's HEAD.
    assert.equal(await w().git("blank", "symbolic-ref", "HEAD"), "refs/heads/main");
    await w().text("git", ["-c", "protocol.version=0", "clone", "-q", `${url}/alice/blank.git`, "blank-v0"]);
  });

  test("a fetch after a push brings the push's commit, its trees and its file, and nothing else", async () => {
    const dir = "fetching";
    await w().text("git", ["clone", "-q", `${url}/alice/hello`, dir]);
    const loose = async () => Number(/^count: (\d+)$/m.exec(await w().git(dir, "count-objects", "-v"))![1]);
    assert.equal(await loose(), 0, "a clone keeps its pack");
    const put = { message: "One more", content: Buffer.from("fetched alone\n").toString("base64") };
    const pushed = (await call("PUT", "/repos/alice/hello/contents/docs/fetched.md", put, 201)).commit.sha as string;
    await w().git(dir, "fetch", "-q");
    assert.equal(await w().git(dir, "rev-parse", "origin/main"), pushed);
    // Under git's unpack limit a fetched pack is unpacked: its objects are the new loose ones.
    assert.equal(await loose(), 4, "the commit, the root tree, docs/ and the new blob");
    assert.equal(await w().git(dir, "rev-list", "--count", "origin/main"), String(history.commits.length + 1));
    await w().git(dir, "fsck", "--full", "--strict", "--no-dangling");

    // The same in protocol v0, from its own clone.
    await w().text("git", ["-c", "protocol.version=0", "clone", "-q", `${url}/alice/hello`, "v0-fetching"]);
    const before = Number(/^count: (\d+)$/m.exec(await w().git("v0-fetching", "count-objects", "-v"))![1]);
    const again = { message: "And one more", content: Buffer.from("v0 fetched\n").toString("base64") };
    const next = (await call("PUT", "/repos/alice/hello/contents/v0.md", again, 201)).commit.sha as string;
    await w().git("v0-fetching", "-c", "protocol.version=0", "fetch", "-q");
    assert.equal(await w().git("v0-fetching", "rev-parse", "origin/main"), next);
    const after = Number(/^count: (\d+)$/m.exec(await w().git("v0-fetching", "count-objects", "-v"))![1]);
    assert.equal(after - before, 3, "the commit, the root tree and the new blob");
  });

  test("a private repository is cloned with a token as the password, and refused without one", async () => {
    await apiCaller(url, ALICE_TOKEN)(
      "PUT",
      "/repos/alice/secret/contents/plan.md",
      { message: "Plan", content: Buffer.from("secret\n").toString("base64") },
      201,
    );
    const anonymous = await fetch(`${url}/alice/secret.git/info/refs?service=git-upload-pack`);
    assert.equal(anonymous.status, 401);
    assert.equal(anonymous.headers.get("www-authenticate"), 'Basic realm="GitHub"');
    // A repository that does not exist answers anonymous callers the same.
    const missing = await fetch(`${url}/alice/nothing.git/info/refs?service=git-upload-pack`);
    assert.deepEqual([missing.status, missing.headers.get("www-authenticate")], [401, 'Basic realm="GitHub"']);

    const refused = await w().run("git", ["clone", `${url}/alice/secret.git`, "refused"]);
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /could not read Username|Authentication failed/);

    const host = new URL(url).host;
    const asBob = await w().run("git", ["clone", `http://x-access-token:${BOB_TOKEN}@${host}/alice/secret.git`, "bob"]);
    assert.notEqual(asBob.code, 0);
    assert.match(asBob.stderr, /Repository not found/);

    await w().text("git", ["clone", "-q", `http://x-access-token:${ALICE_TOKEN}@${host}/alice/secret.git`, "secret"]);
    assert.equal(readFileSync(w().path("secret", "plan.md"), "utf8"), "secret\n");
    await w().git("secret", "fsck", "--full", "--strict", "--no-dangling");
  });

  test("git push is refused with 403 and a message git shows, and nothing moves", async () => {
    const dir = "pushing";
    const host = new URL(url).host;
    await w().text("git", ["clone", "-q", `http://x-access-token:${ALICE_TOKEN}@${host}/alice/hello.git`, dir]);
    const head = (await call("GET", "/repos/alice/hello/git/ref/heads/main")).object.sha as string;
    await w().git(
      dir,
      "-c",
      "user.name=Alice",
      "-c",
      "user.email=alice@example.com",
      "commit",
      "--allow-empty",
      "-qm",
      "x",
    );
    const pushed = await w().run("git", ["push", "origin", "HEAD:main"], { cwd: w().path(dir) });
    assert.notEqual(pushed.code, 0);
    assert.match(pushed.stderr, /feedgate does not take git push/);
    assert.match(pushed.stderr, /403/);
    assert.equal((await call("GET", "/repos/alice/hello/git/ref/heads/main")).object.sha, head);
  });

  test("git's routes are not API: under /api/v3 they are the ordinary 404; a dumb-HTTP request is 403", async () => {
    const prefixed = await fetch(`${url}/api/v3/alice/hello.git/info/refs?service=git-upload-pack`);
    assert.equal(prefixed.status, 404);
    const dumb = await fetch(`${url}/alice/hello.git/info/refs`);
    assert.equal(dumb.status, 403);
    assert.match(await dumb.text(), /smart HTTP protocol only/);
    const v2 = await fetch(`${url}/alice/hello.git/info/refs?service=git-upload-pack`, {
      headers: { "git-protocol": "version=2" },
    });
    assert.equal(v2.headers.get("content-type"), "application/x-git-upload-pack-advertisement");
    assert.equal(v2.headers.get("cache-control"), "no-cache");
    assert.match(await v2.text(), /^000eversion 2\n/);
  });
});
