/**
 * Every failure of a command is one line on stderr that names the cause and the fix, with status 1; the stack
 * only with --verbose or DEBUG. Run in this process (runCli); serve's failed starts, which are about the process
 * ending, are in startup-failures.test.ts.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli } from "../helpers/cli.js";

const lines = (text: string) => text.split("\n").filter(Boolean);

/** A path whose parent is a file: opening a SQLite database there fails with an error no command expects. */
const UNOPENABLE = "/dev/null/feedgate.db";

describe("failures of feedgate commands", () => {
  let dir: string;
  before(() => (dir = mkdtempSync(join(tmpdir(), "feedgate-errors-"))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  test("an unexpected error is one line with its message and how to see more, no stack", async () => {
    const result = await runCli(["migrate", "--db", UNOPENABLE]);
    assert.equal(result.code, 1);
    assert.deepEqual(lines(result.stderr), [
      "feedgate: EEXIST: file already exists, mkdir '/dev/null' (run again with --verbose for details)",
    ]);
  });

  for (const [how, args, env] of [
    ["--verbose after the command", ["migrate", "--db", UNOPENABLE, "--verbose"], {}],
    ["--verbose before the command", ["--verbose", "migrate", "--db", UNOPENABLE], {}],
    ["DEBUG in the environment", ["migrate", "--db", UNOPENABLE], { DEBUG: "1" }],
  ] as const) {
    test(`${how} adds the stack after the line`, async () => {
      const result = await runCli([...args], { env });
      assert.equal(result.code, 1);
      const [first, ...rest] = lines(result.stderr);
      assert.equal(first, "feedgate: EEXIST: file already exists, mkdir '/dev/null'");
      assert.ok(rest.some((line) => /^\s+at /.test(line)), result.stderr);
    });
  }

  test("an operator's mistake stays one line without the hint, and --verbose adds its stack", async () => {
    const plain = await runCli(["import", "-", "-", "--db", join(dir, "a.db")]);
    assert.deepEqual([plain.code, plain.stderr], [1, "feedgate: standard input (-) can be imported once\n"]);
    const verbose = await runCli(["import", "-", "-", "--db", join(dir, "a.db"), "--verbose"]);
    assert.match(verbose.stderr, /^feedgate: standard input \(-\) can be imported once\nInvalidInputError: .*\n\s+at /);
  });

  test("--version prints the package's version", async () => {
    const { version } = JSON.parse(readFileSync("package.json", "utf8")) as { version: string };
    for (const flag of ["--version", "-V"]) {
      const result = await runCli([flag]);
      assert.deepEqual([result.code, result.stdout, result.stderr], [0, `${version}\n`, ""]);
    }
  });
});
