/**
 * Editing trees by path: what create-a-tree with `base_tree` answers, checked against a plain map of paths, and a
 * repository made this way checked by git's own fsck and ls-tree.
 */
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import {
  EMPTY_TREE_SHA,
  encodeCommit,
  encodeTag,
  entryType,
  GitInputError,
  GitObjectError,
  type GitMode,
  hashObject,
} from "../../../src/server/git/objects.js";
import { editTree, flattenTree, type PathChange } from "../../../src/server/git/tree-edit.js";
import { type Leaf, leavesOf, MemoryTrees } from "./memory-trees.js";
import { gitSkip, lazyRepository } from "../../helpers/real-git.js";
import { contents, leaf, path } from "./arbitraries.js";

const repository = lazyRepository();
after(() => repository.remove());

const A = "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391";
const B = "ce013625030ba8dba906f756967f9e9ca394464a";
const C = "7d1b31e74ee336d15cbd21741bc88a537ed063a0";

const file = (path: string, blob: string, mode: GitMode = "100644"): PathChange => ({
  path,
  mode,
  type: entryType(mode),
  sha: blob,
});
const deletion = (path: string): PathChange => ({ path, mode: "100644", type: "blob", sha: null });

const inputKind = (kind: string, path?: string) => (error: unknown) =>
  error instanceof GitInputError && error.kind === kind && (path === undefined || error.path === path);

async function listing(trees: MemoryTrees, root: string): Promise<Record<string, string>> {
  const flat = await flattenTree(trees.read, root, { recursive: true });
  assert.ok(flat);
  return Object.fromEntries(flat.entries.map((entry) => [entry.path, entry.type === "tree" ? "tree" : entry.sha]));
}

describe("editing a tree by path", () => {
  test("makes the directories a path needs and shares every untouched subtree by its sha", async () => {
    const trees = new MemoryTrees();
    const base = await trees.build(
      new Map<string, Leaf>([
        ["docs/guide/intro.md", { mode: "100644", sha: A }],
        ["src/app.ts", { mode: "100644", sha: A }],
      ]),
    );
    const before = await flattenTree(trees.read, base, { recursive: true });
    const edit = await editTree(trees.read, base, [file("src/lib/deep/new.ts", B)]);
    trees.keep(edit);
    assert.deepEqual(await listing(trees, edit.root), {
      docs: "tree",
      "docs/guide": "tree",
      "docs/guide/intro.md": A,
      src: "tree",
      "src/app.ts": A,
      "src/lib": "tree",
      "src/lib/deep": "tree",
      "src/lib/deep/new.ts": B,
    });
    // The root, src, src/lib and src/lib/deep are new; docs is the base's, by sha, never written again.
    assert.equal(edit.written.length, 4);
    const docs = (await flattenTree(trees.read, edit.root, { recursive: false }))?.entries.find(
      (e) => e.path === "docs",
    );
    assert.equal(docs?.sha, before?.entries.find((e) => e.path === "docs")?.sha);
    assert.equal(edit.written.at(-1)?.sha, edit.root, "children are written before their parents");
  });

  test("removes the directories deletions leave empty, up to the empty tree at the root", async () => {
    const trees = new MemoryTrees();
    const base = await trees.build(
      new Map<string, Leaf>([
        ["a/b/c.txt", { mode: "100644", sha: A }],
        ["a/d.txt", { mode: "100644", sha: A }],
      ]),
    );
    const edit = await editTree(trees.read, base, [deletion("a/b/c.txt")]);
    trees.keep(edit);
    assert.deepEqual(await listing(trees, edit.root), { a: "tree", "a/d.txt": A });
    const emptied = await editTree(trees.read, edit.root, [deletion("a/d.txt")]);
    assert.equal(emptied.root, EMPTY_TREE_SHA);
    assert.deepEqual(emptied.written, [{ type: "tree", body: Buffer.alloc(0), sha: EMPTY_TREE_SHA }]);
  });

  test("a tree given at a path takes the changes beneath that path, as GitHub documents", async () => {
    const trees = new MemoryTrees();
    const vendored = await trees.build(new Map<string, Leaf>([["lib.js", { mode: "100644", sha: A }]]));
    const edit = await editTree(trees.read, null, [
      { path: "vendor", mode: "040000", type: "tree", sha: vendored },
      file("vendor/extra.js", B),
    ]);
    trees.keep(edit);
    assert.deepEqual(await listing(trees, edit.root), { vendor: "tree", "vendor/extra.js": B, "vendor/lib.js": A });
  });

  test("a file deleted and a directory of its name made, or a directory replaced by a file, in one edit", async () => {
    const trees = new MemoryTrees();
    const base = await trees.build(
      new Map<string, Leaf>([
        ["notes", { mode: "100644", sha: A }],
        ["build/out.js", { mode: "100644", sha: A }],
      ]),
    );
    const edit = await editTree(trees.read, base, [deletion("notes"), file("notes/today.md", B), file("build", C)]);
    trees.keep(edit);
    assert.deepEqual(await listing(trees, edit.root), { build: C, notes: "tree", "notes/today.md": B });
  });

  test("an edit that changes nothing writes nothing and answers the base", async () => {
    const trees = new MemoryTrees();
    const base = await trees.build(new Map<string, Leaf>([["a/b.txt", { mode: "100644", sha: A }]]));
    const edit = await editTree(trees.read, base, [file("a/b.txt", A)]);
    assert.deepEqual(edit, { root: base, written: [] });
  });

  test("keeps executables, symlinks and submodules with their modes", async () => {
    const trees = new MemoryTrees();
    const root = trees.keep(
      await editTree(trees.read, null, [
        file("run.sh", A, "100755"),
        file("latest", B, "120000"),
        file("lib", C, "160000"),
      ]),
    );
    const flat = await flattenTree(trees.read, root, { recursive: true });
    assert.deepEqual(
      flat?.entries.map((e) => [e.path, e.mode, e.type]),
      [
        ["latest", "120000", "blob"],
        ["lib", "160000", "commit"],
        ["run.sh", "100755", "blob"],
      ],
    );
  });
});

