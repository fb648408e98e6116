/**
 * Walks of a repository's history by parents, as pull requests and compare read it: the commits one side has that
 * the other lacks, and where two sides last met (`git merge-base`). Each walk is bounded, so a long history costs
 * at most MAX_HISTORY commits read.
 */
import type { CommitFields } from "../../git/objects.js";
import type { NetworkObjects } from "./network-objects.js";

/** The most commits one walk reads. */
export const MAX_HISTORY = 20_000;

export interface HistoryCommit {
  sha: string;
  fields: CommitFields;
}

/** Every commit reachable from `starts` (themselves included), up to `limit`. */
export async function ancestorsOf(
  objects: NetworkObjects,
  starts: readonly string[],
  limit = MAX_HISTORY,
): Promise<Set<string>> {
  const seen = new Set<string>();
  const queue = [...starts];
  while (queue.length > 0 && seen.size < limit) {
    const sha = queue.shift()!;
    if (seen.has(sha)) continue;
    seen.add(sha);
    const commit = await objects.commit(sha);
    if (commit) queue.push(...commit.parents);
  }
  return seen;
}

/**
 * The commits reachable from `head` that are not in `known`, breadth-first from `head` (newest first for a line of
 * history), up to `limit`.
 */
export async function commitsNotIn(
  objects: NetworkObjects,
  head: string,
  known: ReadonlySet<string>,
  limit = MAX_HISTORY,
): Promise<HistoryCommit[]> {
  const found: HistoryCommit[] = [];
  const seen = new Set<string>();
  const walk = [head];
  while (walk.length > 0 && found.length < limit) {
    const sha = walk.shift()!;
    if (seen.has(sha) || known.has(sha)) continue;
    seen.add(sha);
    const fields = await objects.commit(sha);
    if (!fields) continue;
    found.push({ sha, fields });
    walk.push(...fields.parents);
  }
  return found;
}

/**
 * Where `base` and `head` last met: the first commit from `head`, breadth-first, that `base` reaches; null when they
 * share no history (or share it only past the walk's bound).
 */
export async function mergeBaseOf(objects: NetworkObjects, base: string, head: string): Promise<string | null> {
  const fromBase = await ancestorsOf(objects, [base]);
  const seen = new Set<string>();
  const walk = [head];
  while (walk.length > 0 && seen.size < MAX_HISTORY) {
    const sha = walk.shift()!;
    if (seen.has(sha)) continue;
    if (fromBase.has(sha)) return sha;
    seen.add(sha);
    const commit = await objects.commit(sha);
    if (commit) walk.push(...commit.parents);
  }
  return null;
}
