/**
 * The README, executed: its shell examples run in order, as written, in one shell (as a reader's terminal keeps
 * its variables), against a fresh clone started with `npm start` as the Quick start says. Only the port (any free
 * one instead of 3000) and the credentials the demo prints differ from what a reader sees. A command that exits
 * non-zero, or prints other than what the README shows under it, fails here with the README line it is on.
 * How blocks are read and marked: tests/helpers/readme-examples.ts.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeClone, REPOSITORY } from "../helpers/clone.js";
import { matchesExpected, readmeBlocks, type Block, type Command } from "../helpers/readme-examples.js";
import { skipOutsideCi } from "../helpers/services.js";

/** The port the README's examples name; the clone's server listens on a free one instead. */
const README_URL = "http://127.0.0.1:3000";
/** What npm itself says about the machine's npm configuration is not the example's output. */
const NPM_NOTICE = /^npm (warn|notice)\b/;

const PROGRAMS = ["bash", "curl", "jq"];
const missing = PROGRAMS.filter((program) => spawnSync("sh", ["-c", `command -v ${program}`]).status !== 0);
const skip = skipOutsideCi(missing.length > 0 ? `the README's examples use ${missing.join(", ")}, not installed here` : false);

/**
 * The environment a reader's shell has: theirs, without feedgate settings of their own. curl draws a progress meter
 * on stderr when its output is not a terminal, as it is not here; a reader never sees one, so a curlrc turns it off.
 */
function readerEnvironment(dir: string): NodeJS.ProcessEnv {
  writeFileSync(join(dir, ".curlrc"), "no-progress-meter\n");
  const own = Object.entries(process.env).filter(([name]) => !name.startsWith("FEEDGATE_") && name !== "PORT");
  return { ...Object.fromEntries(own), CURL_HOME: dir };
}

/** Starts `npm start` in the clone on a free port; resolves with the line it prints for the reader's shell. */
async function startServer(dir: string, clone: string): Promise<{ server: ChildProcess; exportLine: string; log: () => string }> {
  const server = spawn("npm", ["start"], {
    cwd: clone, env: { ...readerEnvironment(dir), PORT: "0" }, detached: true, stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  server.stdout!.on("data", (chunk: Buffer) => { output += chunk.toString(); });
  server.stderr!.on("data", (chunk: Buffer) => { output += chunk.toString(); });
  const exportLine = await new Promise<string>((resolvePrinted, reject) => {
    const timer = setTimeout(() => reject(new Error(`npm start printed no credentials in 120 s:\n${output}`)), 120_000);
    const look = () => {
      const line = output.split("\n").map((text) => text.trim()).find((text) => text.startsWith("export FEEDGATE_URL="));
      if (line) {
        clearTimeout(timer);
        resolvePrinted(line);
      }
    };
    server.stdout!.on("data", look);
    server.stderr!.on("data", look);
    server.once("exit", (code) => reject(new Error(`npm start exited (${code}):\n${output}`)));
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
    lines.push("{", command.text, `} >"${outputs}/${index}.out" 2>&1 </dev/null`,
      `status=$?; echo $status >"${outputs}/${index}.status"; [ $status = 0 ] || exit 0`);
  });
  return `${lines.join("\n")}\n`;
}

/** A here-document that writes a file block's text, as a reader saving it would. */
function saveFile(name: string, body: string[]): string {
  return `cat >${name} <<'README_FILE_END'\n${body.join("\n")}\nREADME_FILE_END`;
}

interface Step { command: Command; block: Block; text: string; expected: string[] | null }

describe("the README, run as written", { skip }, () => {
  const readme = readFileSync(join(REPOSITORY, "README.md"), "utf8");
  const blocks = readmeBlocks(readme);
  let dir: string;
  let clone: string;
  let server: ChildProcess | undefined;
  let serverLog = () => "";
  const steps: Step[] = [];
  let outputs: string;

  before(async () => {
    ({ dir, clone } = makeClone("feedgate-readme-"));
    outputs = join(dir, "outputs");
    mkdirSync(outputs);
    let url: string | undefined;
    for (const block of blocks) {
      const { marker } = block;
      if (marker.kind === "setup") {
        assert.ok(block.body.some((line) => /^npm ci && npm start\b/.test(line)),
          `README line ${block.line}: the setup block is what the runner does: npm ci && npm start`);
        const started = await startServer(dir, clone);
        server = started.server;
        serverLog = started.log;
        url = printedUrl(started.exportLine);
        steps.push({
          block, text: started.exportLine, expected: null,
          command: { text: started.exportLine, expected: null, line: block.line },
        });
      } else if (marker.kind === "printed") {
        const printed = steps.find((step) => step.block.marker.kind === "setup");
        assert.ok(printed, `README line ${block.line}: printed by what? No setup block above`);
        // The README shows the printed line with its secrets elided: it must still be that line's shape.
        assert.ok(matchesExpected(block.body, printed.text.replace(url!, README_URL)),
          `README line ${block.line} shows\n${block.body.join("\n")}\nbut npm start printed\n${printed.text}`);
      } else if (marker.kind === "file") {
        const command = { text: saveFile(marker.name, block.body), expected: null, line: block.line };
        steps.push({ block, command, text: command.text, expected: null });
      } else if (marker.kind === "run") {
        assert.ok(url, `README line ${block.line}: an example before the server is started`);
        for (const command of block.commands) {
          steps.push({
            block, command,
            text: command.text.replaceAll(README_URL, url),
            expected: command.expected?.map((line) => line.replaceAll(README_URL, url!)) ?? null,
          });
        }
      }
    }
    const file = join(dir, "readme.sh");
    writeFileSync(file, script(steps, outputs));
    const run = spawnSync("bash", [file], { cwd: clone, env: readerEnvironment(dir), timeout: 300_000, encoding: "utf8" });
    assert.equal(run.error, undefined, `the examples did not finish: ${run.error?.message}`);
  });

  after(async () => {
    if (server?.pid && server.exitCode === null) {
      process.kill(-server.pid, "SIGTERM"); // npm and the server it started
      await new Promise((done) => server!.once("exit", done));
    }
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test("the README has examples the runner runs, and says why it skips the others", () => {
    const run = blocks.filter((block) => block.marker.kind === "run" && block.commands.length > 0);
    assert.ok(run.length >= 5, `only ${run.length} examples run`);
    assert.ok(blocks.some((block) => block.marker.kind === "setup"), "no Quick start block marked setup");
  });

  test("every example, in order: status 0 and the output the README shows", () => {
    assert.ok(steps.length > 10, `only ${steps.length} commands`);
    for (const [index, step] of steps.entries()) {
      const where = `README line ${step.command.line}: ${step.text.split("\n")[0]}`;
      const statusFile = join(outputs, `${index}.status`);
      assert.ok(existsSync(statusFile), `${where}\ndid not finish\n${serverLog().slice(-2000)}`);
      const output = readFileSync(join(outputs, `${index}.out`), "utf8")
        .split("\n").filter((line) => !NPM_NOTICE.test(line)).join("\n");
      const status = Number(readFileSync(statusFile, "utf8"));
      assert.equal(status, 0, `${where}\nexited with ${status}:\n${output}`);
      if (step.expected) {
        assert.ok(matchesExpected(step.expected, output),
          `${where}\nthe README shows:\n${step.expected.join("\n")}\nbut it printed:\n${output}`);
      }
    }
  });
});
