/**
 * A review comment's place in a diff: `position` and `diff_hunk` of a line on either side, across hunks, as GitHub's
 * documented example counts them (the first header is position 0, a later header takes a position of its own).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { diffPlace } from "../../../src/server/git/diff-position.js";
import { fileDiff } from "../../../src/server/git/file-diff.js";

const before = Buffer.from(`${Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join("\n")}\n`);
const after = Buffer.from(
  `${Array.from({ length: 20 }, (_, i) => (i === 1 ? "line two" : i === 16 ? "line seventeen" : `line ${i + 1}`)).join("\n")}\n`,
);
const patch = fileDiff(before, after).patch!;

test("a new line on the right: its position and the hunk up to it", () => {
  assert.deepEqual(diffPlace(patch, 2, "RIGHT"), {
    position: 3,
    diffHunk: "@@ -1,5 +1,5 @@\n line 1\n-line 2\n+line two",
  });
});

test("the old line on the left, and a context line on either side", () => {
  assert.equal(diffPlace(patch, 2, "LEFT")!.position, 2);
  assert.equal(diffPlace(patch, 1, "LEFT")!.position, 1);
  assert.equal(diffPlace(patch, 1, "RIGHT")!.position, 1);
});

test("the second hunk counts its header as a line", () => {
  const place = diffPlace(patch, 17, "RIGHT")!;
  const lines = patch.split("\n");
  assert.equal(lines[place.position], "+line seventeen");
  assert.ok(place.diffHunk.startsWith("@@ -14,7 +14,7 @@"), place.diffHunk);
  assert.equal(lines.filter((l) => l.startsWith("@@")).length, 2);
});

test("a line outside every hunk has no place", () => {
  assert.equal(diffPlace(patch, 10, "RIGHT"), null);
  assert.equal(diffPlace(patch, 99, "LEFT"), null);
});
