/**
 * The examples of the README and of every docs/*.md page, as the runner (tests/readme/run-examples.ts) executes them.
 *
 * Fenced blocks are read in order. ```sh and ```console blocks are run; in a console block the lines that start
 * with `$ ` are commands and the lines under one are what it prints, where a line `…` stands for any number of
 * lines and `…` inside a line for any text. An HTML comment right above a block tells the runner more:
 *
 *   <!-- readme-test: skip: why -->    not run (it needs hosts, files or time the reader's machine may not have)
 *   <!-- readme-test: setup -->        the runner does what the block says itself (installs, starts `npm start`)
 *   <!-- readme-test: printed -->      stands for the line `npm start` printed: the runner uses that line
 *   <!-- readme-test: file NAME -->    the block is saved as NAME (in the clone) for later commands to run
 *
 * A page without a setup block is run as a reader runs it after the README's Quick start: against a fresh
 * `npm start` of its own, in the shell where the line that start printed was pasted.
 */

export type Marker =
  | { kind: "run" }
  | { kind: "skip"; reason: string }
  | { kind: "setup" }
  | { kind: "printed" }
  | { kind: "file"; name: string };

export interface Command {
  /** The shell text, continuation lines and here-documents included. */
  text: string;
  /** What a console block says it prints; null where the page does not say (sh blocks). */
  expected: string[] | null;
  /** Line of the page the command starts on, for failure messages. */
  line: number;
}

export interface Block {
  language: string;
  marker: Marker;
  /** The block's lines, as written. */
  body: string[];
  /** Line of the page the fence opens on. */
  line: number;
  commands: Command[];
}

const MARKER = /^<!--\s*readme-test:\s*(skip|setup|printed|file)\s*:?\s*(.*?)\s*-->$/;

function parseMarker(line: string | undefined, at: string): Marker {
  const match = line?.trim().match(MARKER);
  if (!match) return { kind: "run" };
  const [, kind, argument = ""] = match;
  if (kind === "skip") {
    if (!argument) throw new Error(`${at}: a skipped example says why`);
    return { kind, reason: argument };
  }
  if (kind === "file") {
    if (!argument) throw new Error(`${at}: "file" names the file`);
    return { kind, name: argument };
  }
  return { kind: kind as "setup" | "printed" };
}

/** The word a here-document ends on, if the line opens one (`<<'EOF'`, `<<EOF`, `<<-EOF`). */
function hereDocumentEnd(line: string): string | null {
  const match = line.match(/<<-?\s*(['"]?)([A-Za-z_][A-Za-z0-9_]*)\1/);
  return match ? match[2]! : null;
}

/**
 * Splits lines into commands: a line ending in `\` continues on the next, a here-document runs to its end word,
 * blank lines and lines holding only a comment are left out. `prompt` is `$ ` in console blocks, where every other
 * line is output of the command above it.
 */
function splitCommands(lines: string[], firstLine: number, prompt: string | null, source: string): Command[] {
  const commands: Command[] = [];
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!;
    const isCommand = prompt === null ? raw.trim() !== "" && !raw.trim().startsWith("#") : raw.startsWith(prompt);
    if (!isCommand) {
      if (prompt !== null) {
        const current = commands.at(-1);
        if (!current) throw new Error(`${source} line ${firstLine + i}: output before any command`);
        current.expected!.push(raw);
      }
      continue;
    }
    const start = i;
    const text = [prompt === null ? raw : raw.slice(prompt.length)];
    let end = hereDocumentEnd(text[0]!);
    while (text.at(-1)!.endsWith("\\") || end !== null) {
      if (++i >= lines.length) throw new Error(`${source} line ${firstLine + start}: the command never ends`);
      const next = lines[i]!;
      text.push(next);
      if (end !== null && next.trim() === end) end = null;
      else if (end === null) end = hereDocumentEnd(next);
    }
    commands.push({ text: text.join("\n"), expected: prompt === null ? null : [], line: firstLine + start });
  }
  return commands;
}

/**
 * Every fenced block of a page (the README or a docs/*.md page), with its marker and, for shell blocks, its
 * commands. `source` names the page in error messages.
 */
export function readmeBlocks(page: string, source = "README"): Block[] {
  const lines = page.split("\n");
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const fence = lines[i]!.match(/^```(\w*)\s*$/);
    if (!fence) continue;
    const language = fence[1]!;
    const open = i;
    const body: string[] = [];
    while (++i < lines.length && !lines[i]!.startsWith("```")) body.push(lines[i]!);
    if (i >= lines.length) throw new Error(`${source} line ${open + 1}: the block is never closed`);
    // The marker is the nearest non-blank line above the fence.
    let above = open - 1;
    while (above >= 0 && lines[above]!.trim() === "") above--;
    const marker = parseMarker(lines[above], `${source} line ${above + 1}`);
    const shell = language === "sh" || language === "console";
    const commands =
      shell && marker.kind === "run" ? splitCommands(body, open + 2, language === "console" ? "$ " : null, source) : [];
    blocks.push({ language, marker, body, line: open + 1, commands });
  }
  return blocks;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Lines without trailing spaces (or the `\r` of HTTP headers) and without blank lines at the end. */
function normalizedLines(lines: string[]): string[] {
  const trimmed = lines.map((line) => line.trimEnd());
  while (trimmed.length > 0 && trimmed.at(-1) === "") trimmed.pop();
  return trimmed;
}

/**
 * Whether `actual` is what `expected` says: line by line, trailing spaces ignored, `…` alone on a line matching any
 * number of lines, `…` in a line any text within it. No expected lines: the command prints nothing.
 */
export function matchesExpected(expected: string[], actual: string): boolean {
  const pattern = normalizedLines(expected)
    .map((line) => (line === "…" ? "(?:[^\\n]*\\n)*?" : `${line.split("…").map(escapeRegExp).join("[^\\n]*")}\\n`))
    .join("");
  const text = normalizedLines(actual.split("\n"))
    .map((line) => `${line}\n`)
    .join("");
  return new RegExp(`^${pattern}$`).test(text);
}
