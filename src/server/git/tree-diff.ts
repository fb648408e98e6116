/**
 * What changed between two trees, path by path: a push webhook's `commits[].added/removed/modified` and a commit's
 * `files` are made from it. Like git's tree-diff.c, it reads only the subtrees whose shas differ, so a change deep in
 * a large repository costs the trees on its path, not the repository.
 */
import { entryType, GitObjectError, type GitMode, type TreeEntry } from "./objects.js";
import type { TreeReader } from "./tree-edit.js";

export interface PathDiff {
  path: string;
  /** A path that is a file (or symlink, or submodule) on both sides with other content or mode is `modified`. */
  status: "added" | "removed" | "modified";
  fromSha?: string;
  toSha?: string;
  fromMode?: GitMode;
  toMode?: GitMode;
}

/** Full paths in git's order for files: their UTF-8 bytes (a diff lists no directories, so none needs its "/"). */
const byPath = (a: PathDiff, b: PathDiff): number => Buffer.compare(Buffer.from(a.path), Buffer.from(b.path));

/**
 * The files that differ between tree `fromSha` and tree `toSha`, sorted by path; null on either side is the empty
 * tree (a root commit, a deleted branch). A file that became a directory, or a directory a file, is the file removed
 * (or added) and each file of the directory added (or removed), as git's `diff-tree -r` lists it.
 */
export async function diffTrees(read: TreeReader, fromSha: string | null, toSha: string | null): Promise<PathDiff[]> {
  const diffs: PathDiff[] = [];

  async function entries(sha: string | null): Promise<Map<string, TreeEntry>> {
    if (sha === null) return new Map();
    const tree = await read(sha);
    if (!tree) throw new GitObjectError(`tree ${sha} is not in the store`, sha);
    return new Map(tree.map((entry) => [entry.name, entry]));
  }

  /** Every file beneath `entry` (or `entry` itself, for a file) as added or removed. */
  async function whole(entry: TreeEntry, path: string, status: "added" | "removed"): Promise<void> {
    if (entryType(entry.mode) !== "tree") {
      diffs.push(
        status === "added"
          ? { path, status, toSha: entry.sha, toMode: entry.mode }
          : { path, status, fromSha: entry.sha, fromMode: entry.mode },
      );
      return;
    }
    for (const child of (await entries(entry.sha)).values()) await whole(child, `${path}/${child.name}`, status);
  }

  async function compare(from: string | null, to: string | null, prefix: string): Promise<void> {
    const [before, after] = await Promise.all([entries(from), entries(to)]);
    for (const name of new Set([...before.keys(), ...after.keys()])) {
      const a = before.get(name);
      const b = after.get(name);
      const path = prefix + name;
      if (a && b && a.sha === b.sha && a.mode === b.mode) continue;
      const aTree = a !== undefined && entryType(a.mode) === "tree";
      const bTree = b !== undefined && entryType(b.mode) === "tree";
      if (a && b && aTree && bTree) await compare(a.sha, b.sha, `${path}/`);
      else if (a && b && !aTree && !bTree)
        diffs.push({ path, status: "modified", fromSha: a.sha, toSha: b.sha, fromMode: a.mode, toMode: b.mode });
      else {
        if (a) await whole(a, path, "removed");
        if (b) await whole(b, path, "added");
      }
    }
  }

  if (fromSha !== toSha) await compare(fromSha, toSha, "");
  return diffs.sort(byPath);
}
