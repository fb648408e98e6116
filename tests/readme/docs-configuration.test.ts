/**
 * docs/configuration.md explains each setting at more length than `--help` can, in a table written by hand; the flags
 * and environment variables in it are the settings table's (src/server/settings/table.ts), every row of it and no
 * other, so the page cannot drift from what `feedgate serve` reads.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { SETTINGS } from "../../src/server/config.js";
import { rowsOf } from "../../src/server/settings/read.js";

/** `--flag ENV` for each row of the page's table. */
function documented(): string[] {
  const page = readFileSync("docs/configuration.md", "utf8");
  return [...page.matchAll(/^\| `(--[a-z-]+)` \| `([A-Z_]+)` \|/gm)].map(([, flag, env]) => `${flag} ${env}`).sort();
}

test("docs/configuration.md has a row for every setting, with its flag and environment variable, and no other", () => {
  const rows = rowsOf(SETTINGS)
    .map((row) => `${row.flag} ${row.env}`)
    .sort();
  assert.ok(rows.length > 30, `the settings table has ${rows.length} rows`);
  assert.deepEqual(documented(), rows);
});
