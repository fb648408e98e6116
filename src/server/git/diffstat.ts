/**
 * A diff's `--stat` and `--summary` as `git format-patch` writes them under a patch's `---` (diff.c `show_stats`,
 * `print_stat_summary`, `diff_summary`): a line a file, ` NAME | N +++--`, its name and graph fitted into 72 columns
 * (MAIL_DEFAULT_WRAP) as git fits them, a binary file's ` NAME | Bin OLD -> NEW bytes`; then ` N files changed, N
 * insertions(+), N deletions(-)`; then each file made, deleted or given another mode (` create mode 100644 NAME`).
 * No I/O.
 */
import { fileDiff, isBinary } from "./file-diff.js";
import { type DiffFile, quotePath } from "./unified-diff.js";

/** The columns `git format-patch` gives its diffstat. */
const MAIL_WIDTH = 72;

interface Counted {
  name: string;
  added: number;
  deleted: number;
  binary: boolean;
}

const decimalWidth = (n: number) => String(n).length;

/** git's scale_linear: at least one column for any change, the rest in proportion. */
const scaleLinear = (it: number, width: number, maxChange: number) =>
  it === 0 ? 0 : 1 + Math.floor((it * (width - 1)) / maxChange);

function counted(file: DiffFile): Counted {
  const name = quotePath(file.path);
  if (isBinary(file.before) || isBinary(file.after)) {
    const same = file.fromSha === file.toSha;
    return {
      name,
      binary: true,
      added: same ? 0 : (file.after?.length ?? 0),
      deleted: same ? 0 : (file.before?.length ?? 0),
    };
  }
  const { additions, deletions } = fileDiff(file.before, file.after);
  return { name, added: additions, deleted: deletions, binary: false };
}

/** The lines of the diffstat of `files`, each ending in a newline. */
export function diffstat(files: readonly DiffFile[], width = MAIL_WIDTH): string {
  const rows = files.map(counted);
  let maxLen = 0;
  let maxChange = 0;
  let binWidth = 0;
  let numberWidth = 0;
  for (const row of rows) {
    maxLen = Math.max(maxLen, row.name.length);
    if (row.binary) {
      // "Bin XXX -> YYY bytes"
      binWidth = Math.max(binWidth, 14 + decimalWidth(row.added) + decimalWidth(row.deleted));
      numberWidth = 3;
    } else maxChange = Math.max(maxChange, row.added + row.deleted);
  }
  numberWidth = Math.max(numberWidth, decimalWidth(maxChange));
  const total = Math.max(width, 16 + 6 + numberWidth);
  let graphWidth = maxChange + 4 > binWidth ? maxChange : binWidth - 4;
  let nameWidth = maxLen;
  if (nameWidth + numberWidth + 6 + graphWidth > total) {
    if (graphWidth > Math.floor((total * 3) / 8) - numberWidth - 6)
      graphWidth = Math.max(6, Math.floor((total * 3) / 8) - numberWidth - 6);
    if (nameWidth > total - numberWidth - 6 - graphWidth) nameWidth = total - numberWidth - 6 - graphWidth;
    else graphWidth = total - numberWidth - 6 - nameWidth;
  }
  let text = "";
  for (const row of rows) {
    let name = row.name;
    let prefix = "";
    let len = nameWidth;
    if (nameWidth < name.length) {
      prefix = "...";
      len = Math.max(0, len - 3);
      name = name.slice(name.length - len);
      const slash = name.indexOf("/");
      if (slash >= 0) name = name.slice(slash);
    }
    const padded = `${prefix}${name}${" ".repeat(Math.max(0, len - name.length))}`;
    if (row.binary) {
      text += ` ${padded} | ${"Bin".padStart(numberWidth)}`;
      text += row.added === 0 && row.deleted === 0 ? "\n" : ` ${row.deleted} -> ${row.added} bytes\n`;
      continue;
    }
    let add = row.added;
    let del = row.deleted;
    if (graphWidth <= maxChange) {
      let all = scaleLinear(add + del, graphWidth, maxChange);
      if (all < 2 && add > 0 && del > 0) all = 2;
      if (add < del) {
        add = scaleLinear(add, graphWidth, maxChange);
        del = all - add;
      } else {
        del = scaleLinear(del, graphWidth, maxChange);
        add = all - del;
      }
    }
    const changes = row.added + row.deleted;
    text += ` ${padded} | ${String(changes).padStart(numberWidth)}${changes > 0 ? " " : ""}`;
    text += `${"+".repeat(add)}${"-".repeat(del)}\n`;
  }
  return text + summaryLine(rows) + modeLines(files);
}

/** ` 2 files changed, 3 insertions(+), 1 deletion(-)`: lines of text files only; both counts when both are 0. */
function summaryLine(rows: readonly Counted[]): string {
  if (rows.length === 0) return " 0 files changed\n";
  const text = rows.filter((row) => !row.binary);
  const insertions = text.reduce((sum, row) => sum + row.added, 0);
  const deletions = text.reduce((sum, row) => sum + row.deleted, 0);
  let line = ` ${rows.length} file${rows.length === 1 ? "" : "s"} changed`;
  if (insertions > 0 || deletions === 0) line += `, ${insertions} insertion${insertions === 1 ? "" : "s"}(+)`;
  if (deletions > 0 || insertions === 0) line += `, ${deletions} deletion${deletions === 1 ? "" : "s"}(-)`;
  return `${line}\n`;
}

/** `--summary`: what each file's mode became. */
function modeLines(files: readonly DiffFile[]): string {
  let text = "";
  for (const file of files) {
    const name = quotePath(file.path);
    if (file.fromMode === undefined) text += ` create mode ${file.toMode} ${name}\n`;
    else if (file.toMode === undefined) text += ` delete mode ${file.fromMode} ${name}\n`;
    else if (file.fromMode !== file.toMode) text += ` mode change ${file.fromMode} => ${file.toMode} ${name}\n`;
  }
  return text;
}
