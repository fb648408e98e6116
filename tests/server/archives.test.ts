/**
 * Tarballs and zipballs over real HTTP, on each driver: the API's 302 to feedgate's own codeload path (the default
 * branch without a ref, `/repositories/{id}/` too), and what it serves checked with Debian's tools: `tar` lists the
 * tarball as it lists `git archive`'s of the same commit in a clone, `git get-tar-commit-id` reads the commit back,
 * and the files `tar` and `unzip` extract are the commit's tree (bytes, the executable bit, the link). A private
 * repository's archive only with read access; a release's `tarball_url` is served; the latest @octokit/rest,
 * unmodified, downloads a private tarball by following the redirect.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { lstatSync, readFileSync, readlinkSync, writeFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { Octokit } from "octokit-rest-latest";
import { Client } from "../../src/client/index.js";
import { ALICE, ALICE_TOKEN, BOB_TOKEN } from "../helpers/client-world.js";
import { basic } from "../helpers/test-app.js";
import { issueScene, type IssueScene, type Json } from "../helpers/issue-scene.js";
import { lazyWorkspace, toolSkip, type Workspace } from "../helpers/git-client.js";
import { apiCaller, type CodeHistory, makeHistory } from "../helpers/code-repository.js";

const toolsSkip = toolSkip("git") || toolSkip("tar") || toolSkip("unzip", "-v");

describe("repository archives", () => {
  let s: IssueScene;
  let url = "";
  let history: CodeHistory;
  let call: ReturnType<typeof apiCaller>;
  const workspace = lazyWorkspace();
  const w = () => workspace.get();
  const get = (path: string, token: string | null = ALICE_TOKEN, redirect: RequestRedirect = "manual") =>
    fetch(`${url}${path}`, { redirect, headers: token === null ? {} : { authorization: `token ${token}` } });
  const short = () => history.main.slice(0, 7);

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

  test("the API answers 302 to feedgate's own codeload path, the default branch without a ref", async () => {
    const id = (await call("GET", "/repos/alice/hello")).id as number;
    for (const [path, location] of [
      ["/repos/alice/hello/tarball", "/_codeload/alice/hello/legacy.tar.gz/main"],
      ["/repos/alice/hello/tarball/", "/_codeload/alice/hello/legacy.tar.gz/main"],
      ["/repos/ALICE/Hello/zipball/v1.0", "/_codeload/alice/hello/legacy.zip/v1.0"],
      ["/repos/alice/hello/zipball/feature", "/_codeload/alice/hello/legacy.zip/feature"],
      [`/repos/alice/hello/tarball/${history.main}`, `/_codeload/alice/hello/legacy.tar.gz/${history.main}`],
      [`/repositories/${id}/tarball/main`, "/_codeload/alice/hello/legacy.tar.gz/main"],
      ["/api/v3/repos/alice/hello/zipball", "/_codeload/alice/hello/legacy.zip/main"],
    ]) {
      const res = await get(path!);
      assert.equal(res.status, 302, `${path}: ${await res.text()}`);
      assert.equal(res.headers.get("location"), `${url}${location}`, path);
    }
    const unknown = await get("/repos/alice/hello/tarball/no-such-ref");
    assert.equal(unknown.status, 404);
    assert.equal(((await unknown.json()) as Json).message, "No commit found for the ref no-such-ref");
  });

  test("the tarball: GitHub's name and type, the commit's id in its pax header, listed as git archive's", {
    skip: toolsSkip,
  }, async () => {
    const res = await get("/repos/alice/hello/tarball/main", ALICE_TOKEN, "follow");
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("content-type"), "application/x-gzip");
    assert.equal(res.headers.get("content-disposition"), `attachment; filename=alice-hello-${short()}.tar.gz`);
    const tar = gunzipSync(Buffer.from(await res.arrayBuffer()));
    writeFileSync(w().path("hello.tar"), tar);
    assert.equal(await w().text("git", ["get-tar-commit-id"], { input: tar }), history.main);

    await w().text("git", ["clone", "-q", `${url}/alice/hello`, "clone"]);
    const prefix = `--prefix=alice-hello-${short()}/`;
    const archived = (await w().run("git", ["archive", "--format=tar", prefix, "HEAD"], { cwd: w().path("clone") }))
      .stdout;
    writeFileSync(w().path("git.tar"), archived);
    const listing = (file: string) => w().text("tar", ["--list", "--verbose", "--numeric-owner", "--file", file]);
    assert.deepEqual((await listing("hello.tar")).split("\n"), (await listing("git.tar")).split("\n"));

    await w().text("mkdir", ["from-tar"]);
    await w().text("tar", ["--extract", "--file", w().path("hello.tar"), "--directory", w().path("from-tar")]);
    await assertTree(w(), `from-tar/alice-hello-${short()}`);
  });

  test("the zipball: GitHub's name and type, the commit's id as its comment, extracting to the tree", {
    skip: toolsSkip,
  }, async () => {
    const res = await get("/repos/alice/hello/zipball/v1.0", ALICE_TOKEN, "follow");
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("content-type"), "application/zip");
    assert.equal(res.headers.get("content-disposition"), `attachment; filename=alice-hello-${short()}.zip`);
    writeFileSync(w().path("hello.zip"), Buffer.from(await res.arrayBuffer()));
    const comment = await w().text("unzip", ["-z", w().path("hello.zip")]);
    assert.equal(comment.split("\n").at(-1), history.main);
    // A UTF-8 locale, as a user's: in the C locale unzip escapes a non-ASCII name of a Unix entry (`caf#U00e9.md`).
    const utf8 = { env: { LC_ALL: "C.UTF-8" } };
    await w().text("unzip", ["-q", w().path("hello.zip"), "-d", w().path("from-zip")], utf8);
    await assertTree(w(), `from-zip/alice-hello-${short()}`);
  });

  /** The extracted folder holds the commit's tree: every path, its bytes, the executable bit, the link. */
  async function assertTree(workspace: Workspace, folder: string) {
    const tree = await call("GET", `/repos/alice/hello/git/trees/${history.main}?recursive=1`);
    const found = (await workspace.text("find", [".", "-mindepth", "1"], { cwd: workspace.path(folder) }))
      .split("\n")
      .map((path) => path.replace(/^\.\//, ""))
      .sort();
    assert.deepEqual(found, (tree.tree as Json[]).map((entry) => entry.path as string).sort());
    for (const entry of tree.tree as Json[]) {
      const path = workspace.path(folder, entry.path);
      if (entry.type === "tree") {
        assert.ok(lstatSync(path).isDirectory(), entry.path);
        continue;
      }
      const blob = Buffer.from((await call("GET", `/repos/alice/hello/git/blobs/${entry.sha}`)).content, "base64");
      if (entry.mode === "120000") {
        assert.equal(readlinkSync(path), blob.toString(), `${entry.path} is a link to its target`);
        continue;
      }
      assert.deepEqual(readFileSync(path), blob, entry.path);
      assert.equal(Boolean(lstatSync(path).mode & 0o100), entry.mode === "100755", `${entry.path}'s executable bit`);
    }
  }

  test("a private repository's archive needs read access: 404 otherwise, and Contents for a fine-grained token", async () => {
    await call(
      "PUT",
      "/repos/alice/secret/contents/plan.md",
      { message: "Plan", content: Buffer.from("secret\n").toString("base64") },
      201,
    );
    for (const token of [null, BOB_TOKEN]) {
      assert.equal((await get("/repos/alice/secret/tarball", token)).status, 404);
      assert.equal((await get("/_codeload/alice/secret/legacy.tar.gz/main", token)).status, 404);
    }
    const link = await get("/repos/alice/secret/tarball", ALICE_TOKEN);
    assert.equal(link.status, 302);
    const archive = await get("/repos/alice/secret/tarball", ALICE_TOKEN, "follow");
    assert.equal(archive.status, 200, "the credentials go again to the same origin");
    assert.ok(gunzipSync(Buffer.from(await archive.arrayBuffer())).includes("secret\n"));

    const pat = async (permissions: Json) => {
      const res = await fetch(`${url}/user/personal-access-tokens`, {
        method: "POST",
        headers: { authorization: basic(ALICE.login, ALICE.password), "content-type": "application/json" },
        body: JSON.stringify({
          name: `archives ${JSON.stringify(permissions)}`,
          repository_selection: "subset",
          repositories: ["alice/secret"],
          permissions: { repository: permissions },
        }),
      });
      assert.equal(res.status, 201);
      return ((await res.json()) as Json).token as string;
    };
    const metadataOnly = await get("/repos/alice/secret/zipball", await pat({}));
    assert.equal(metadataOnly.status, 403);
    assert.equal(((await metadataOnly.json()) as Json).message, "Resource not accessible by personal access token");
    assert.equal((await get("/repos/alice/secret/zipball", await pat({ contents: "read" }))).status, 302);
  });

  test("an empty repository's link is given and its archive is 404, as on GitHub", async () => {
    await call("POST", "/user/repos", { name: "blank" }, 201);
    const link = await get("/repos/alice/blank/zipball");
    assert.equal(link.status, 302);
    const archive = await get("/repos/alice/blank/zipball", ALICE_TOKEN, "follow");
    assert.equal(archive.status, 404);
    assert.equal(((await archive.json()) as Json).message, "This repository is empty.");
  });

  test("a release's tarball_url and zipball_url are served: the archive of its tag", async () => {
    const release = await call("POST", "/repos/alice/hello/releases", { tag_name: "v1.0", name: "One" }, 201);
    assert.equal(release.tarball_url, `${url}/repos/alice/hello/tarball/v1.0`);
    assert.equal(release.zipball_url, `${url}/repos/alice/hello/zipball/v1.0`);
    const tar = await fetch(release.tarball_url, { headers: { authorization: `token ${ALICE_TOKEN}` } });
    assert.equal(tar.status, 200);
    const bytes = gunzipSync(Buffer.from(await tar.arrayBuffer()));
    assert.ok(bytes.subarray(512, 1024).toString().startsWith(`52 comment=${history.main}\n`));
    const zip = await fetch(release.zipball_url, { headers: { authorization: `token ${ALICE_TOKEN}` } });
    assert.equal(zip.headers.get("content-type"), "application/zip");
    assert.equal(
      Buffer.from(await zip.arrayBuffer())
        .subarray(-40)
        .toString(),
      history.main,
    );
  });

  test("the latest @octokit/rest, unmodified, downloads a private tarball by following the redirect", async () => {
    const octokit = new Octokit({ auth: ALICE_TOKEN, baseUrl: url });
    const res = await octokit.rest.repos.downloadTarballArchive({ owner: "alice", repo: "secret", ref: "main" });
    assert.equal(res.status, 200);
    assert.match(res.url, /\/_codeload\/alice\/secret\/legacy\.tar\.gz\/main$/);
    const tar = gunzipSync(Buffer.from(res.data as ArrayBuffer));
    assert.ok(tar.includes("plan.md"));
  });

  test("feedgate's SDK answers the archive's link, as PyGithub's get_archive_link does, without following it", async () => {
    const client = new Client({ baseUrl: url, version: "3.0.0", auth: { type: "oauth", token: ALICE_TOKEN } });
    const tarball = await client.archives.tarball({ user: "alice", repo: "hello", "*": "feature" });
    assert.deepEqual([tarball.status, tarball.data], [302, `${url}/_codeload/alice/hello/legacy.tar.gz/feature`]);
    const zipball = await client.archives.zipballOfDefaultBranch({ user: "alice", repo: "secret" });
    assert.equal(zipball.data, `${url}/_codeload/alice/secret/legacy.zip/main`);
  });
});
