/**
 * The files that differ between two trees with their diffs, as a commit's `files` and a pull request's `/files`
 * list them: a path's status and blob, and its unified diff with the lines it added and removed.
 */
import { diffTrees } from "../../git/tree-diff.js";
import { fileDiff, type FileDiff } from "../../git/file-diff.js";
import type { NetworkObjects } from "./network-objects.js";

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
