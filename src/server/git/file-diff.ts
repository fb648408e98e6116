/**
 * A file's change as GitHub's commit and compare answers show it: lines added and deleted, and the `patch`, the
 * unified diff's hunks without the file headers (`@@ -1,2 +1,3 @@` and three lines of context), as jsdiff makes them,
 * each header followed by the function line git's default finds above the hunk (xdiff's `def_ff`: the nearest earlier
 * line of the old file starting with a letter, `_` or `$`, cut to 80 bytes and its trailing white space; searched
 * back only to the previous hunk's start, before which the previous hunk's line stays, as xemit.c does).
 * A binary file (git's own test: a NUL in its first 8,000 bytes) has no patch, and its lines are not counted.
 */
import { loadOnUse } from "../load-on-use.js";

const diffLibrary = loadOnUse<typeof import("diff")>("diff");

export interface FileDiff {
  additions: number;
  deletions: number;
  patch?: string;
}

/** How much of a file git reads to tell binary from text (xdiff-interface.c's FIRST_FEW_BYTES). */
const FIRST_FEW_BYTES = 8000;

export const isBinary = (body: Buffer | null) => body?.subarray(0, FIRST_FEW_BYTES).includes(0) === true;

/** A hunk's range as git writes it: the count left out when it is 1, the line before it when it is 0 (`-0,0`). */
const range = (start: number, count: number) =>
  count === 1 ? `${start}` : `${count === 0 ? start - 1 : start},${count}`;

/** The longest function line git keeps (xemit.c's `func_line.buf`). */
const FUNC_LINE_BYTES = 80;

/** git's default function line test (xdiff-interface.c `def_ff`), or null for a line that is none. */
function functionLine(line: Buffer): string | null {
  const first = line[0];
  if (first === undefined) return null;
  const letter = (first >= 0x41 && first <= 0x5a) || (first >= 0x61 && first <= 0x7a);
  if (!letter && first !== 0x5f && first !== 0x24) return null;
  let end = Math.min(line.length, FUNC_LINE_BYTES);
  // C's isspace: space, \t, \n, \v, \f, \r.
  while (end > 0 && [0x20, 0x09, 0x0a, 0x0b, 0x0c, 0x0d].includes(line[end - 1]!)) end--;
  return line.subarray(0, end).toString("utf8");
}

/** The old file's lines as git's records: each with its newline. */
function lines(body: Buffer): Buffer[] {
  const records: Buffer[] = [];
  let start = 0;
  while (start < body.length) {
    const newline = body.indexOf(0x0a, start);
    const end = newline < 0 ? body.length : newline + 1;
    records.push(body.subarray(start, end));
    start = end;
  }
  return records;
}

export function fileDiff(before: Buffer | null, after: Buffer | null): FileDiff {
  if (isBinary(before) || isBinary(after)) return { additions: 0, deletions: 0 };
  const diff = diffLibrary().structuredPatch(
    "a",
    "b",
    before?.toString("utf8") ?? "",
    after?.toString("utf8") ?? "",
    "",
    "",
    {
      context: 3,
    },
  );
  const old = before ? lines(before) : [];
  let additions = 0;
  let deletions = 0;
  let funcLine = "";
  let searchedTo = -1;
  const hunks = diff.hunks.map((hunk) => {
    for (const line of hunk.lines) {
      if (line.startsWith("+")) additions++;
      else if (line.startsWith("-")) deletions++;
    }
    // xemit.c: from the line before the hunk back to (not into) where the previous search began.
    const from = hunk.oldStart - 2;
    for (let l = from; l > searchedTo && l >= 0; l--) {
      const found = functionLine(old[l] ?? Buffer.alloc(0));
      if (found !== null) {
        funcLine = found;
        break;
      }
    }
    searchedTo = from;
    const header = `@@ -${range(hunk.oldStart, hunk.oldLines)} +${range(hunk.newStart, hunk.newLines)} @@`;
    return [funcLine === "" ? header : `${header} ${funcLine}`, ...hunk.lines].join("\n");
  });
  return { additions, deletions, ...(hunks.length > 0 ? { patch: hunks.join("\n") } : {}) };
}
