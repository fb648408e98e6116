/**
 * The SDK as another project gets it: `npm pack` in a clone, the tarball installed into a scratch project, and
 * `feedgate/client` imported from there (JavaScript, and TypeScript against the shipped declarations) to read a
 * real server. The install uses npm's cache only (`--prefer-offline`, as after `npm ci`) and runs no install
 * scripts: the client needs none of the server's native modules.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { readdirSync, readFileSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { makeClone, REPOSITORY, type Clone } from "../helpers/clone.js";
import { startListeningApp, type ListeningApp } from "../helpers/listening-app.js";
import { sharedBuild } from "../helpers/shared-build.js";

/** Runs a program to its end without blocking this process, whose server it may be talking to. */
async function run(command: string, args: string[], cwd: string): Promise<string> {
  return (await promisify(execFile)(command, args, { cwd, encoding: "utf8", timeout: 180_000 })).stdout;
}

describe("the packed tarball, installed into another project", () => {
  let scratch: Clone;
  let project: string;
  let tarball: string;
  let server: ListeningApp;

  before(async () => {
    scratch = makeClone("feedgate-pack-");
    // `npm pack` would run `prepare`, which builds dist/ in the clone: the build the docs pages' runs share is the
    // same compile of the same sources, made once.
    await sharedBuild(scratch.clone);
    await run("npm", ["pack", "--silent", "--ignore-scripts", "--pack-destination", scratch.dir], scratch.clone);
    tarball = join(scratch.dir, readdirSync(scratch.dir).find((name) => name.endsWith(".tgz"))!);
    project = join(scratch.dir, "app");
    mkdirSync(project);
    writeFileSync(join(project, "package.json"), JSON.stringify({ name: "app", private: true, type: "module" }));
    await run("npm", ["install", "--ignore-scripts", "--prefer-offline", "--no-audit", "--no-fund", tarball], project);
    server = await startListeningApp();
  });

  after(async () => {
    await server?.close();
    if (scratch) rmSync(scratch.dir, { recursive: true, force: true });
  });

  test("the tarball holds the built client, the CLI, the demo and the licence, and no sources or tests", async () => {
    const files = (await run("tar", ["-tzf", tarball], scratch.dir)).split("\n").filter(Boolean);
    for (const file of [
      "package/dist/client/index.js",
      "package/dist/client/index.d.ts",
      "package/dist/cli/main.js",
      "package/demo/world.json",
      "package/LICENSE",
      "package/README.md",
    ]) {
      assert.ok(files.includes(file), `${file} is not in the tarball`);
    }
    assert.deepEqual(
      files.filter((file) => /^package\/(src|tests|bench)\//.test(file)),
      [],
    );
  });

  test('import { Client } from "feedgate/client" reads a feed from a real server', async () => {
    writeFileSync(
      join(project, "read.mjs"),
      [
        'import { Client, HttpError } from "feedgate/client";',
        'const client = new Client({ baseUrl: process.argv[2], version: "3.0.0" });',
        "const page = await client.events.get({ per_page: 2 });",
        "console.log(page.status, page.data.length, typeof page.meta.etag, HttpError.name);",
      ].join("\n"),
    );
    assert.equal((await run("node", ["read.mjs", server.url], project)).trim(), "200 2 string HttpError");
  });

  test("npx feedgate, in the project that installed it, runs the package's CLI", async () => {
    const { version } = JSON.parse(readFileSync(join(REPOSITORY, "package.json"), "utf8")) as { version: string };
    assert.equal((await run("npx", ["--no-install", "feedgate", "--version"], project)).trim(), version);
  });

  test("TypeScript finds the client's declarations", async () => {
    writeFileSync(
      join(project, "typed.ts"),
      [
        'import { Client, type Event } from "feedgate/client";',
        'const client = new Client({ baseUrl: "http://127.0.0.1:1", version: "3.0.0" });',
        "export async function types(): Promise<string[]> {",
        '  const page = await client.events.getFromRepo({ user: "demo", repo: "tools" });',
        "  return page.data.map((event: Event) => event.type);",
        "}",
        // A wrong parameter name must not compile, or the declarations are not what TypeScript read.
        "// @ts-expect-error: no such parameter",
        'void client.events.getFromRepo({ owner: "demo", repo: "tools" });',
      ].join("\n"),
    );
    await run(
      join(REPOSITORY, "node_modules/.bin/tsc"),
      [
        "--noEmit",
        "--strict",
        "--module",
        "nodenext",
        "--moduleResolution",
        "nodenext",
        "--target",
        "es2022",
        "typed.ts",
      ],
      project,
    );
  });
});
