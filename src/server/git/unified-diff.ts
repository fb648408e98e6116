/**
 * Files that differ between two trees, as `git diff` writes them (GitHub's `application/vnd.github.diff`): for each
 * file `diff --git a/PATH b/PATH`, its mode lines (`new file mode`, `deleted file mode`, `old mode` and `new mode`),
 * `index FROM..TO MODE` with each blob's SHA-1 cut to seven digits, then `--- a/PATH` and `+++ b/PATH` (`/dev/null`
 * for a side that has none) and the hunks of ./file-diff.ts; `Binary files ... differ` for a binary file, as git
 * writes without `--binary`; a submodule as the `Subproject commit SHA` line git diffs. A path is quoted as git
 * quotes it by default (core.quotePath: octal escapes for bytes that are not printable ASCII). A file that changes
 * between a file, a link and a submodule is written as git writes it, a deletion then a creation. Renames are not
 * detected (feedgate's `files` list none): as `git diff --no-renames`. No I/O.
 */
import { fileDiff, isBinary } from "./file-diff.js";
import type { GitMode } from "./objects.js";

/** A file of a diff: its path, each side's mode and blob (none for the side where it is missing), and their bodies. */
export interface DiffFile {
  path: string;
  fromMode?: GitMode;
  toMode?: GitMode;
  fromSha?: string;
  toSha?: string;
  before: Buffer | null;
  after: Buffer | null;
}

/** How many hex digits of a SHA-1 an `index` line shows: git's default in a repository of fewer than 2^28 objects. */
export const ABBREV = 7;
const NULL_ABBREV = "0".repeat(ABBREV);

/** What git diffs of a submodule: a line naming its commit (diff.c `diff_populate_gitlink`). */
export const gitlinkText = (sha: string) => Buffer.from(`Subproject commit ${sha}\n`);

/** The escapes of quote.c's `cq_lookup` for the characters that have one of their own. */
const NAMED_ESCAPES: Record<string, string> = {
  "\x07": "a",
  "\b": "b",
  "\t": "t",
  "\n": "n",
  "\v": "v",
  "\f": "f",
  "\r": "r",
  '"': '"',
  "\\": "\\",
};

/** A path as git's quote_c_style writes it: as it is, or in double quotes with C escapes when a byte needs one. */
export function quotePath(path: string): string {
  const bytes = Buffer.from(path);
  if (!bytes.some((byte) => byte < 0x20 || byte >= 0x7f || byte === 0x22 || byte === 0x5c)) return path;
  let quoted = '"';
  for (const byte of bytes) {
    const named = NAMED_ESCAPES[String.fromCharCode(byte)];
    if (named !== undefined) quoted += `\\${named}`;
    else if (byte < 0x20 || byte >= 0x7f) quoted += `\\${byte.toString(8).padStart(3, "0")}`;
    else quoted += String.fromCharCode(byte);
  }
  return `${quoted}"`;
}

/** The kind of object a mode names, as git's S_IFMT tells a file, a link and a submodule apart. */
const kindOf = (mode: GitMode) => (mode === "120000" ? "link" : mode === "160000" ? "gitlink" : "file");

/** Whether the file changes between a file, a link and a submodule: git writes that as a deletion and a creation. */
export const typeChanged = (file: DiffFile) =>
  file.fromMode !== undefined && file.toMode !== undefined && kindOf(file.fromMode) !== kindOf(file.toMode);

/** `--- LABEL`: git adds a tab after a label holding a space (diff.c DIFF_SYMBOL_FILEPAIR_MINUS). */
const label = (prefix: "---" | "+++", name: string) => `${prefix} ${name}${name.includes(" ") ? "\t" : ""}\n`;

/** One file's part of the diff, without splitting a change of kind. */
function filePart(file: DiffFile): string {
  const a = quotePath(`a/${file.path}`);
  const b = quotePath(`b/${file.path}`);
  let part = `diff --git ${a} ${b}\n`;
  const added = file.fromMode === undefined;
  const deleted = file.toMode === undefined;
  if (added) part += `new file mode ${file.toMode}\n`;
  else if (deleted) part += `deleted file mode ${file.fromMode}\n`;
  else if (file.fromMode !== file.toMode) part += `old mode ${file.fromMode}\nnew mode ${file.toMode}\n`;
  if (!added && !deleted && file.fromSha === file.toSha) return part;
  const from = file.fromSha?.slice(0, ABBREV) ?? NULL_ABBREV;
  const to = file.toSha?.slice(0, ABBREV) ?? NULL_ABBREV;
  part += `index ${from}..${to}${!added && !deleted && file.fromMode === file.toMode ? ` ${file.toMode}` : ""}\n`;
  const before = added ? "/dev/null" : a;
  const after = deleted ? "/dev/null" : b;
  if (isBinary(file.before) || isBinary(file.after)) return `${part}Binary files ${before} and ${after} differ\n`;
  const { patch } = fileDiff(file.before, file.after);
  if (patch === undefined) return part;
  return `${part}${label("---", before)}${label("+++", after)}${patch}\n`;
}

/** The diff of `files` (in git's order: by path), as `git diff` writes it. */
export function unifiedDiff(files: readonly DiffFile[]): string {
  let text = "";
  for (const file of files) {
    if (!typeChanged(file)) text += filePart(file);
    else {
      const { toMode: _, toSha: __, ...gone } = file;
      const { fromMode: ___, fromSha: ____, ...made } = file;
      text += filePart({ ...gone, after: null }) + filePart({ ...made, before: null });
    }
  }
  return text;
}
