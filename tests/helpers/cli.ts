/** Runs the `feedgate` command from source as a real process, for the CLI tests. */
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";

export interface CliRun {
  child: ChildProcess;
  readonly stdout: string;
  readonly stderr: string;
  /** `code` is null and `signal` set when the process was killed by a signal. */
  done: Promise<{ code: number; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
}

/**
 * Starts `feedgate <args>` with the parent's environment minus every FEEDGATE_* variable (so a developer's own
 * settings cannot leak in), plus `env`; `input` is written to its stdin.
 */
export function feedgate(args: string[], options: { env?: Record<string, string>; input?: string | Buffer } = {}): CliRun {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith("FEEDGATE_")));
  const child = spawn(process.execPath, ["--import", "tsx", "src/cli/main.ts", ...args], {
    env: { ...clean, LOG_LEVEL: "info", ...options.env },
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  child.stderr.on("data", (chunk) => (stderr += chunk));
  child.stdin.end(options.input);
  return {
    child,
    get stdout() { return stdout; },
    get stderr() { return stderr; },
    done: once(child, "exit").then(([code, signal]) => ({ code: code as number, signal: signal as NodeJS.Signals | null, stdout, stderr })),
  };
}

/** Runs `feedgate <args>` to its end. */
export const runFeedgate = (args: string[], options: { env?: Record<string, string>; input?: string | Buffer } = {}) =>
  feedgate(args, options).done;

/** Resolves with the first match of `pattern` in the process's stdout. */
export async function waitForOutput(run: { stdout: string }, pattern: RegExp, ms = 20_000): Promise<RegExpExecArray> {
  for (const started = Date.now(); Date.now() - started < ms;) {
    const match = pattern.exec(run.stdout);
    if (match) return match;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${pattern} in:\n${run.stdout}`);
}
