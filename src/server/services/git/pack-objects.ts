/**
 * Which objects a fetch sends, as git's upload-pack chooses them (its rev-list `--objects wants --not haves`): what the
 * wants reach (tags, commits, their trees and blobs), less what the client has. A client's `have` says it holds that
 * commit and its whole history, so their ancestors are left out; of their trees, those of the commits the sent
 * history stands on (git's "edge" commits) are walked, so that a file the new commits did not change is not sent
 * again. A blob left unchanged since an older commit may still be sent: a pack may hold more than the client lacks,
 * never less. Commits, trees and tags are read (and kept) to walk them; blobs only when the pack is written.
 */
import { decodeCommit, decodeTag, decodeTree, type GitObjectType } from "../../git/objects.js";
import type { NetworkObjects } from "./network-objects.js";

export interface PlannedObject {
  sha: string;
  type: GitObjectType;
  /** Kept from the walk for what was read there (commits, trees, tags); a blob's is read when it is written. */
  body?: Buffer;
}

/** A want that names no object of the network: git's "not our ref". */
export class UnknownWant extends Error {
  override name = "UnknownWant";

  constructor(readonly sha: string) {
    super(`not our ref ${sha}`);
  }
}

/** Every ancestor of the commits `haves` name (tags peeled), themselves included; haves naming nothing are skipped. */
async function historyOf(objects: NetworkObjects, haves: readonly string[]): Promise<Set<string>> {
  const seen = new Set<string>();
  const queue = [...haves];
  while (queue.length > 0) {
    const sha = queue.pop()!;
    if (seen.has(sha)) continue;
    const object = await objects.ofType(sha);
    if (object?.type === "tag") queue.push(decodeTag(object.body).object);
    if (object?.type !== "commit") continue;
    seen.add(sha);
    queue.push(...decodeCommit(object.body).parents);
  }
  return seen;
}

/** Every tree and blob beneath the trees `roots`, into `into`. */
async function treeObjects(objects: NetworkObjects, roots: Iterable<string>, into: Set<string>): Promise<void> {
  const queue = [...roots];
  while (queue.length > 0) {
    const sha = queue.pop()!;
    if (into.has(sha)) continue;
    into.add(sha);
    const tree = await objects.ofType(sha, "tree");
    if (!tree) continue;
    for (const entry of decodeTree(tree.body)) {
      if (entry.mode === "040000") queue.push(entry.sha);
      else if (entry.mode !== "160000") into.add(entry.sha);
    }
  }
}

/** The objects `wants` reach that `haves` do not, in the order found (any order makes a valid pack of whole objects). */
export async function objectsToSend(
  objects: NetworkObjects,
  wants: readonly string[],
  haves: readonly string[],
): Promise<PlannedObject[]> {
  const had = await historyOf(objects, haves);
  const planned = new Map<string, PlannedObject>();
  const trees: string[] = [];
  const edges = new Set<string>();
  const queue = [...wants];
  while (queue.length > 0) {
    const sha = queue.pop()!;
    if (planned.has(sha) || had.has(sha)) continue;
    const object = await objects.ofType(sha);
    if (!object) throw new UnknownWant(sha);
    if (object.type === "blob") {
      planned.set(sha, { sha, type: "blob" });
      continue;
    }
    // A tree is planned with what it holds, once the edges say what the client has of it.
    if (object.type === "tree") {
      trees.push(sha);
      continue;
    }
    planned.set(sha, { sha, type: object.type, body: object.body });
    if (object.type === "tag") queue.push(decodeTag(object.body).object);
    if (object.type !== "commit") continue;
    const commit = decodeCommit(object.body);
    trees.push(commit.tree);
    for (const parent of commit.parents) {
      if (had.has(parent)) edges.add(parent);
      else queue.push(parent);
    }
  }
  // What the edge commits' trees hold, the client has.
  const held = new Set<string>();
  const edgeTrees: string[] = [];
  for (const edge of edges) {
    const commit = await objects.commit(edge);
    if (commit) edgeTrees.push(commit.tree);
  }
  await treeObjects(objects, edgeTrees, held);
  await sendTrees(objects, trees, held, planned);
  return [...planned.values()];
}

/** The trees `roots` and what they hold, less what is `held` or planned already, into `planned`. */
async function sendTrees(
  objects: NetworkObjects,
  roots: readonly string[],
  held: ReadonlySet<string>,
  planned: Map<string, PlannedObject>,
): Promise<void> {
  const queue = [...roots];
  while (queue.length > 0) {
    const sha = queue.pop()!;
    if (held.has(sha) || planned.has(sha)) continue;
    const tree = await objects.ofType(sha, "tree");
    if (!tree) continue;
    planned.set(sha, { sha, type: "tree", body: tree.body });
    for (const entry of decodeTree(tree.body)) {
      if (entry.mode === "040000") queue.push(entry.sha);
      else if (entry.mode !== "160000" && !held.has(entry.sha) && !planned.has(entry.sha))
        planned.set(entry.sha, { sha: entry.sha, type: "blob" });
    }
  }
}
