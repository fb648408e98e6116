/**
 * Trees changed by path, as GitHub's create-a-tree with `base_tree` and the contents API change them, without a
 * git server: every tree on a changed path is written again bottom-up, and every other subtree is kept by its sha.
 * Also the listing of a tree by path that `GET /git/trees/:sha?recursive=1` answers.
 */
import {
  EMPTY_TREE_SHA,
  encodeTree,
  entryType,
  type GitMode,
  GitInputError,
  GitObjectError,
  hashObject,
  isGitMode,
  isSha,
  pathSegments,
  sortTreeEntries,
  type TreeEntry,
  type TreeEntryType,
} from "./objects.js";

/** A stored tree's entries; null when the store holds no tree of that sha. */
export type TreeReader = (sha: string) => Promise<TreeEntry[] | null>;

/**
 * One entry of create-a-tree's `tree` input. `sha: null` deletes the path; `mode` and `type` are then not looked at,
 * as a deletion names what is there by its path alone.
 */
export interface PathChange {
  path: string;
  mode: GitMode;
  type: TreeEntryType;
  sha: string | null;
}

export interface WrittenTree {
  type: "tree";
  body: Buffer;
  sha: string;
}

export interface TreeEdit {
  root: string;
  /** The new trees, each once, children before their parents; a tree that came out as the one it replaces is not. */
  written: WrittenTree[];
}

/** The changes below one directory, by name: the change at that name, if any, and those beneath it. */
interface ChangeNode {
  change: PathChange | null;
  children: Map<string, ChangeNode>;
}

function changeTree(changes: readonly PathChange[]): ChangeNode {
  const root: ChangeNode = { change: null, children: new Map() };
  for (const change of changes) {
    const segments = pathSegments(change.path);
    if (!segments) throw new GitInputError("invalid-path", "is not a path git can store", change.path);
    if (change.sha !== null) {
      if (!isSha(change.sha)) throw new GitInputError("invalid-sha", "sha is not 40 hexadecimal digits", change.path);
      if (!isGitMode(change.mode))
        throw new GitInputError("invalid-mode", `has no git mode ${change.mode}`, change.path);
      if (entryType(change.mode) !== change.type)
        throw new GitInputError("invalid-mode", `mode ${change.mode} is not a ${change.type}'s`, change.path);
    }
    let node = root;
    for (const segment of segments) {
      let child = node.children.get(segment);
      if (!child) node.children.set(segment, (child = { change: null, children: new Map() }));
      node = child;
    }
    if (node.change) throw new GitInputError("duplicate-path", "is changed twice", change.path);
    node.change = change;
  }
  return root;
}

/**
 * The base tree and each change's path, changed, as new tree objects. A change at a directory applies before the
 * changes beneath it, which is how GitHub documents "a tree and a nested path modifying that tree": the nested
 * paths change the tree given. So a file may be deleted and a directory of its name made in one edit.
 *
 * Refused, with the path, as GitInputError: a path through a file (`a/b` where `a` is a file); a deletion of a path
 * that is not there, as GitHub documents ("Returns an error if you try to delete a file that does not exist",
 * https://docs.github.com/rest/git/trees#create-a-tree; it answers 422 `GitRPC::BadObjectState`); a deletion of a
 * directory, which GitHub answers the same 422 (google/go-github#2418, and stackoverflow.com/q/23637961: "the reason
 * of that error was marking folders with sha: null"); a base tree, or a tree changes go beneath, that the store
 * does not hold. A directory that deletions leave empty goes, as git keeps no empty tree inside a tree; the root
 * may be the empty tree. A tree entry changed with no path beneath it is kept by its sha, unread: whether the store
 * holds that object is the caller's check, as it is for blobs.
 */
