/**
 * A file's diff as GitHub's commits show it: hunks as `git diff` writes them (its `@@` ranges, three lines of
 * context, "\ No newline at end of file"), and lines added and deleted as `git diff --numstat` counts them.
 */
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { fileDiff } from "../../../src/server/git/file-diff.js";
import { gitSkip, lazyRepository } from "../../helpers/real-git.js";

describe("file diffs, as git makes them", () => {
  const git = lazyRepository();
  after(() => git.remove());

  /** git's own diff of two texts: the hunks after the file headers, and --numstat's counts. */
  function gitDiff(before: string, after: string): { patch: string; additions: number; deletions: number } {
    const repository = git.get();
    writeFileSync(join(repository.dir, "before"), before);
    writeFileSync(join(repository.dir, "after"), after);
    const run = (args: string[]) =>
      repository.runAllowing(["diff", "--no-index", "--no-color", ...args, "before", "after"]).toString("utf8");
    const numstat = run(["--numstat"]).trim();
    const [added = "0", deleted = "0"] = numstat === "" ? [] : numstat.split("\t");
    const patch = run(["-U3"]).split("\n").slice(4).join("\n").replace(/\n$/, "");
    return { patch, additions: Number(added), deletions: Number(deleted) };
  }

  test("a changed line, an added line, a new file, and a missing final newline", { skip: gitSkip }, () => {
    for (const [before, after] of [
      ["a\nb\nc\n", "a\nB\nc\nd\n"],
      ["", "x\n"],
      ["x", "y"],
      ["1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n", "1\n2\n3\n4\n5\nsix\n7\n8\n9\n10\n"],
    ]) {
      const ours = fileDiff(Buffer.from(before!), Buffer.from(after!));
      const theirs = gitDiff(before!, after!);
      assert.deepEqual(
        [ours.patch, ours.additions, ours.deletions],
        [theirs.patch, theirs.additions, theirs.deletions],
      );
    }
  });

  test("each hunk names the function line git finds above it, kept from the hunk before", { skip: gitSkip }, () => {
    const body = (changed: number[]) =>
      Array.from({ length: 60 }, (_, i) => {
        const line = i % 20 === 0 ? `function f${i}() {   ` : i === 41 ? `${"$".repeat(90)}` : `  body ${i}`;
        return changed.includes(i) ? `${line} changed\n` : `${line}\n`;
      }).join("");
    for (const changed of [[5], [5, 15], [25, 35, 45], [2], [44, 55]]) {
      const ours = fileDiff(Buffer.from(body([])), Buffer.from(body(changed)));
      assert.equal(ours.patch, gitDiff(body([]), body(changed)).patch, String(changed));
    }
    assert.match(
      fileDiff(Buffer.from(body([])), Buffer.from(body([5]))).patch!,
      /^@@ -3,7 \+3,7 @@ function f0\(\) \{\n/,
    );
  });

  test("lines added and deleted are git's for any two texts", { skip: gitSkip }, () => {
    const text = fc
      .array(fc.constantFrom("a", "b", "c", "d"), { maxLength: 12 })
      .map((lines) => lines.map((l) => `${l}\n`).join(""));
    fc.assert(
      fc.property(text, text, (before, after) => {
        fc.pre(before !== after);
        const ours = fileDiff(Buffer.from(before), Buffer.from(after));
        const theirs = gitDiff(before, after);
        assert.deepEqual([ours.additions, ours.deletions], [theirs.additions, theirs.deletions]);
      }),
      { numRuns: 40 },
    );
  });

  test("a binary file has no patch: a NUL in its first 8,000 bytes, as git tells", () => {
    assert.deepEqual(fileDiff(Buffer.from([0, 1]), Buffer.from([0, 2])), { additions: 0, deletions: 0 });
    const late = Buffer.concat([Buffer.from(`${"x".repeat(8000)}\n`), Buffer.from([0])]);
    assert.equal(fileDiff(Buffer.from("a\n"), late).additions, 2);
  });
});
