/**
 * A page of the documentation (README.md or a docs/*.md page), executed: its shell examples run in order, as
 * written, in one shell (as a reader's terminal keeps its variables), against a fresh clone started with
 * `npm start` as the README's Quick start says. Only the port (any free one instead of 3000) and the credentials
 * the demo prints differ from what a reader sees, and `npx feedgate` runs the package's bin without npm's start-up
 * (npxShim). A command that exits non-zero, or prints other than what the page shows under it, fails here with the
 * page and line it is on.
 *
 * Each page runs in its own clone, against its own fresh demo, so a page's examples hold for a reader who opens
 * it right after the Quick start, and the pages run in parallel (one test file each: tests/readme/docs-*.test.ts),
 * on one build of the sources that they share (tests/helpers/shared-build.ts).
 * How blocks are read and marked: tests/helpers/readme-examples.ts.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeClone, REPOSITORY } from "../helpers/clone.js";
import { matchesExpected, readmeBlocks, type Block, type Command } from "../helpers/readme-examples.js";
import { skipOutsideCi } from "../helpers/services.js";
import { sharedBuild } from "../helpers/shared-build.js";

/** The port the examples name; the clone's server listens on a free one instead. */
const README_URL = "http://127.0.0.1:3000";
/**
 * Guards against a hang, not budgets: a page's commands take what a loaded machine gives them, so a run is stopped
 * only when it is far past any run's time (a page's script gets this much for each of its commands).
 */
const HANG_GUARD_MS = { start: 600_000, perCommand: 60_000 };
/** What npm itself says about the machine's npm configuration is not the example's output. */
const NPM_NOTICE = /^npm (warn|notice)\b/;

const PROGRAMS = ["bash", "curl", "jq"];
const missing = PROGRAMS.filter((program) => spawnSync("sh", ["-c", `command -v ${program}`]).status !== 0);
const skip = skipOutsideCi(missing.length > 0 ? `the examples use ${missing.join(", ")}, not installed here` : false);

/**
 * An `npx` ahead of npm's on the examples' PATH. `npx feedgate ...` in the clone runs the package's own `bin`
 * (package.json's `bin.feedgate`, with node); this runs that same file directly, without the ~0.8 s of CPU npm's
 * start-up costs per call, which across the pages' ~60 calls was the largest cost of the whole suite. Any other use
 * of npx, or one outside the clone, goes to npm's. That the installed package's `npx feedgate` works through npm
 * itself is tested where it matters to a user, in another project (tests/client/packed.test.ts).
 */
function npxShim(dir: string, clone: string): string {
  const bin = join(dir, "bin");
  mkdirSync(bin, { recursive: true });
  const npx = spawnSync("sh", ["-c", "command -v npx"], { encoding: "utf8" }).stdout.trim();
  const { bin: bins } = JSON.parse(readFileSync(join(clone, "package.json"), "utf8")) as {
    bin: Record<string, string>;
  };
  const program = join(clone, bins.feedgate!);
  writeFileSync(
    join(bin, "npx"),
    [
      "#!/bin/sh",
      `if [ "$1" = feedgate ] && [ "$PWD" = '${realpathSync(clone)}' ]; then shift; exec '${process.execPath}' '${program}' "$@"; fi`,
      `exec '${npx}' "$@"`,
      "",
    ].join("\n"),
    { mode: 0o755 },
  );
  return bin;
}

/**
 * The environment a reader's shell has, for the demo and the examples alike: theirs, without feedgate settings of
 * their own. curl draws a progress meter on stderr when its output is not a terminal, as it is not here; a reader
 * never sees one, so a curlrc turns it off.
 */
function readerEnvironment(dir: string, clone: string): NodeJS.ProcessEnv {
  writeFileSync(join(dir, ".curlrc"), "no-progress-meter\n");
  // Nor this run's test-runner context: a `node --test` a page shows would see it and run nothing.
  const own = Object.entries(process.env).filter(
    ([name]) => !name.startsWith("FEEDGATE_") && name !== "PORT" && name !== "NODE_TEST_CONTEXT",
  );
  return { ...Object.fromEntries(own), CURL_HOME: dir, PATH: `${npxShim(dir, clone)}:${process.env.PATH ?? ""}` };
}