describe("edits refused", () => {
  const base = async () => {
    const trees = new MemoryTrees();
    const root = await trees.build(
      new Map<string, Leaf>([
        ["README.md", { mode: "100644", sha: A }],
        ["src/app.ts", { mode: "100644", sha: A }],
      ]),
    );
    return { trees, root };
  };

  test("a path through a file, in the base or in the same edit", async () => {
    const { trees, root } = await base();
    await assert.rejects(
      editTree(trees.read, root, [file("README.md/x", B)]),
      inputKind("path-through-file", "README.md"),
    );
    await assert.rejects(
      editTree(trees.read, root, [file("new", B), file("new/x", B)]),
      inputKind("path-through-file", "new"),
    );
    await assert.rejects(editTree(trees.read, root, [deletion("README.md/x")]), inputKind("path-through-file"));
  });

  test("deleting a path that is not there, which GitHub answers 422", async () => {
    const { trees, root } = await base();
    await assert.rejects(
      editTree(trees.read, root, [deletion("missing.txt")]),
      inputKind("missing-path", "missing.txt"),
    );
    await assert.rejects(editTree(trees.read, root, [deletion("src/gone/x.ts")]), inputKind("missing-path"));
    await assert.rejects(editTree(trees.read, null, [deletion("a")]), inputKind("missing-path"));
  });

  test("deleting a directory by its path, which GitHub answers 422 too", async () => {
    const { trees, root } = await base();
    await assert.rejects(editTree(trees.read, root, [deletion("src")]), inputKind("delete-directory", "src"));
  });

  test("a path changed twice, or one git cannot store", async () => {
    const { trees, root } = await base();
    await assert.rejects(editTree(trees.read, root, [file("a", A), file("a", B)]), inputKind("duplicate-path", "a"));
    for (const path of ["", "/a", "a/", "a//b", "../a", "a/.git/config", "a\0b"])
      await assert.rejects(editTree(trees.read, root, [file(path, A)]), inputKind("invalid-path", path), path);
  });

  test("a sha that is not one, or a mode that does not match the type", async () => {
    const { trees, root } = await base();
    await assert.rejects(editTree(trees.read, root, [file("a", "abc")]), inputKind("invalid-sha"));
    await assert.rejects(
      editTree(trees.read, root, [{ path: "a", mode: "040000", type: "blob", sha: A }]),
      inputKind("invalid-mode"),
    );
    await assert.rejects(
      editTree(trees.read, root, [{ path: "a", mode: "100644", type: "commit", sha: A }]),
      inputKind("invalid-mode"),
    );
  });

  test("a base tree the store does not hold is the caller's mistake; a subtree it does not hold is damage", async () => {
    const { trees, root } = await base();
    await assert.rejects(editTree(trees.read, C, [file("a", A)]), inputKind("missing-tree"));
    await assert.rejects(
      editTree(trees.read, root, [{ path: "v", mode: "040000", type: "tree", sha: C }, file("v/a", A)]),
      inputKind("missing-tree", "v"),
    );
    const src = (await flattenTree(trees.read, root, { recursive: false }))?.entries.find((e) => e.path === "src");
    trees.bodies.delete(src!.sha);
    await assert.rejects(editTree(trees.read, root, [file("src/b.ts", A)]), GitObjectError);
  });
});

