/**
 * Run from the sources, feedgate starts its threads and processes from the build when the build is fresh
 * (src/server/built-tree.ts): a source module's twin is its path under dist/, used only when written after every
 * source, and a module named by another thread is imported as this thread runs.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { builtTwin, importModule } from "../../src/server/built-tree.js";

const inRepo = (path: string) => new URL(`../../${path}`, import.meta.url);

test("a source module's twin is its path under dist/, given only when it was built after the last change to src/", () => {
  const lastSourceWrite = readdirSync("src", { recursive: true, encoding: "utf8" }).reduce(
    (last, file) => Math.max(last, statSync(join("src", file)).mtimeMs),
    0,
  );
  const built = statSync("dist/cli/main.js", { throwIfNoEntry: false })?.mtimeMs ?? 0;
  assert.equal(
    builtTwin(inRepo("src/cli/main.ts"))?.href ?? null,
    built > lastSourceWrite ? inRepo("dist/cli/main.js").href : null,
  );
});

test("only TypeScript modules of src/ have twins: a test's module and a built module have none", () => {
  assert.equal(builtTwin(new URL(import.meta.url)), null);
  assert.equal(builtTwin(inRepo("dist/cli/main.js")), null);
});

test("a thread running the sources imports a source module as it is: the same module, not a second copy from dist/", async () => {
  const named = inRepo("src/server/store/encoded-batch.ts").href;
  assert.equal(await importModule(named), await import(named));
});
