/**
 * Commits as `git format-patch --stdout --no-signature` writes them (GitHub's `application/vnd.github.patch`): for
 * each an mbox message, `From SHA Mon Sep 17 00:00:00 2001`, `From:` its author, `Date:` the author's time in RFC 2822
 * at the author's offset, `Subject: [PATCH n/m]` its first paragraph on one line (folded at 78 columns as git folds
 * it), the MIME headers when the message is not ASCII, the rest of the message, `---`, the diffstat (./diffstat.ts)
 * and the diff (./unified-diff.ts); messages one blank line apart. Names and subjects that are not ASCII are written
 * as RFC 2047 encoded words, as git writes them (pretty.c `add_rfc2047`). No I/O.
 */
import { diffstat } from "./diffstat.js";
import type { CommitFields, GitPerson } from "./objects.js";
import { type DiffFile, unifiedDiff } from "./unified-diff.js";

export interface PatchedCommit {
  sha: string;
  fields: CommitFields;
  /** Its files against its first parent (or the empty tree). */
  files: readonly DiffFile[];
}

/** The width git folds a mail's header lines at (pretty.c, for the email formats). */
const HEADER_WIDTH = 78;
/** RFC 2047's longest encoded word line. */
const ENCODED_WIDTH = 76;

const DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const two = (n: number) => String(n).padStart(2, "0");