describe("listing a tree", () => {
  test("lists as git ls-tree -r -t: each directory before its contents, in git's order", async () => {
    const trees = new MemoryTrees();
    const root = await trees.build(
      new Map<string, Leaf>([
        ["a/x", { mode: "100644", sha: A }],
        ["a-b", { mode: "100644", sha: A }],
        ["a0", { mode: "100644", sha: A }],
        ["a.c/y", { mode: "100644", sha: A }],
      ]),
    );
    const flat = await flattenTree(trees.read, root, { recursive: true });
    assert.deepEqual(
      flat?.entries.map((e) => e.path),
      ["a-b", "a.c", "a.c/y", "a", "a/x", "a0"],
    );
    assert.equal(flat?.truncated, false);
    const top = await flattenTree(trees.read, root, { recursive: false });
    assert.deepEqual(
      top?.entries.map((e) => e.path),
      ["a-b", "a.c", "a", "a0"],
    );
  });

  test("stops at the entry or byte limit and says it is truncated", async () => {
    const trees = new MemoryTrees();
    const leaves = new Map<string, Leaf>(
      Array.from({ length: 10 }, (_, i) => [`d/f${i}`, { mode: "100644", sha: A }] as const),
    );
    const root = await trees.build(leaves);
    const byCount = await flattenTree(trees.read, root, { recursive: true, maxEntries: 4 });
    assert.deepEqual(
      byCount?.entries.map((e) => e.path),
      ["d", "d/f0", "d/f1", "d/f2"],
    );
    assert.equal(byCount?.truncated, true);
    const bySize = await flattenTree(trees.read, root, { recursive: true, maxBytes: 25, sizeOf: () => 10 });
    assert.deepEqual(
      bySize?.entries.map((e) => e.path),
      ["d", "d/f0"],
    );
    assert.equal(bySize?.truncated, true);
    const exact = await flattenTree(trees.read, root, { recursive: true, maxEntries: 11 });
    assert.equal(exact?.truncated, false, "a listing of exactly the limit is whole");
  });

  test("answers null for a tree the store does not hold", async () => {
    assert.equal(await flattenTree(new MemoryTrees().read, C, { recursive: true }), null);
  });
});

/** What an edit means, on a plain map of paths: a change at a path applies before the changes beneath it. */
type ModelChange =
  | { path: string; kind: "write"; leaf: Leaf }
  | { path: string; kind: "delete" }
  | { path: string; kind: "graft" };

function applyToMap(
  base: ReadonlyMap<string, Leaf>,
  changes: readonly ModelChange[],
  graft: ReadonlyMap<string, Leaf>,
): { leaves: Map<string, Leaf>; refusals: Set<string> } {
  const leaves = new Map(base);
  const refusals = new Set<string>();
  const depth = (path: string) => path.split("/").length;
  const beneath = (path: string) => [...leaves.keys()].filter((key) => key.startsWith(`${path}/`));
  for (const change of [...changes].sort((a, b) => depth(a.path) - depth(b.path))) {
    const segments = change.path.split("/");
    const ancestors = segments.slice(0, -1).map((_, i) => segments.slice(0, i + 1).join("/"));
    if (ancestors.some((ancestor) => leaves.has(ancestor))) {
      refusals.add("path-through-file");
      continue;
    }
    if (change.kind === "delete") {
      if (leaves.has(change.path)) leaves.delete(change.path);
      else refusals.add(beneath(change.path).length > 0 ? "delete-directory" : "missing-path");
      continue;
    }
    leaves.delete(change.path);
    for (const key of beneath(change.path)) leaves.delete(key);
    if (change.kind === "write") leaves.set(change.path, change.leaf);
    else for (const [path, leaf] of graft) leaves.set(`${change.path}/${path}`, leaf);
  }
  return { leaves, refusals };
}

