/**
 * What `feedgate import` shows while it works when stderr is not a terminal (a CI log): plain progress lines, the
 * feed index build after a first import into SQLite with its duration, and the summary; and its help says how it
 * treats bad lines, unlike the admin route.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli } from "../helpers/cli.js";
import { SAMPLE } from "../helpers/ingest-fixtures.js";

const lines = (text: string) => text.split("\n").filter(Boolean);

describe("feedgate import off a terminal", () => {
  let dir: string;
  before(() => (dir = mkdtempSync(join(tmpdir(), "feedgate-progress-"))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  test("prints plain progress lines (events so far, rate, bytes read), the index build and its time, then the summary", async () => {
    const result = await runCli(["import", SAMPLE, "--db", join(dir, "a.db"), "--progress-every", "0.001"]);
    assert.equal(result.code, 0, result.stderr);
    const progress = lines(result.stderr);
    assert.match(
      progress[0]!,
      new RegExp(
        `^${SAMPLE.replaceAll(/[.*+?^${}()|[\]\\/]/g, "\\$&")}: 800 events so far, \\d+ events/s, [\\d.]+ MB of [\\d.]+ MB read$`,
      ),
    );
    assert.deepEqual(progress.slice(1, 2), ["building feed indexes…"]);
    assert.match(progress[2]!, /^building feed indexes: done in \d+\.\d s$/);
    assert.equal(progress.length, 3, result.stderr);
    assert.match(
      result.stdout,
      /: 800 lines, 800 events added, 0 already present, 0 malformed lines skipped\nimported 800 events in [\d.]+ s \(\d+ events\/s\)\n$/,
    );
  });

  test("a quick import prints no progress line before the interval, and no index build into a database with events", async () => {
    const result = await runCli(["import", SAMPLE, "--db", join(dir, "a.db")]);
    assert.deepEqual([result.code, result.stderr], [0, ""]);
  });

  test("--progress-every must be a positive number of seconds", async () => {
    const result = await runCli(["import", SAMPLE, "--db", join(dir, "a.db"), "--progress-every", "soon"]);
    assert.deepEqual(
      [result.code, result.stderr],
      [1, 'feedgate: --progress-every must be a number of seconds above 0, got "soon"\n'],
    );
  });

  test("the help says bad lines are skipped here while the admin route refuses a whole body", async () => {
    const result = await runCli(["import", "--help"]);
    assert.equal(result.code, 0);
    assert.match(result.stdout, /Malformed lines are reported \(file:line\) and skipped/);
    assert.match(result.stdout, /POST \/admin\/events differs on purpose: it refuses a whole body/);
  });
});
