/**
 * Where a line of a file is in its diff, as GitHub's review comments name it: the `line` of the file on a `side`
 * (`RIGHT`: the new file, `LEFT`: the old), its `position` (the line's index below the patch's first `@@` header,
 * each later header counted, GitHub's older way to name it), and the `diff_hunk` a comment shows: its hunk's header
 * and lines up to the commented one.
 */

export interface DiffPlace {
  position: number;
  diffHunk: string;
}

const HEADER = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/;

/** The place of `line` on `side` in `patch` (a file's hunks, as file-diff.ts writes them); null when it is not there. */
export function diffPlace(patch: string, line: number, side: "LEFT" | "RIGHT"): DiffPlace | null {
  const lines = patch.split("\n");
  let header = -1;
  let oldLine = 0;
  let newLine = 0;
  for (let i = 0; i < lines.length; i++) {
    const text = lines[i]!;
    const hunk = HEADER.exec(text);
    if (hunk) {
      header = i;
      oldLine = Number(hunk[1]);
      newLine = Number(hunk[2]);
      continue;
    }
    if (header < 0 || text.startsWith("\\")) continue; // "\ No newline at end of file" names no line
    const kind = text[0];
    const here = side === "RIGHT" ? kind !== "-" && newLine === line : kind !== "+" && oldLine === line;
    if (here) return { position: i, diffHunk: lines.slice(header, i + 1).join("\n") };
    if (kind !== "+") oldLine++;
    if (kind !== "-") newLine++;
  }
  return null;
}