/** `Fri, 6 Mar 2026 11:18:45 +0100`: git's RFC 2822 date, at the person's own offset. */
export function rfc2822Date(person: GitPerson): string {
  const local = new Date(person.date.getTime() + person.offsetMinutes * 60_000);
  const sign = person.offsetMinutes < 0 ? "-" : "+";
  const offset = Math.abs(person.offsetMinutes);
  const zone = `${sign}${two(Math.floor(offset / 60))}${two(offset % 60)}`;
  const time = `${two(local.getUTCHours())}:${two(local.getUTCMinutes())}:${two(local.getUTCSeconds())}`;
  const day = `${DAYS[local.getUTCDay()]}, ${local.getUTCDate()} ${MONTHS[local.getUTCMonth()]} ${local.getUTCFullYear()}`;
  return `${day} ${time} ${zone}`;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: the test is for bytes outside printable ASCII
const NON_ASCII = /[^\x00-\x7f]/;

/** pretty.c `needs_rfc2047_encoding`: a byte that is not ASCII, a newline, or `=?`. */
const needsRfc2047 = (text: string) => NON_ASCII.test(text) || text.includes("\n") || text.includes("=?");

/** pretty.c `is_rfc2047_special`: what an encoded word writes as `=XX`. */
function isSpecial(byte: number, address: boolean): boolean {
  if (byte >= 0x80 || byte < 0x20 || byte === 0x7f) return true;
  if (byte === 0x20 || byte === 0x3d || byte === 0x3f || byte === 0x5f) return true;
  if (!address) return false;
  const alnum = (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5a) || (byte >= 0x61 && byte <= 0x7a);
  return !(alnum || byte === 0x21 || byte === 0x2a || byte === 0x2b || byte === 0x2d || byte === 0x2f);
}

/** pretty.c `add_rfc2047`: `=?UTF-8?q?...?=`, a character's bytes together, new words past 76 columns. */
function rfc2047(text: string, lineLength: number, address: boolean): string {
  let out = "=?UTF-8?q?";
  let length = lineLength + "UTF-8".length + 5;
  for (const char of text) {
    const bytes = Buffer.from(char);
    const special = bytes.length > 1 || isSpecial(bytes[0]!, address);
    const encoded = special
      ? [...bytes].map((b) => `=${b.toString(16).toUpperCase().padStart(2, "0")}`).join("")
      : char;
    if (length + encoded.length + 2 > ENCODED_WIDTH) {
      out += "?=\n =?UTF-8?q?";
      length = "UTF-8".length + 5 + 1;
    }
    out += encoded;
    length += encoded.length;
  }
  return `${out}?=`;
}

/**
 * utf8.c `strbuf_add_wrapped_text` as pretty.c calls it for a header: the text from column `start`, broken at its
 * spaces into lines of at most `width` columns, each after the first indented by one space.
 */
function wrapped(text: string, start: number, width: number): string {
  let out = "";
  let column = start;
  let first = true;
  for (const word of text.split(" ")) {
    const needed = (first ? 0 : 1) + word.length;
    // A word that would end past the width starts the next line, even the first (git breaks before it too).
    if (column + needed > width && (!first || start > 0)) {
      out += `\n ${word}`;
      column = 1 + word.length;
    } else {
      out += `${first ? "" : " "}${word}`;
      column += needed;
    }
    first = false;
  }
  return out;
}

/** pretty.c `needs_rfc822_quoting`: a name holding one of RFC 822's specials is written in double quotes. */
const RFC822_SPECIALS = /[()<>@,;:\\".[\]]/;

function fromLine(person: GitPerson): string {
  const head = "From: ";
  const encoded = needsRfc2047(person.name);
  let name: string;
  if (encoded) name = rfc2047(person.name, head.length, true);
  else if (RFC822_SPECIALS.test(person.name))
    name = wrapped(`"${person.name.replace(/[\\"]/g, (c) => `\\${c}`)}"`, head.length, HEADER_WIDTH);
  else name = wrapped(person.name, head.length, HEADER_WIDTH);
  const lastLine = name.slice(name.lastIndexOf("\n") + 1);
  const lastLength = (name.includes("\n") ? 0 : head.length) + lastLine.length;
  const address = ` <${person.email}>`;
  const limit = encoded ? ENCODED_WIDTH : HEADER_WIDTH;
  return `${head}${name}${lastLength + address.length > limit ? "\n" : ""}${address}\n`;
}

/** A message's subject (its first paragraph, on one line) and the rest, as pretty.c `format_subject` splits it. */
function splitMessage(message: string): { subject: string; body: string } {
  const lines = message.replace(/\r\n/g, "\n").split("\n");
  let i = 0;
  while (i < lines.length && lines[i]!.trim() === "") i++;
  const subject: string[] = [];
  while (i < lines.length && lines[i]!.trim() !== "") subject.push(lines[i++]!.trimEnd());
  while (i < lines.length && lines[i]!.trim() === "") i++;
  const rest = lines.slice(i);
  while (rest.length > 0 && rest.at(-1)!.trim() === "") rest.pop();
  return { subject: subject.join(" "), body: rest.map((line) => line.trimEnd()).join("\n") };
}

function message(commit: PatchedCommit, number: number, count: number): string {
  const { author } = commit.fields;
  const { subject, body } = splitMessage(commit.fields.message);
  const prefix = `Subject: ${count > 1 ? `[PATCH ${number}/${count}]` : "[PATCH]"} `;
  const title = needsRfc2047(subject)
    ? rfc2047(subject, prefix.length, false)
    : wrapped(subject, prefix.length, HEADER_WIDTH);
  const mime = NON_ASCII.test(commit.fields.message)
    ? "MIME-Version: 1.0\nContent-Type: text/plain; charset=UTF-8\nContent-Transfer-Encoding: 8bit\n"
    : "";
  return [
    `From ${commit.sha} Mon Sep 17 00:00:00 2001\n`,
    fromLine(author),
    `Date: ${rfc2822Date(author)}\n`,
    `${prefix}${title}\n`,
    mime,
    "\n",
    body === "" ? "" : `${body}\n`,
    "---\n",
    diffstat(commit.files),
    "\n",
    unifiedDiff(commit.files),
  ].join("");
}

/** The commits, oldest first, as one mbox: `[PATCH]` alone, `[PATCH n/m]` for more than one. */
export function formatPatch(commits: readonly PatchedCommit[]): string {
  return commits.map((commit, i) => message(commit, i + 1, commits.length)).join("\n");
}
