/**
 * The files that differ between two trees with their diffs, as a commit's `files` and a pull request's `/files`
 * list them: a path's status and blob, and its unified diff with the lines it added and removed.
 */
import { diffTrees } from "../../git/tree-diff.js";
import { fileDiff, type FileDiff } from "../../git/file-diff.js";
import type { NetworkObjects } from "./network-objects.js";
import type { GitMode } from "../../git/objects.js";
import { type DiffFile, gitlinkText } from "../../git/unified-diff.js";

export interface ChangedFile extends FileDiff {
  path: string;
  status: "added" | "removed" | "modified";
  sha: string | null;
}

/** The changed files from tree `from` (null: none) to tree `to`, those of `window` only, and how many there are. */
export async function changedFiles(
  objects: NetworkObjects,
  from: string | null,
  to: string,
  window: { offset: number; limit: number } = { offset: 0, limit: Number.POSITIVE_INFINITY },
): Promise<{ files: ChangedFile[]; total: number }> {
  const changes = await diffTrees(objects.trees, from, to);
  const body = async (blob: string | undefined) => (blob ? ((await objects.ofType(blob, "blob"))?.body ?? null) : null);
  const files: ChangedFile[] = [];
  for (const change of changes.slice(window.offset, window.offset + window.limit)) {
    const diff = fileDiff(await body(change.fromSha), await body(change.toSha));
    files.push({ path: change.path, status: change.status, sha: change.toSha ?? change.fromSha ?? null, ...diff });
  }
  return { files, total: changes.length };
}

/**
 * The files that differ from tree `from` (null: none) to tree `to` with both sides' bodies, as a unified diff writes
 * them (git/unified-diff.ts): a submodule's body the line git diffs of it.
 */
export async function diffFiles(objects: NetworkObjects, from: string | null, to: string): Promise<DiffFile[]> {
  const changes = await diffTrees(objects.trees, from, to);
  const body = async (mode: GitMode | undefined, sha: string | undefined) => {
    if (!mode || !sha) return null;
    if (mode === "160000") return gitlinkText(sha);
    return (await objects.ofType(sha, "blob"))?.body ?? null;
  };
  const files: DiffFile[] = [];
  for (const change of changes) {
    const { status: _, ...sides } = change;
    files.push({
      ...sides,
      before: await body(change.fromMode, change.fromSha),
      after: await body(change.toMode, change.toSha),
    });
  }
  return files;
}