interface Server {
  server: ChildProcess;
  exportLine: string;
  log: () => string;
}

/**
 * How a page without a setup block finds the demo running: `npm start` after its build, which the pages share
 * (tests/helpers/shared-build.ts): package.json's start script without its `npm run build` step.
 */
function startAfterBuild(): string[] {
  const { scripts } = JSON.parse(readFileSync(join(REPOSITORY, "package.json"), "utf8")) as {
    scripts: Record<string, string>;
  };
  const [build, ...rest] = scripts.start!.split(" && ");
  assert.equal(build, "npm run build", `npm start no longer builds first: ${scripts.start}`);
  return ["sh", "-c", rest.join(" && ")];
}

/** Starts the demo in the clone on a free port; resolves with the line it prints for the reader's shell. */
async function startServer(env: NodeJS.ProcessEnv, clone: string, command: string[]): Promise<Server> {
  const server = spawn(command[0]!, command.slice(1), {
    cwd: clone,
    env: { ...env, PORT: "0" },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  server.stdout!.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  server.stderr!.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exportLine = await new Promise<string>((resolvePrinted, reject) => {
    const timer = setTimeout(
      () =>
        reject(new Error(`${command.join(" ")} printed no credentials in ${HANG_GUARD_MS.start / 1000} s:\n${output}`)),
      HANG_GUARD_MS.start,
    );
    const look = () => {
      const line = output
        .split("\n")
        .map((text) => text.trim())
        .find((text) => text.startsWith("export FEEDGATE_URL="));
      if (line) {
        clearTimeout(timer);
        resolvePrinted(line);
      }
    };
    server.stdout!.on("data", look);
    server.stderr!.on("data", look);
    server.once("exit", (code) => reject(new Error(`${command.join(" ")} exited (${code}):\n${output}`)));
  });
  return { server, exportLine, log: () => output };
}

/** The URL in the printed `export FEEDGATE_URL=...` line. */
function printedUrl(exportLine: string): string {
  const url = exportLine.match(/FEEDGATE_URL=(\S+)/)?.[1];
  assert.ok(url, exportLine);
  return url;
}

/**
 * One bash script for every command, in order: each runs with its output to a file of its own and its status
 * recorded; the first failure ends the script, as it would a reader following along.
 */
function script(commands: { text: string }[], outputs: string): string {
  const lines = ["set -o pipefail"];
  commands.forEach((command, index) => {
    lines.push(
      "{",
      command.text,
      `} >"${outputs}/${index}.out" 2>&1 </dev/null`,
      `status=$?; echo $status >"${outputs}/${index}.status"; [ $status = 0 ] || exit 0`,
    );
  });
  return `${lines.join("\n")}\n`;
}

/** A here-document that writes a file block's text, as a reader saving it would. */
function saveFile(name: string, body: string[]): string {
  return `cat >${name} <<'README_FILE_END'\n${body.join("\n")}\nREADME_FILE_END`;
}

interface Step {
  command: Command;
  block: Block;
  text: string;
  expected: string[] | null;
}

export interface PageOptions {
  /** At least this many blocks with commands run: a guard against markers that come to skip everything. */
  minimumBlocks: number;
  /** The page starts the server itself, in a block marked setup (the README's Quick start). */
  setup?: boolean;
}

/**
 * Registers the suite that runs `page` (a path from the repository's root): every example in order, in a fresh
 * clone. The server is started where the page's setup block says (the README), or, on a page without one, before
 * its first example, as the reader who follows the Quick start has it running.
 */
export function describeExamples(page: string, options: PageOptions): void {
  describe(`${page}, run as written`, { skip }, () => {
    const blocks = readmeBlocks(readFileSync(join(REPOSITORY, page), "utf8"), page);
    const hasSetup = blocks.some((block) => block.marker.kind === "setup");
    let dir: string;
    let clone: string;
    /** The reader's environment, made once for the page (readerEnvironment). */
    let env: NodeJS.ProcessEnv;
    let server: ChildProcess | undefined;
    let serverLog = () => "";
    const steps: Step[] = [];
    let outputs: string;

    /**
     * Starts the demo and makes its printed line the shell's first command, as the reader pastes it: `npm start`
     * where the page says so (its setup block), otherwise the same on the build the pages share.
     */
    async function start(block: Block): Promise<string> {
      if (!hasSetup) await sharedBuild(clone);
      const started = await startServer(env, clone, hasSetup ? ["npm", "start"] : startAfterBuild());
      server = started.server;
      serverLog = started.log;
      steps.push({
        block,
        text: started.exportLine,
        expected: null,
        command: { text: started.exportLine, expected: null, line: block.line },
      });
      return printedUrl(started.exportLine);
    }

    before(async () => {
      ({ dir, clone } = makeClone("feedgate-readme-"));
      env = readerEnvironment(dir, clone);
      outputs = join(dir, "outputs");
      mkdirSync(outputs);
      let url: string | undefined;
      for (const block of blocks) {
        const { marker } = block;
        if (marker.kind === "setup") {
          assert.ok(
            block.body.some((line) => /^npm ci && npm start\b/.test(line)),
            `${page} line ${block.line}: the setup block is what the runner does: npm ci && npm start`,
          );
          url = await start(block);
        } else if (marker.kind === "printed") {
          const printed = steps.find((step) => step.block.marker.kind === "setup");
          assert.ok(printed, `${page} line ${block.line}: printed by what? No setup block above`);
          // The page shows the printed line with its secrets elided: it must still be that line's shape.
          assert.ok(
            matchesExpected(block.body, printed.text.replace(url!, README_URL)),
            `${page} line ${block.line} shows\n${block.body.join("\n")}\nbut npm start printed\n${printed.text}`,
          );
        } else if (marker.kind === "file") {
          const command = { text: saveFile(marker.name, block.body), expected: null, line: block.line };
          steps.push({ block, command, text: command.text, expected: null });
        } else if (marker.kind === "run" && block.commands.length > 0) {
          assert.ok(
            url || !hasSetup,
            `${page} line ${block.line}: an example before the setup block starts the server`,
          );
          url ??= await start(block);
          for (const command of block.commands) {
            steps.push({
              block,
              command,
              text: command.text.replaceAll(README_URL, url),
              expected: command.expected?.map((line) => line.replaceAll(README_URL, url!)) ?? null,
            });
          }
        }
      }
      const file = join(dir, "examples.sh");
      writeFileSync(file, script(steps, outputs));
      const timeout = HANG_GUARD_MS.perCommand * steps.length;
      const run = spawnSync("bash", [file], { cwd: clone, env, timeout, encoding: "utf8" });
      assert.equal(run.error, undefined, `the examples did not finish: ${run.error?.message}`);
    });

    after(async () => {
      if (server?.pid && server.exitCode === null) {
        process.kill(-server.pid, "SIGTERM"); // npm and the server it started
        await new Promise((done) => server!.once("exit", done));
      }
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    test("the page has examples the runner runs, and says why it skips the others", () => {
      const run = blocks.filter((block) => block.marker.kind === "run" && block.commands.length > 0);
      assert.ok(run.length >= options.minimumBlocks, `only ${run.length} examples run`);
      if (options.setup) assert.ok(hasSetup, "no Quick start block marked setup");
    });

    test("every example, in order: status 0 and the output the page shows", () => {
      assert.ok(steps.length > 1, `only ${steps.length} commands`);
      for (const [index, step] of steps.entries()) {
        const where = `${page} line ${step.command.line}: ${step.text.split("\n")[0]}`;
        const statusFile = join(outputs, `${index}.status`);
        assert.ok(existsSync(statusFile), `${where}\ndid not finish\n${serverLog().slice(-2000)}`);
        const output = readFileSync(join(outputs, `${index}.out`), "utf8")
          .split("\n")
          .filter((line) => !NPM_NOTICE.test(line))
          .join("\n");
        const status = Number(readFileSync(statusFile, "utf8"));
        assert.equal(status, 0, `${where}\nexited with ${status}:\n${output}`);
        if (step.expected) {
          assert.ok(
            matchesExpected(step.expected, output),
            `${where}\nthe page shows:\n${step.expected.join("\n")}\nbut it printed:\n${output}`,
          );
        }
      }
    });
  });
}
