/**
 * examples/testing/: one small GitHub integration (examples/testing/bot.mjs) tested against feedgate/testing with
 * node:test (over fg.url), Vitest (through fg.fetch) and Jest (intercepting https://api.github.com), each run by its
 * own runner as a user's project would run it: `feedgate` imported by its package name from a node_modules entry.
 * A Probot app (examples/testing/probot/) answers the webhooks the double delivers to it.
 * And from Python: PyGithub against `feedgate serve --ephemeral --test-controls`, through the HTTP controls.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdirSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { promisify } from "node:util";
import { makeClone, type Clone } from "../helpers/clone.js";
import { sharedBuild } from "../helpers/shared-build.js";
import { skipUnlessClient } from "../compat/debian-clients.js";

describe("examples/testing, run by each framework", () => {
  let scratch: Clone;
  let examples: string;
  // Without this run's own test-runner context: a child `node --test` that sees it runs nothing.
  const { NODE_TEST_CONTEXT: _context, ...environment } = process.env;
  const run = async (args: string[], program = process.execPath, extra: NodeJS.ProcessEnv = {}) => {
    const { stdout, stderr } = await promisify(execFile)(program, args, {
      cwd: scratch.clone,
      encoding: "utf8",
      timeout: 180_000,
      env: { ...environment, NODE_OPTIONS: "", CI: "1", NO_COLOR: "1", FORCE_COLOR: "0", ...extra },
    }).catch((error: { stdout?: string; stderr?: string; message: string }) => {
      throw new Error(`${args.join(" ")} failed:\n${error.stdout ?? ""}${error.stderr ?? ""}${error.message}`);
    });
    return stdout + stderr;
  };

  before(async () => {
    scratch = makeClone("feedgate-examples-");
    await sharedBuild(scratch.clone);
    examples = join(scratch.clone, "examples/testing");
    // Where an installed feedgate would be: `import "feedgate/testing"` resolves as in a user's project.
    rmSync(join(examples, "node_modules"), { recursive: true, force: true });
    mkdirSync(join(examples, "node_modules"));
    symlinkSync(scratch.clone, join(examples, "node_modules/feedgate"));
  });
  after(() => {
    if (scratch) rmSync(scratch.dir, { recursive: true, force: true });
  });

  it("node:test", async () => {
    const output = await run(["--test", "examples/testing/node-test/"]);
    assert.match(output, /^# pass 3$/m);
    assert.match(output, /^# fail 0$/m);
  });

  it("Probot: an unmodified Probot 14 app, its webhooks delivered by the double to Probot's own middleware", async () => {
    const output = await run(["--test", "examples/testing/probot/"]);
    assert.match(output, /^# pass 1$/m);
    assert.match(output, /^# fail 0$/m);
  });

  it("Vitest", async () => {
    const output = await run(["node_modules/vitest/vitest.mjs", "run", "examples/testing/vitest"]);
    assert.match(output, /Tests {2}3 passed \(3\)/);
  });

  it("Jest", async () => {
    const output = await run([
      "--experimental-vm-modules",
      "node_modules/jest/bin/jest.js",
      "--rootDir",
      "examples/testing/jest",
    ]);
    assert.match(output, /Tests: {7}3 passed, 3 total/);
  });

  it("Python: PyGithub with the HTTP controls", { skip: skipUnlessClient("pygithub") }, async () => {
    const output = await run(["-m", "unittest", "-v", "examples/testing/python/test_bot.py"], "/usr/bin/python3", {
      FEEDGATE: `${process.execPath} ${join(scratch.clone, "dist/cli/main.js")}`,
    });
    assert.match(output, /^Ran 3 tests in /m);
    assert.match(output, /^OK$/m);
  });
});
