/**
 * The contents API's media types and the entries that are not plain files, over real HTTP on the store under test:
 * `application/vnd.github.object` (a directory as an object with its `entries`), `.html` (Markdown rendered and
 * sanitized in GitHub's wrapper, other text escaped, a binary file 406), `.raw`; a body format the contents routes do
 * not serve is GitHub's 406; the README of a directory (`/readme/{dir}`) and the preferred one (`.github`, the root,
 * `docs`); a submodule answered with the URL `.gitmodules` gives it; a symbolic link answered with the file it leads
 * to, or as itself. Bodies checked against GitHub's published schemas, and @octokit/rest 22 asking for each format.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { Ajv } from "ajv";
import formats from "ajv-formats";
import { Octokit } from "octokit-rest-latest";
import { ALICE_TOKEN } from "../helpers/client-world.js";
import { assertSchema, compileSchemas } from "../compat/schemas.js";
import { SHARED_DATA } from "../helpers/recorded.js";
import { issueScene, type IssueScene, type Json } from "../helpers/issue-scene.js";

const REPO = "/repos/alice/hello";
const b64 = (text: string | Buffer) => Buffer.from(text).toString("base64");
const README = [
  "# Hello",
  "",
  "- [x] written",
  "",
  "| a | b |",
  "|---|---|",
  "| 1 | 2 |",
  "",
  '<script>alert("x")</script>',
  "",
  '[bad](javascript:alert(1)) and [good](https://example.com/) <img src="x.png" onerror="alert(2)">',
  "",
].join("\n");
const NOTES = 'a < b & "c"\nsecond line\n';
const BINARY = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0x02]);
const SUBMODULE_SHA = "6ca3721222109997540bd6d9ccd396902e0ad2f9";
const GITMODULES = [
  '[submodule "vendor/lib"]',
  "\tpath = vendor/lib",
  "\turl = https://git.example.com/octocat/lib.git",
  '[submodule "own"]',
  "\tpath = vendor/own",
  "\turl = ../hello-lib.git ; a relative URL, read from alice/hello",
  "",
].join("\n");

/** The 200 answer of GitHub's get-content operation (file, symlink, submodule or directory), as published. */
function contentsValidator() {
  const paths = JSON.parse(readFileSync(new URL("openapi/contents.paths.json", SHARED_DATA), "utf8")) as Json;
  const schema = paths.paths["/repos/{owner}/{repo}/contents/{path}"].get.responses["200"].content["application/json"]
    .schema as Json;
  const ajv = new Ajv({ strict: false, allErrors: true });
  formats.default(ajv);
  const nullable = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(nullable);
    if (typeof value !== "object" || value === null) return value;
    const { nullable: isNullable, ...rest } = Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, nullable(v)]),
    ) as Json;
    return isNullable === true && typeof rest.type === "string" ? { ...rest, type: [rest.type, "null"] } : rest;
  };
  const validate = ajv.compile(nullable(schema) as Json);
  return (body: unknown) => assert.ok(validate(body), JSON.stringify(validate.errors));
}

