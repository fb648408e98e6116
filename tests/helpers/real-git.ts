/**
 * Git itself as the judge of the object model: a scratch bare repository in a temporary folder, with the user's and
 * the system's git configuration shut out so that no setting of the machine changes what git writes. Where git is
 * not installed its tests report themselves skipped with the reason (under CI they fail: skipOutsideCi).
 */
import { spawnSync } from "node:child_process";
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
    const result = spawnSync(GIT, args, {
      cwd: this.dir,
      env: {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        HOME: this.dir,
        GIT_CONFIG_NOSYSTEM: "1",
        GIT_CONFIG_GLOBAL: "/dev/null",
        LC_ALL: "C",
      },
    });
    if (result.error) throw result.error;
    if (result.status !== 0 && result.status !== 1)
      throw new Error(`git ${args.join(" ")} failed: ${result.stderr.toString()}`);
    return result.stdout;
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
    const input = trees
      .map((entries) => entries.map((e) => `${e.mode} ${entryType(e.mode)} ${e.sha}\t${e.name}\0`).join(""))
      .join("\0");
    return this.text(["mktree", "-z", "--missing", "--batch"], input).split("\n");
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
