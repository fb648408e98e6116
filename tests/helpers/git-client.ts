/**
 * Debian's git, tar and unzip as clients of a feedgate under test: a temporary folder to clone and extract into, and
 * each command run without blocking the event loop (the server answering it runs in this process). The user's and
 * the system's git configuration are shut out and git never prompts, so the machine's settings change nothing.
 * Where a tool is not installed its tests report themselves skipped with the reason (under CI they fail).
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { skipOutsideCi } from "./services.js";

/** false when `tool` runs, else why the tests that need it are skipped. */
export function toolSkip(tool: "git" | "tar" | "unzip", versionFlag = "--version"): false | string {
  const installed = spawnSync(tool, [versionFlag]).status === 0;
  return skipOutsideCi(installed ? false : `${tool} is not installed (apt-get install -y ${tool})`);
}

export interface Ran {
  code: number | null;
  stdout: Buffer;
  stderr: string;
}

export interface RunOptions {
  cwd?: string;
  input?: Uint8Array;
  /** Settings of the command's environment beyond the workspace's own. */
  env?: Record<string, string>;
}

export class Workspace {
  private constructor(readonly dir: string) {}

  static create(): Workspace {
    return new Workspace(mkdtempSync(join(tmpdir(), "feedgate-client-")));
  }

  /** No setting of the machine's, no prompt for a password: a missing credential fails at once. */
  private environment(): Record<string, string> {
    return {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: this.dir,
      GIT_CONFIG_NOSYSTEM: "1",
      GIT_CONFIG_GLOBAL: "/dev/null",
      GIT_TERMINAL_PROMPT: "0",
      LC_ALL: "C",
    };
  }

  path(...parts: string[]): string {
    return join(this.dir, ...parts);
  }

  /** `command` in `cwd` (the workspace by default), whatever its exit code. */
  run(command: string, args: string[], options: RunOptions = {}): Promise<Ran> {
    return new Promise((resolve, reject) => {
      const stdin = options.input === undefined ? "ignore" : "pipe";
      const child = spawn(command, args, {
        cwd: options.cwd ?? this.dir,
        env: { ...this.environment(), ...options.env },
        stdio: [stdin, "pipe", "pipe"],
      });
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      child.stdout!.on("data", (chunk: Buffer) => out.push(chunk));
      child.stderr!.on("data", (chunk: Buffer) => err.push(chunk));
      child.on("error", reject);
      child.on("close", (code) => resolve({ code, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString() }));
      // A command that exits before reading its input closes the pipe: that is its answer, not an error here.
      child.stdin?.on("error", () => {});
      child.stdin?.end(options.input);
    });
  }

  /** `command`'s standard output as text without its last newline; a failure throws with its standard error. */
  async text(command: string, args: string[], options: RunOptions = {}): Promise<string> {
    const ran = await this.run(command, args, options);
    if (ran.code !== 0) throw new Error(`${command} ${args.join(" ")} failed (${ran.code}): ${ran.stderr}`);
    return ran.stdout.toString("utf8").replace(/\n$/, "");
  }

  /** git in `cwd`, a folder of the workspace. */
  git(cwd: string, ...args: string[]): Promise<string> {
    return this.text("git", args, { cwd: this.path(cwd) });
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** A workspace made on first use, so that a file whose tests are all skipped never makes one. */
export function lazyWorkspace(): { get(): Workspace; remove(): void } {
  let workspace: Workspace | null = null;
  return {
    get: () => (workspace ??= Workspace.create()),
    remove: () => workspace?.remove(),
  };
}
