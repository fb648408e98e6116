/**
 * The paths two trees differ in: the difference of two maps of paths, git diff-tree's answer, and no more reading
 * than the subtrees that differ.
 */
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { decodeTree, GitObjectError } from "../../../src/server/git/objects.js";
import { diffTrees, type PathDiff } from "../../../src/server/git/tree-diff.js";
import { type Leaf, MemoryTrees } from "./memory-trees.js";
import { gitSkip, lazyRepository } from "../../helpers/real-git.js";
import { contents } from "./arbitraries.js";

const repository = lazyRepository();
after(() => repository.remove());

const A = "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391";
const B = "ce013625030ba8dba906f756967f9e9ca394464a";

const files = (entries: Record<string, string>): Map<string, Leaf> =>
  new Map(Object.entries(entries).map(([path, sha]) => [path, { mode: "100644", sha }]));

/** The difference of two maps of paths, as diffTrees should answer it. */
function mapDifference(from: ReadonlyMap<string, Leaf>, to: ReadonlyMap<string, Leaf>): PathDiff[] {
  const diffs: PathDiff[] = [];
  for (const path of new Set([...from.keys(), ...to.keys()])) {
    const a = from.get(path);
    const b = to.get(path);
    if (a && b && (a.sha !== b.sha || a.mode !== b.mode))
      diffs.push({ path, status: "modified", fromSha: a.sha, toSha: b.sha, fromMode: a.mode, toMode: b.mode });
    else if (a && !b) diffs.push({ path, status: "removed", fromSha: a.sha, fromMode: a.mode });
    else if (b && !a) diffs.push({ path, status: "added", toSha: b.sha, toMode: b.mode });
  }
  return diffs.sort((x, y) => Buffer.compare(Buffer.from(x.path), Buffer.from(y.path)));
}

describe("the difference of two trees", () => {
  test("lists files added, removed and modified, a mode change being a modification", async () => {
    const trees = new MemoryTrees();
    const from = await trees.build(files({ "README.md": A, "src/app.ts": A, "src/old.ts": A, "bin/run": A }));
    const toLeaves = files({ "README.md": B, "src/app.ts": A, "src/new.ts": B });
    toLeaves.set("bin/run", { mode: "100755", sha: A });
    const to = await trees.build(toLeaves);
    assert.deepEqual(await diffTrees(trees.read, from, to), [
      { path: "README.md", status: "modified", fromSha: A, toSha: B, fromMode: "100644", toMode: "100644" },
      { path: "bin/run", status: "modified", fromSha: A, toSha: A, fromMode: "100644", toMode: "100755" },
      { path: "src/new.ts", status: "added", toSha: B, toMode: "100644" },
      { path: "src/old.ts", status: "removed", fromSha: A, fromMode: "100644" },
    ]);
  });

  test("a file that became a directory is the file removed and the directory's files added", async () => {
    const trees = new MemoryTrees();
    const from = await trees.build(files({ notes: A }));
    const to = await trees.build(files({ "notes/a.md": A, "notes/b/c.md": B }));
    assert.deepEqual(
      (await diffTrees(trees.read, from, to)).map((d) => [d.status, d.path]),
      [
        ["removed", "notes"],
        ["added", "notes/a.md"],
        ["added", "notes/b/c.md"],
      ],
    );
  });

  test("null is the empty tree on either side: a root commit adds everything, a deletion removes it", async () => {
    const trees = new MemoryTrees();
    const tree = await trees.build(files({ "a/b": A, c: B }));
    assert.deepEqual(
      (await diffTrees(trees.read, null, tree)).map((d) => [d.status, d.path]),
      [
        ["added", "a/b"],
        ["added", "c"],
      ],
    );
    assert.deepEqual(
      (await diffTrees(trees.read, tree, null)).map((d) => [d.status, d.path]),
      [
        ["removed", "a/b"],
        ["removed", "c"],
      ],
    );
    assert.deepEqual(await diffTrees(trees.read, tree, tree), []);
  });

  test("reads only the subtrees whose shas differ", async () => {
    const trees = new MemoryTrees();
    const big = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`vendor/lib${i}/index.js`, A]));
    const from = await trees.build(files({ ...big, "src/app.ts": A }));
    const to = await trees.build(files({ ...big, "src/app.ts": B }));
    trees.reads.length = 0;
    await diffTrees(trees.read, from, to);
    const read = new Set(trees.reads);
    assert.equal(read.size, 4, "the two roots and the two src trees");
    const vendor = decodeTree(trees.bodies.get(from)!).find((e) => e.name === "vendor")!;
    assert.equal(read.has(vendor.sha), false);
  });

  test("a tree the store does not hold is damage, not an empty tree", async () => {
    const trees = new MemoryTrees();
    const from = await trees.build(files({ "a/b": A }));
    const to = await trees.build(files({ "a/b": B }));
    trees.bodies.delete(decodeTree(trees.bodies.get(to)!)[0]!.sha);
    await assert.rejects(diffTrees(trees.read, from, to), GitObjectError);
  });

  test("any two trees differ as their maps of paths do", async () => {
    await fc.assert(
      fc.asyncProperty(contents, contents, async (from, to) => {
        const trees = new MemoryTrees();
        const [a, b] = [await trees.build(from), await trees.build(to)];
        assert.deepEqual(await diffTrees(trees.read, a, b), mapDifference(from, to));
      }),
      { numRuns: 300 },
    );
  });

  test("any two trees differ as git diff-tree -r says", { skip: gitSkip }, async () => {
    const git = repository.get();
    const status: Record<string, PathDiff["status"]> = { A: "added", D: "removed", M: "modified", T: "modified" };
    await fc.assert(
      fc.asyncProperty(contents, contents, async (from, to) => {
        const trees = new MemoryTrees();
        const [a, b] = [await trees.build(from), await trees.build(to)];
        const stored = [...trees.bodies.values()].filter((body) => body.length > 0).map(decodeTree);
        if (stored.length > 0) git.mktree(stored);
        // Raw records: ":<from mode> <to mode> <from sha> <to sha> <status>\0<path>\0".
        const fields = git.text(["diff-tree", "-r", "-z", "--no-renames", a, b]).split("\0");
        const fromGit: Array<[string, string]> = [];
        for (let i = 0; i + 1 < fields.length; i += 2) fromGit.push([status[fields[i]!.slice(-1)]!, fields[i + 1]!]);
        const ours = (await diffTrees(trees.read, a, b)).map((d): [string, string] => [d.status, d.path]);
        const byPath = (x: [string, string], y: [string, string]) =>
          Buffer.compare(Buffer.from(x[1]), Buffer.from(y[1]));
        assert.deepEqual(ours, fromGit.sort(byPath));
      }),
      { numRuns: 40 },
    );
  });
});