describe("contents: media types, READMEs, submodules and symbolic links", () => {
  let s: IssueScene;
  let url = "";
  let tree = "";
  const assertContents = contentsValidator();
  /** A request over the socket, with `accept` when given. */
  const get = async (path: string, accept?: string, token: string | null = ALICE_TOKEN) => {
    const res = await fetch(`${url}${path}`, {
      headers: { ...(token ? { authorization: `token ${token}` } : {}), ...(accept ? { accept } : {}) },
    });
    return { status: res.status, type: res.headers.get("content-type") ?? "", text: await res.text() };
  };
  const json = async (path: string, accept?: string) => {
    const res = await get(path, accept);
    assert.equal(res.status, 200, res.text);
    return JSON.parse(res.text) as Json;
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

  before(async () => {
    compileSchemas("content-file", "content-directory", "content-tree");
    s = await issueScene();
    url = await s.t.app.listen({ port: 0, host: "127.0.0.1" });
    const first = await call("PUT", `${REPO}/contents/README.md`, { message: "Readme", content: b64(README) });
    const binary = await call("POST", `${REPO}/git/blobs`, { content: b64(BINARY), encoding: "base64" });
    const blob = (path: string, content: string, mode = "100644") => ({ path, mode, type: "blob", content });
    const made = await call("POST", `${REPO}/git/trees`, {
      base_tree: first.commit.tree.sha,
      tree: [
        blob("notes.txt", NOTES),
        blob("docs/README.md", "# Docs\n"),
        blob("docs/guide.md", "guide\n"),
        blob("empty/keep.txt", "kept\n"),
        { path: "bin.dat", mode: "100644", type: "blob", sha: binary.sha },
        blob(".gitmodules", GITMODULES),
        { path: "vendor/lib", mode: "160000", type: "commit", sha: SUBMODULE_SHA },
        { path: "vendor/own", mode: "160000", type: "commit", sha: SUBMODULE_SHA },
        { path: "vendor/orphan", mode: "160000", type: "commit", sha: SUBMODULE_SHA },
        blob("link-to-readme", "README.md", "120000"),
        blob("docs/up-link", "../notes.txt", "120000"),
        blob("docs/chain", "../link-to-readme", "120000"),
        blob("dir-link", "docs", "120000"),
        blob("outside", "../../etc/passwd", "120000"),
        blob("dangling", "nothing-here", "120000"),
      ],
    });
    tree = made.sha;
    const commit = await call("POST", `${REPO}/git/commits`, {
      message: "Everything",
      tree,
      parents: [first.commit.sha],
    });
    await call("PATCH", `${REPO}/git/refs/heads/main`, { sha: commit.sha }, 200);
  });
  after(() => s.close());

  test("the object media type answers a directory as an object with its entries, a file as the JSON does", async () => {
    const root = await json(`${REPO}/contents/`, "application/vnd.github.object");
    assertSchema("content-tree", root);
    assert.deepEqual([root.type, root.name, root.path, root.sha, root.size], ["dir", "", "", tree, 0]);
    assert.equal(root.download_url, null);
    const listed = await json(`${REPO}/contents`);
    assert.deepEqual(root.entries, listed);
    const docs = await json(`${REPO}/contents/docs?ref=main`, "application/vnd.github.v3.object+json");
    assertSchema("content-tree", docs);
    assert.deepEqual(
      [docs.name, docs.path, docs.url, docs.git_url],
      [
        "docs",
        "docs",
        `${url}${REPO}/contents/docs?ref=main`,
        `${url}${REPO}/git/trees/${listed.find((e: Json) => e.name === "docs").sha}`,
      ],
    );
    assert.deepEqual(
      docs.entries.map((e: Json) => [e.type, e.path]),
      [
        ["file", "docs/README.md"],
        ["symlink", "docs/chain"],
        ["file", "docs/guide.md"],
        ["symlink", "docs/up-link"],
      ],
    );
    const file = await json(`${REPO}/contents/notes.txt`, "application/vnd.github.object");
    assertSchema("content-file", file);
    assert.deepEqual(file, await json(`${REPO}/contents/notes.txt`));
  });

  test("the HTML media type renders Markdown in GitHub's wrapper, sanitized, and escapes other text", async () => {
    const page = await get(`${REPO}/contents/README.md`, "application/vnd.github.html");
    assert.equal(page.status, 200);
    assert.match(page.type, /^application\/vnd\.github\.html; charset=utf-8/);
    const shell =
      '<div id="file" class="md" data-path="README.md"><article class="markdown-body entry-content container-lg" itemprop="text">';
    assert.ok(page.text.startsWith(shell), page.text);
    assert.ok(page.text.endsWith("</article></div>"), page.text);
    assert.match(page.text, /<h1>Hello<\/h1>/);
    assert.match(page.text, /<input (?=[^>]*type="checkbox")(?=[^>]*checked)[^>]*>/);
    assert.match(page.text, /<table>[\s\S]*<td>1<\/td>[\s\S]*<\/table>/);
    assert.match(page.text, /<a href="https:\/\/example\.com\/">good<\/a>/);
    for (const unsafe of ["<script", "javascript:", "onerror", "alert(2)"])
      assert.ok(!page.text.includes(unsafe), unsafe);
    const plain = await get(`${REPO}/contents/notes.txt`, "application/vnd.github.v3.html+json");
    assert.equal(
      plain.text,
      '<div id="file" class="plain" data-path="notes.txt"><div class="plain"><pre style="white-space: pre-wrap">' +
        "a &lt; b &amp; &quot;c&quot;\nsecond line\n</pre></div></div>",
    );
    const readme = await get(`${REPO}/readme`, "application/vnd.github.html");
    assert.ok(readme.text.startsWith('<div id="readme" class="md" data-path="README.md">'), readme.text);
    // A directory has no HTML form: GitHub answers it as JSON, as it does the raw media type.
    assert.deepEqual(
      JSON.parse((await get(`${REPO}/contents/docs`, "application/vnd.github.html")).text),
      await json(`${REPO}/contents/docs`),
    );
  });

  test("a binary file has no HTML form, and a format the contents do not serve is GitHub's 406", async () => {
    const binary = await get(`${REPO}/contents/bin.dat`, "application/vnd.github.html");
    assert.deepEqual(
      [binary.status, JSON.parse(binary.text).message],
      [406, "This resource does not support the 'html' media type parameter."],
    );
    const raw = await fetch(`${url}${REPO}/contents/bin.dat`, { headers: { accept: "application/vnd.github.raw" } });
    assert.deepEqual(Buffer.from(new Uint8Array(await raw.arrayBuffer())), BINARY);
    for (const param of ["diff", "full", "sha"]) {
      const res = await get(`${REPO}/contents/notes.txt`, `application/vnd.github.${param}`);
      assert.deepEqual(
        [res.status, JSON.parse(res.text).message],
        [406, `This resource does not support the '${param}' media type parameter.`],
        param,
      );
    }
    // A preview or the plain types name no body format: the JSON answer.
    assert.equal(
      (await get(`${REPO}/contents/notes.txt`, "application/vnd.github.squirrel-girl-preview+json")).status,
      200,
    );
    assert.equal((await get(`${REPO}/contents/notes.txt`, "application/vnd.github+json")).status, 200);
  });

  test("a directory's README, and the preferred one: the .github directory's, the root's, then docs'", async () => {
    const docs = await json(`${REPO}/readme/docs`);
    assertSchema("content-file", docs);
    assert.deepEqual([docs.path, Buffer.from(docs.content, "base64").toString()], ["docs/README.md", "# Docs\n"]);
    assert.equal((await get(`${REPO}/readme/docs`, "application/vnd.github.raw")).text, "# Docs\n");
    assert.equal((await get(`${REPO}/readme/docs/`, "application/vnd.github.raw")).text, "# Docs\n");
    for (const missing of ["empty", "nothing", "notes.txt"]) {
      const res = await get(`${REPO}/readme/${missing}`);
      assert.deepEqual([res.status, JSON.parse(res.text).message], [404, "Not Found"], missing);
    }
    assert.equal((await json(`${REPO}/readme`)).path, "README.md");
    await call("PUT", `${REPO}/contents/.github/readme.markdown`, {
      message: "Preferred",
      content: b64("# Preferred\n"),
    });
    const preferred = await json(`${REPO}/readme`);
    assert.equal(preferred.path, ".github/readme.markdown");
    assert.equal((await json(`${REPO}/readme/docs`)).path, "docs/README.md");
    await call(
      "DELETE",
      `${REPO}/contents/.github/readme.markdown`,
      { message: "Not preferred", sha: preferred.sha },
      200,
    );
  });

  test("a submodule: its URL from .gitmodules, its repository's URLs when on this host, listed as a file", async () => {
    const lib = await json(`${REPO}/contents/vendor/lib`);
    assertContents(lib);
    assert.deepEqual(lib, {
      type: "submodule",
      submodule_git_url: "https://git.example.com/octocat/lib.git",
      size: 0,
      name: "lib",
      path: "vendor/lib",
      sha: SUBMODULE_SHA,
      url: `${url}${REPO}/contents/vendor/lib?ref=main`,
      git_url: null,
      html_url: null,
      download_url: null,
      _links: { self: `${url}${REPO}/contents/vendor/lib?ref=main`, git: null, html: null },
    });
    const own = await json(`${REPO}/contents/vendor/own`);
    assertContents(own);
    assert.deepEqual(
      [own.submodule_git_url, own.git_url, own.html_url],
      [
        `${url}/alice/hello-lib.git`,
        `${url}/repos/alice/hello-lib/git/trees/${SUBMODULE_SHA}`,
        `${url}/alice/hello-lib/tree/${SUBMODULE_SHA}`,
      ],
    );
    // A gitlink no .gitmodules describes is no submodule git could clone.
    assert.equal((await get(`${REPO}/contents/vendor/orphan`)).status, 404);
    assert.equal((await get(`${REPO}/contents/vendor/lib/inside.txt`)).status, 404);
    // Raw and HTML ask for a file's body: a submodule is answered as JSON.
    assert.deepEqual(JSON.parse((await get(`${REPO}/contents/vendor/lib`, "application/vnd.github.raw")).text), lib);
    const vendor = await json(`${REPO}/contents/vendor`);
    assertSchema("content-directory", [vendor]);
    assert.deepEqual(
      vendor.map((e: Json) => [e.type, e.name, e.size, e.download_url, e.git_url]),
      [
        ["file", "lib", 0, null, null],
        ["file", "orphan", 0, null, null],
        ["file", "own", 0, null, `${url}/repos/alice/hello-lib/git/trees/${SUBMODULE_SHA}`],
      ],
    );
  });

  test("a symbolic link to a file answers the file; to a directory, outside or nowhere, the link itself", async () => {
    const readme = await json(`${REPO}/contents/README.md`);
    for (const link of ["link-to-readme", "docs/chain"]) {
      const followed = await json(`${REPO}/contents/${link}`);
      assertSchema("content-file", followed);
      assert.deepEqual(followed, readme, link);
      assert.equal((await get(`${REPO}/contents/${link}`, "application/vnd.github.raw")).text, README, link);
    }
    assert.equal((await json(`${REPO}/contents/docs/up-link`)).path, "notes.txt");
    for (const [link, target] of [
      ["dir-link", "docs"],
      ["outside", "../../etc/passwd"],
      ["dangling", "nothing-here"],
    ] as const) {
      const itself = await json(`${REPO}/contents/${link}`);
      assertContents(itself);
      assert.deepEqual(
        [itself.type, itself.target, itself.path, itself.size],
        ["symlink", target, link, target.length],
      );
      assert.equal((await get(`${REPO}/contents/${link}`, "application/vnd.github.raw")).text, target);
    }
  });

  test("@octokit/rest 22 asks for each format with its mediaType option and reads the answer", async () => {
    const octokit = new Octokit({ baseUrl: url, auth: ALICE_TOKEN });
    const where = { owner: "alice", repo: "hello" };
    const html = await octokit.rest.repos.getContent({ ...where, path: "README.md", mediaType: { format: "html" } });
    assert.match(String(html.data), /^<div id="file" class="md" data-path="README.md">/);
    const raw = await octokit.rest.repos.getContent({ ...where, path: "notes.txt", mediaType: { format: "raw" } });
    assert.equal(String(raw.data), NOTES);
    const object = await octokit.rest.repos.getContent({ ...where, path: "docs", mediaType: { format: "object" } });
    assert.equal((object.data as unknown as Json).entries.length, 4);
    const inDir = await octokit.rest.repos.getReadmeInDirectory({ ...where, dir: "docs" });
    assert.equal(inDir.data.path, "docs/README.md");
    const refused = await octokit.rest.repos
      .getContent({ ...where, path: "bin.dat", mediaType: { format: "html" } })
      .catch((error: { status: number }) => error);
    assert.equal((refused as { status: number }).status, 406);
  });
});
