/**
 * A three-way merge on paths, as feedgate computes mergeability (docs/code.md says so): the changes each side made
 * since their merge base, path by path. A path both sides changed, to different content, conflicts; so does a path
 * one side changed inside a directory the other made a file of, or the other way round. Git merges inside a file
 * (two edits to different lines of one file merge cleanly there); feedgate does not, so a pull request git would merge
 * may be one feedgate calls conflicting, never the other way round.
 */
import { entryType } from "./objects.js";
import type { PathDiff } from "./tree-diff.js";
import type { PathChange } from "./tree-edit.js";

export interface PathMerge {
  /** What to apply to the base side's tree to get the merged tree: `theirs` changes that `ours` lacks. */
  changes: PathChange[];
  /** The paths both sides changed differently, sorted. */
  conflicts: string[];
}

const sameResult = (a: PathDiff, b: PathDiff): boolean => a.toSha === b.toSha && a.toMode === b.toMode;

/** The directories above a path: `a/b/c` has `a` and `a/b`. */
function directoriesOf(path: string): string[] {
  const parts = path.split("/");
  return parts.slice(1).map((_, i) => parts.slice(0, i + 1).join("/"));
}

/**
 * Merges `theirs` (the changes of the side being merged in, from the merge base) into `ours` (the other side's, from
 * the same base): the paths of `theirs` that `ours` did not already make the same, and the paths that conflict.
 */
export function mergePaths(ours: readonly PathDiff[], theirs: readonly PathDiff[]): PathMerge {
  const oursByPath = new Map(ours.map((change) => [change.path, change]));
  const oursDirectories = new Set(ours.flatMap((change) => directoriesOf(change.path)));
  const conflicts = new Set<string>();
  const changes: PathChange[] = [];
  for (const change of theirs) {
    const other = oursByPath.get(change.path);
    if (other) {
      if (!sameResult(change, other)) conflicts.add(change.path);
      continue;
    }
    // A file where the other side changed something beneath it (or beneath where the other side put a file).
    const clash =
      oursDirectories.has(change.path) || directoriesOf(change.path).some((directory) => oursByPath.has(directory));
    if (clash) {
      conflicts.add(change.path);
      continue;
    }
    changes.push(
      change.toSha === undefined
        ? { path: change.path, mode: change.fromMode!, type: entryType(change.fromMode!), sha: null }
        : { path: change.path, mode: change.toMode!, type: entryType(change.toMode!), sha: change.toSha },
    );
  }
  return { changes, conflicts: [...conflicts].sort() };
}
