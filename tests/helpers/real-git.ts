/**
 * Git itself as the judge of the object model: a scratch bare repository in a temporary folder, with the user's and
 * the system's git configuration shut out so that no setting of the machine changes what git writes. Where git is
 * not installed its tests report themselves skipped with the reason (under CI they fail: skipOutsideCi).
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { skipOutsideCi } from "./services.js";
import { entryType, isGitMode, type TreeEntry } from "../../src/server/git/objects.js";

const GIT = "git";

/** false when git runs, else why the tests that need it are skipped. */
export const gitSkip: string | false = skipOutsideCi(
  spawnSync(GIT, ["--version"]).status === 0 ? false : "git is not installed (apt-get install -y git)",
);

/** `git mktree -z --batch`'s input: each tree's entries as `mode type sha<TAB>name`, NUL-ended, trees NUL-apart. */
const mktreeInput = (trees: readonly (readonly TreeEntry[])[]) =>
  trees
    .map((entries) => entries.map((e) => `${e.mode} ${entryType(e.mode)} ${e.sha}\t${e.name}\0`).join(""))
    .join("\0");

export class ScratchRepository {
  private constructor(readonly dir: string) {}

  /** Made on first use, so that a file whose git tests are skipped never runs git. */
  static create(): ScratchRepository {
    const repository = new ScratchRepository(mkdtempSync(join(tmpdir(), "feedgate-git-")));
    repository.run(["init", "-q", "--bare", "."]);
    return repository;
  }

  /** No setting of the machine's: git's defaults only. */
  private environment(): Record<string, string> {
    return {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: this.dir,
      GIT_CONFIG_NOSYSTEM: "1",
      GIT_CONFIG_GLOBAL: "/dev/null",
      LC_ALL: "C",
    };
  }

  /** git's standard output for `args` (`input` on its standard input); a failure throws with git's message. */
  run(args: string[], input: string | Uint8Array = "", env: Record<string, string> = {}): Buffer {
    const result = spawnSync(GIT, args, {
      cwd: this.dir,
      input,
      maxBuffer: 256 * 1024 * 1024,
      env: { ...this.environment(), ...env },
    });
    if (result.error) throw result.error;
    if (result.status !== 0) throw new Error(`git ${args.join(" ")} failed: ${result.stderr.toString()}`);
    return result.stdout;
  }

  /** git's standard output for `args` when it exits 0 or 1 (`git diff --no-index` answers 1 for files that differ). */
  runAllowing(args: string[]): Buffer {
    const result = spawnSync(GIT, args, { cwd: this.dir, env: this.environment() });
    if (result.error) throw result.error;
    if (result.status !== 0 && result.status !== 1)
      throw new Error(`git ${args.join(" ")} failed: ${result.stderr.toString()}`);
    return result.stdout;
  }

  /**
   * `run` without blocking the event loop: for tests whose process also sends webhooks to a receiver of its own,
   * which a synchronous git on a loaded machine would keep from answering until the delivery timed out.
   */
  runAsync(args: string[], input: string | Uint8Array = "", env: Record<string, string> = {}): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      const child = spawn(GIT, args, { cwd: this.dir, env: { ...this.environment(), ...env } });
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
      child.stderr.on("data", (chunk: Buffer) => err.push(chunk));
      child.on("error", reject);
      // A command that reads no input may exit before its input is written: that pipe's EPIPE is no failure of git's,
      // whose exit code says how it went.
      child.stdin.on("error", (error: NodeJS.ErrnoException) => {
        if (error.code !== "EPIPE") reject(error);
      });
      child.on("close", (code) =>
        code === 0
          ? resolve(Buffer.concat(out))
          : reject(new Error(`git ${args.join(" ")} failed: ${Buffer.concat(err).toString()}`)),
      );
      child.stdin.end(input);
    });
  }

  /** `text`, without blocking the event loop (runAsync). */
  async textAsync(args: string[], input: string | Uint8Array = "", env: Record<string, string> = {}): Promise<string> {
    return (await this.runAsync(args, input, env)).toString("utf8").replace(/\n$/, "");
  }

  /** `write`, without blocking the event loop (runAsync). */
  writeAsync(type: "blob" | "tree" | "commit" | "tag", body: Uint8Array): Promise<string> {
    return this.textAsync(["hash-object", "-w", "--stdin", "-t", type], body);
  }

  /** `hash`, without blocking the event loop (runAsync). */
  hashAsync(type: "blob" | "tree" | "commit" | "tag", body: Uint8Array): Promise<string> {
    return this.textAsync(["hash-object", "--stdin", "-t", type], body);
  }

  /** `mktree`, without blocking the event loop (runAsync). */
  async mktreeAsync(trees: readonly (readonly TreeEntry[])[]): Promise<string[]> {
    return (await this.textAsync(["mktree", "-z", "--missing", "--batch"], mktreeInput(trees))).split("\n");
  }

  /** Standard output as text, without its final newline. */
  text(args: string[], input: string | Uint8Array = "", env: Record<string, string> = {}): string {
    return this.run(args, input, env).toString("utf8").replace(/\n$/, "");
  }

  /** Stores an object's exact bytes (`hash-object -w`, git's own checks on) and answers the sha git gave it. */
  write(type: "blob" | "tree" | "commit" | "tag", body: Uint8Array): string {
    return this.text(["hash-object", "-w", "--stdin", "-t", type], body);
  }

  /** The sha git computes for these bytes, storing nothing. */
  hash(type: "blob" | "tree" | "commit" | "tag", body: Uint8Array): string {
    return this.text(["hash-object", "--stdin", "-t", type], body);
  }

  /**
   * The shas `git mktree` gives these trees, made by git from their entries (`mode type sha<TAB>name`), not from
   * feedgate's bytes. Objects they name need not exist (`--missing`). Each tree must have an entry: in a batch an
   * empty line ends a tree.
   */
  mktree(trees: readonly (readonly TreeEntry[])[]): string[] {
    return this.text(["mktree", "-z", "--missing", "--batch"], mktreeInput(trees)).split("\n");
  }

  /** A stored tree's entries as `git ls-tree` reads them (git prints a directory's mode as 040000). */
  lsTree(sha: string): TreeEntry[] {
    return this.run(["ls-tree", "-z", sha])
      .toString("utf8")
      .split("\0")
      .filter((line) => line !== "")
      .map((line) => {
        const match = /^(\d{6}) (?:blob|tree|commit) ([0-9a-f]{40})\t(.*)$/s.exec(line);
        const mode = match?.[1] ?? "";
        if (!match || !isGitMode(mode)) throw new Error(`git ls-tree wrote ${JSON.stringify(line)}`);
        return { mode, sha: match[2]!, name: match[3]! };
      });
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** One scratch repository for a test file: made when a test first asks, removed by `remove` (the file's `after`). */
export function lazyRepository(): { get(): ScratchRepository; remove(): void } {
  let repository: ScratchRepository | undefined;
  return {
    get: () => (repository ??= ScratchRepository.create()),
    remove: () => repository?.remove(),
  };
}
