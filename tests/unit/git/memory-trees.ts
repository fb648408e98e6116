/** The tree store of the git tests: tree bodies by sha in a Map, read through decodeTree as a store's would be. */
import assert from "node:assert/strict";
import { decodeTree, entryType, type GitMode, hashObject } from "../../../src/server/git/objects.js";
import { editTree, type FlatEntry, type TreeEdit, type TreeReader } from "../../../src/server/git/tree-edit.js";

/** A file, symlink or submodule at a path: what a repository's contents are, directories being implied. */
export interface Leaf {
  mode: GitMode;
  sha: string;
}

export class MemoryTrees {
  readonly bodies = new Map<string, Buffer>();
  /** Every sha read, in order: what an edit or a diff had to look at. */
  readonly reads: string[] = [];

  readonly read: TreeReader = async (sha) => {
    this.reads.push(sha);
    const body = this.bodies.get(sha);
    return body ? decodeTree(body) : null;
  };

  /** Stores an edit's trees, checking each is named by its sha, and answers its root. */
  keep(edit: TreeEdit): string {
    for (const tree of edit.written) {
      assert.equal(hashObject("tree", tree.body), tree.sha);
      this.bodies.set(tree.sha, tree.body);
    }
    return edit.root;
  }

  /** The tree holding exactly `leaves`, made by editing nothing: the one canonical tree of those contents. */
  async build(leaves: ReadonlyMap<string, Leaf>): Promise<string> {
    const changes = [...leaves].map(([path, leaf]) => ({
      path,
      mode: leaf.mode,
      type: entryType(leaf.mode),
      sha: leaf.sha,
    }));
    return this.keep(await editTree(this.read, null, changes));
  }
}

/** A listing's files, symlinks and submodules, by path. */
export const leavesOf = (entries: readonly FlatEntry[]): Map<string, Leaf> =>
  new Map(entries.filter((e) => e.type !== "tree").map((e) => [e.path, { mode: e.mode, sha: e.sha }]));
