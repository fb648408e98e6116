/**
 * The command line's page lists every command `feedgate --help` shows, so that a command added to program.ts is
 * documented with it.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { PassThrough } from "node:stream";
import { buildProgram } from "../../src/cli/program.js";

test("docs/cli.md names every command of feedgate --help", () => {
  const page = readFileSync("docs/cli.md", "utf8");
  const io = { stdin: new PassThrough(), stdout: new PassThrough(), stderr: new PassThrough(), env: {} };
  const commands = buildProgram(io).commands.map((command) => command.name());
  assert.ok(commands.includes("backup") && commands.includes("restore"), commands.join(", "));
  const missing = commands.filter((name) => !page.includes(`feedgate ${name}`));
  assert.deepEqual(missing, [], "commands docs/cli.md does not mention as `feedgate <command>`");
});
