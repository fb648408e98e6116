/**
 * A file's change as GitHub's commit and compare answers show it: lines added and deleted, and the `patch`, the
 * unified diff's hunks without the file headers (`@@ -1,2 +1,3 @@` and three lines of context), as jsdiff makes them.
 * A binary file (one holding a NUL byte, git's own test) has no patch, and its lines are not counted.
 */
import { structuredPatch } from "diff";

export interface FileDiff {
  additions: number;
  deletions: number;
  patch?: string;
}

const isBinary = (body: Buffer | null) => body?.includes(0) === true;

/** A hunk's range as git writes it: the count left out when it is 1, the line before it when it is 0 (`-0,0`). */
const range = (start: number, count: number) =>
  count === 1 ? `${start}` : `${count === 0 ? start - 1 : start},${count}`;

export function fileDiff(before: Buffer | null, after: Buffer | null): FileDiff {
  if (isBinary(before) || isBinary(after)) return { additions: 0, deletions: 0 };
  const diff = structuredPatch("a", "b", before?.toString("utf8") ?? "", after?.toString("utf8") ?? "", "", "", {
    context: 3,
  });
  let additions = 0;
  let deletions = 0;
  const hunks = diff.hunks.map((hunk) => {
    for (const line of hunk.lines) {
      if (line.startsWith("+")) additions++;
      else if (line.startsWith("-")) deletions++;
    }
    return [
      `@@ -${range(hunk.oldStart, hunk.oldLines)} +${range(hunk.newStart, hunk.newLines)} @@`,
      ...hunk.lines,
    ].join("\n");
  });
  return { additions, deletions, ...(hunks.length > 0 ? { patch: hunks.join("\n") } : {}) };
}