describe("editing agrees with a map of paths", () => {
  test("any edit of any tree lists as the same changes made to a map, or is refused exactly when the map refuses", async () => {
    const change = (known: string[]) =>
      fc.oneof(
        fc.record({ path, kind: fc.constant("write" as const), leaf }, { noNullPrototype: true }),
        fc.record(
          { path: known.length > 0 ? fc.constantFrom(...known) : path, kind: fc.constant("delete" as const) },
          { noNullPrototype: true },
        ),
        fc.record({ path, kind: fc.constant("delete" as const) }, { noNullPrototype: true }),
        fc.record({ path, kind: fc.constant("graft" as const) }, { noNullPrototype: true }),
      );
    const scenario = fc
      .tuple(
        contents,
        contents.filter((graft) => graft.size > 0),
      )
      .chain(([base, graft]) =>
        fc.tuple(
          fc.constant(base),
          fc.constant(graft),
          fc.uniqueArray(change([...base.keys()]), { selector: (c) => c.path, maxLength: 6 }),
        ),
      );
    await fc.assert(
      fc.asyncProperty(scenario, async ([base, graft, changes]) => {
        const trees = new MemoryTrees();
        const baseRoot = await trees.build(base);
        const graftRoot = await trees.build(graft);
        const baseListing = await flattenTree(trees.read, baseRoot, { recursive: true });
        assert.deepEqual(leavesOf(baseListing!.entries), base, "a tree made from paths lists those paths");

        const expected = applyToMap(base, changes, graft);
        const edit = editTree(
          trees.read,
          baseRoot,
          changes.map((c): PathChange => {
            if (c.kind === "write")
              return { path: c.path, mode: c.leaf.mode, type: entryType(c.leaf.mode), sha: c.leaf.sha };
            if (c.kind === "graft") return { path: c.path, mode: "040000", type: "tree", sha: graftRoot };
            return deletion(c.path);
          }),
        );
        if (expected.refusals.size > 0) {
          await assert.rejects(edit, (error) => error instanceof GitInputError && expected.refusals.has(error.kind));
          return;
        }
        const root = trees.keep(await edit);
        const listed = await flattenTree(trees.read, root, { recursive: true });
        assert.deepEqual(leavesOf(listed!.entries), expected.leaves);
        // Directories are exactly the leaves' ancestors: none is left empty.
        const directories = new Set(
          [...expected.leaves.keys()].flatMap((p) =>
            p
              .split("/")
              .slice(0, -1)
              .map((_, i, s) => s.slice(0, i + 1).join("/")),
          ),
        );
        assert.deepEqual(new Set(listed!.entries.filter((e) => e.type === "tree").map((e) => e.path)), directories);
        // The same contents are the same tree, however they were reached.
        assert.equal(root, await new MemoryTrees().build(expected.leaves));
      }),
      { numRuns: 300 },
    );
  });
});

describe("a repository git accepts", () => {
  test("objects made here pass git fsck --strict and list as git ls-tree -r -t", { skip: gitSkip }, async () => {
    const git = repository.get();
    const trees = new MemoryTrees();
    const blob = (text: string) => {
      const body = Buffer.from(text);
      assert.equal(git.write("blob", body), hashObject("blob", body));
      return hashObject("blob", body);
    };
    const first = await editTree(trees.read, null, [
      file("README.md", blob("# feedgate\n")),
      file("bin/run", blob("#!/bin/sh\necho hi\n"), "100755"),
      file("docs/latest", blob("guide.md"), "120000"),
      file("docs/guide.md", blob("Guide\n")),
      file("src/server/app.ts", blob("export {};\n")),
    ]);
    const second = await editTree(trees.read, trees.keep(first), [
      deletion("bin/run"),
      file("src/server/app.ts", blob("export const app = 1;\n")),
      file("src/client/index.ts", blob("export {};\n")),
    ]);
    trees.keep(second);
    for (const tree of [...first.written, ...second.written]) assert.equal(git.write("tree", tree.body), tree.sha);

    const who = {
      name: "Alice",
      email: "alice@example.com",
      date: new Date("2024-01-02T03:04:05Z"),
      offsetMinutes: 60,
    };
    const commit1 = encodeCommit({ tree: first.root, parents: [], author: who, committer: who, message: "First\n" });
    const parent = git.write("commit", commit1);
    const commit2 = encodeCommit({
      tree: second.root,
      parents: [parent],
      author: who,
      committer: who,
      message: "Second\n",
    });
    const head = git.write("commit", commit2);
    assert.equal(head, hashObject("commit", commit2));
    const tag = encodeTag({ object: head, type: "commit", tag: "v1.0.0", tagger: who, message: "Release\n" });
    assert.equal(git.write("tag", tag), hashObject("tag", tag));
    git.run(["update-ref", "refs/heads/main", head]);
    git.run(["symbolic-ref", "HEAD", "refs/heads/main"]);

    assert.equal(git.text(["fsck", "--strict", "--full", "--no-dangling"]), "");
    const listed = await flattenTree(trees.read, second.root, { recursive: true });
    const lsTree = git
      .text(["ls-tree", "-r", "-t", "-z", second.root])
      .split("\0")
      .filter((line) => line !== "");
    assert.deepEqual(
      listed?.entries.map((e) => `${e.mode} ${e.type} ${e.sha}\t${e.path}`),
      lsTree,
    );
  });
});
