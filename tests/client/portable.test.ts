/**
 * The SDK runs in browsers too (DESIGN.md: src/api has no Node-only imports; the client is built on fetch):
 * its sources, and the shared contract they import, may use only web-standard globals and import only each
 * other and TypeBox.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { inRepository } from "../helpers/repository.js";

const ROOT = `${inRepository("src")}/`;
const FOLDERS = ["client", "api"];
const ALLOWED_PACKAGES = new Set(["@sinclair/typebox"]);
/** Node globals with no browser equivalent. */
const NODE_ONLY = /\b(Buffer|process|require|__dirname|__filename|setImmediate|global)\b(?=\s*[.([])/;

const sources = FOLDERS.flatMap((folder) =>
  readdirSync(`${ROOT}${folder}`)
    .filter((f) => f.endsWith(".ts"))
    .map((f) => `${folder}/${f}`),
);

test("the client and api sources exist", () => {
  assert.ok(sources.includes("client/index.ts") && sources.includes("api/endpoints.ts"));
});

for (const file of sources) {
  test(`${file} imports only web-portable modules and uses no Node-only global`, () => {
    const code = readFileSync(`${ROOT}${file}`, "utf8");
    const withoutComments = code.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
    for (const [, specifier] of withoutComments.matchAll(/\bfrom\s+"([^"]+)"|\bimport\s*\(\s*"([^"]+)"/g)) {
      if (specifier === undefined) continue;
      assert.ok(specifier.startsWith(".") || ALLOWED_PACKAGES.has(specifier), `${file} imports ${specifier}`);
    }
    const line = withoutComments.split("\n").find((l) => NODE_ONLY.test(l));
    assert.equal(line, undefined, `${file} uses a Node-only global: ${line}`);
  });
}
