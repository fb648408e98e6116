/**
 * Runs the `feedgate` command for the CLI tests: from source in this process (`runCli`) where a test is about what a
 * command does, as a real process (`feedgate`, `runFeedgate`) where it is about the process itself: serving,
 * signals, how it ends. A process costs about a second of start-up; a run in this process, milliseconds.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { Readable, Writable } from "node:stream";
import { runCli as runProgram } from "../../src/cli/program.js";
import { builtTwin } from "../../src/server/built-tree.js";
import { COMPILED, moduleOfThisTree, NODE_LOADER } from "./repository.js";
import { TEST_PASSWORD_COST } from "./test-app.js";
import { eventually } from "./wait.js";

export interface CliOptions {
  /** FEEDGATE_* settings for the command; this process's own never reach it. */
  env?: Record<string, string>;
  /** Written to its standard input, which then ends. */
  input?: string | Buffer;
}

/** What a command wrote, as text. */
function capture(): { stream: Writable; readonly text: string } {
  let text = "";
  const stream = new Writable({
    decodeStrings: false,
    write(chunk: string | Buffer, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  return {
    stream,
    get text() {
      return text;
    },
  };
}

/**
 * Runs `feedgate <args>` to its end in this process, through the same program as the real command, with `input` as
 * its standard input and an environment of `env` and the tests' cheap password cost only.
 */
export async function runCli(
  args: string[],
  options: CliOptions = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout = capture();
  const stderr = capture();
  const stdin = Readable.from(options.input === undefined ? [] : [Buffer.from(options.input)], { objectMode: false });
  const code = await runProgram(args, {
    stdin,
    stdout: stdout.stream,
    stderr: stderr.stream,
    env: { FEEDGATE_PASSWORD_COST: String(TEST_PASSWORD_COST), ...options.env },
  });
  return { code, stdout: stdout.text, stderr: stderr.text };
}

export interface CliRun {
  child: ChildProcess;
  readonly stdout: string;
  readonly stderr: string;
  /** `code` is null and `signal` set when the process was killed by a signal. */
  done: Promise<{ code: number; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
}

let command: string[] | undefined;

/**
 * What a spawned `feedgate` runs: in the compiled tree (npm test), its own build/src/cli/main.js. From the sources,
 * the built command (dist/cli/main.js, what an installed `feedgate` runs) when it was built after the last change to
 * the sources, as `npm ci` and `npm run build` leave it; else the sources through tsx (src/server/built-tree.ts).
 * Looked at once, at the first spawn: most files that import this only run commands in their own process.
 */
function feedgateCommand(): string[] {
  if (command) return command;
  const main = moduleOfThisTree("src/cli/main.ts");
  const built = COMPILED ? main : builtTwin(main);
  command = built ? [fileURLToPath(built)] : [...NODE_LOADER, fileURLToPath(main)];
  return command;
}

/**
 * Starts `feedgate <args>` with the parent's environment minus every FEEDGATE_* variable (so a developer's own
 * settings cannot leak in), plus the tests' cheap password cost and `env`; `input` is written to its stdin.
 */
export function feedgate(args: string[], options: CliOptions = {}): CliRun {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith("FEEDGATE_")));
  const child = spawn(process.execPath, [...feedgateCommand(), ...args], {
    env: { ...clean, LOG_LEVEL: "info", FEEDGATE_PASSWORD_COST: String(TEST_PASSWORD_COST), ...options.env },
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  child.stderr.on("data", (chunk) => (stderr += chunk));
  child.stdin.end(options.input);
  return {
    child,
    get stdout() {
      return stdout;
    },
    get stderr() {
      return stderr;
    },
    done: once(child, "exit").then(([code, signal]) => ({
      code: code as number,
      signal: signal as NodeJS.Signals | null,
      stdout,
      stderr,
    })),
  };
}

/** Runs `feedgate <args>` to its end. */
export const runFeedgate = (args: string[], options: CliOptions = {}) => feedgate(args, options).done;

/** Resolves with the first match of `pattern` in the process's stdout (or `from` stderr). */
export async function waitForOutput(
  run: CliRun,
  pattern: RegExp,
  ms = 20_000,
  from: "stdout" | "stderr" = "stdout",
): Promise<RegExpExecArray> {
  const match = await eventually(
    () => pattern.exec(run[from]),
    (found) => found !== null,
    { ms, every: 50 },
  );
  if (match) return match;
  throw new Error(`timed out waiting for ${pattern} in ${from}:\n${run[from]}`);
}