export async function editTree(
  read: TreeReader,
  baseTreeSha: string | null,
  changes: readonly PathChange[],
): Promise<TreeEdit> {
  const written = new Map<string, WrittenTree>();

  /** The entries of the tree at directory `dir` ("" for the root); `given` when the caller named it, not a tree. */
  async function entriesOf(sha: string | null, given: boolean, dir: string): Promise<TreeEntry[]> {
    if (sha === null) return [];
    const entries = await read(sha);
    if (entries) return entries;
    if (given && dir === "")
      throw new GitInputError("missing-tree", `base_tree ${sha} is not a tree of this repository`);
    if (given) throw new GitInputError("missing-tree", `names tree ${sha}, which this repository does not hold`, dir);
    throw new GitObjectError(`tree ${dir || "/"} names tree ${sha}, which the store does not hold`, sha);
  }

  /** The tree at directory `dir` written with `node`'s changes; null when nothing is left in it. */
  async function rewrite(base: string | null, given: boolean, node: ChangeNode, dir: string): Promise<string | null> {
    const entries = new Map((await entriesOf(base, given, dir)).map((e) => [e.name, e]));
    for (const [name, child] of [...node.children].sort(([a], [b]) => Buffer.compare(Buffer.from(a), Buffer.from(b)))) {
      const path = dir === "" ? name : `${dir}/${name}`;
      let current = entries.get(name);
      let currentGiven = false;
      const change = child.change;
      if (change?.sha === null) {
        if (!current) throw new GitInputError("missing-path", "cannot be deleted: there is no such path", path);
        if (entryType(current.mode) === "tree")
          throw new GitInputError("delete-directory", "is a directory: delete the files in it", path);
        entries.delete(name);
        current = undefined;
      } else if (change) {
        current = { mode: change.mode, name, sha: change.sha };
        currentGiven = true;
        entries.set(name, current);
      }
      if (child.children.size === 0) continue;
      if (current && entryType(current.mode) !== "tree")
        throw new GitInputError("path-through-file", "is not a directory: paths are changed beneath it", path);
      const sha = await rewrite(current?.sha ?? null, currentGiven, child, path);
      if (sha === null) entries.delete(name);
      else entries.set(name, { mode: "040000", name, sha });
    }
    if (entries.size === 0 && dir !== "") return null;
    const body = encodeTree([...entries.values()]);
    const sha = hashObject("tree", body);
    if (sha !== base && !written.has(sha)) written.set(sha, { type: "tree", body, sha });
    return sha;
  }

  const root = (await rewrite(baseTreeSha, true, changeTree(changes), "")) ?? EMPTY_TREE_SHA;
  return { root, written: [...written.values()] };
}

/** An entry of a listing: its path from the listed tree's root. */
export interface FlatEntry {
  path: string;
  mode: GitMode;
  type: TreeEntryType;
  sha: string;
}

export interface FlattenOptions {
  /** Every tree beneath too (`?recursive=1`), directories listed before what they hold. */
  recursive: boolean;
  /** GitHub lists at most 100,000 entries or 7 MB (https://docs.github.com/rest/git/trees#get-a-tree). */
  maxEntries?: number;
  maxBytes?: number;
  /** An entry's share of maxBytes; the route passes its wire entry's size. By default, the entry's JSON. */
  sizeOf?: (entry: FlatEntry) => number;
}

export interface FlatTree {
  entries: FlatEntry[];
  /** GitHub's `truncated`: more entries were there than the limits let through, and `entries` stop at the limit. */
  truncated: boolean;
}

export const MAX_TREE_ENTRIES = 100_000;
export const MAX_TREE_BYTES = 7 * 1024 * 1024;

const jsonSize = (entry: FlatEntry): number => Buffer.byteLength(JSON.stringify(entry));

/**
 * The tree `rootSha` by path, in git's order (`git ls-tree -r -t`: each tree's entries sorted as git sorts them,
 * a directory followed by its contents); null when the store holds no such tree. A truncated listing stops reading
 * trees at the limit.
 */
export async function flattenTree(
  read: TreeReader,
  rootSha: string,
  options: FlattenOptions,
): Promise<FlatTree | null> {
  const maxEntries = options.maxEntries ?? MAX_TREE_ENTRIES;
  const maxBytes = options.maxBytes ?? MAX_TREE_BYTES;
  const sizeOf = options.sizeOf ?? jsonSize;
  const root = await read(rootSha);
  if (!root) return null;
  const entries: FlatEntry[] = [];
  let bytes = 0;

  /** false once the limit is reached. */
  async function list(tree: TreeEntry[], prefix: string): Promise<boolean> {
    for (const entry of sortTreeEntries(tree)) {
      const flat: FlatEntry = {
        path: prefix + entry.name,
        mode: entry.mode,
        type: entryType(entry.mode),
        sha: entry.sha,
      };
      bytes += sizeOf(flat);
      if (entries.length === maxEntries || bytes > maxBytes) return false;
      entries.push(flat);
      if (!options.recursive || flat.type !== "tree") continue;
      const subtree = await read(entry.sha);
      if (!subtree)
        throw new GitObjectError(`tree ${flat.path} names tree ${entry.sha}, which the store does not hold`);
      if (!(await list(subtree, `${flat.path}/`))) return false;
    }
    return true;
  }

  const complete = await list(root, "");
  return { entries, truncated: !complete };
}
