/**
 * Git's object model, byte for byte: the SHA-1 of an object as `git hash-object` computes it, and the bodies of
 * trees, commits and annotated tags as git writes and reads them. Pure: no I/O, so every SHA can be checked against
 * git itself (tests/unit/git/) and the store keeps objects as git would.
 */
import { createHash } from "node:crypto";
import { FeedgateFailure } from "../failures.js";

export type GitObjectType = "blob" | "tree" | "commit" | "tag";

/** What a tree entry points at: a file's bytes, a directory, or a submodule's commit (in another repository). */
export type TreeEntryType = "blob" | "tree" | "commit";

/**
 * The modes git writes in trees, as GitHub's API spells them (https://docs.github.com/rest/git/trees): file,
 * executable, directory, symlink, submodule. Git writes a directory as "40000" inside the object; the API shows
 * "040000", so that is the form everything outside encodeTree and decodeTree sees.
 */
export const GIT_MODES = ["100644", "100755", "040000", "120000", "160000"] as const;
export type GitMode = (typeof GIT_MODES)[number];

export interface TreeEntry {
  mode: GitMode;
  name: string;
  sha: string;
}

/** `tree <sha>` of a tree with no entries: git knows it without storing it, and so may a repository with no files. */
export const EMPTY_TREE_SHA = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";

export const SHA_PATTERN = /^[0-9a-f]{40}$/;

export const isSha = (value: string): boolean => SHA_PATTERN.test(value);

export const isGitMode = (value: string): value is GitMode => (GIT_MODES as readonly string[]).includes(value);

/** The one mode-to-type rule: a mode says what its entry points at, so a request's `type` must agree with it. */
export function entryType(mode: GitMode): TreeEntryType {
  return mode === "040000" ? "tree" : mode === "160000" ? "commit" : "blob";
}

/** What GitHub's git-data APIs answer 422 for: input the caller can fix. `kind` tells the refusals apart. */
export type GitInputKind =
  | "invalid-path"
  | "invalid-mode"
  | "invalid-sha"
  | "invalid-person"
  | "invalid-header"
  | "invalid-tag-name"
  | "duplicate-path"
  | "path-through-file"
  | "missing-path"
  | "delete-directory"
  | "missing-tree";

export class GitInputError extends FeedgateFailure {
  override name = "GitInputError";

  constructor(
    readonly kind: GitInputKind,
    problem: string,
    /** The repository path (or tree entry name) refused, when there is one. */
    readonly path?: string,
  ) {
    super(path === undefined ? problem : `${path} ${problem}`);
  }
}

/**
 * A stored object that is not what git would have written, or a tree that names a tree the store does not hold:
 * the store is damaged, nothing the caller can fix (a 500, not a FeedgateFailure).
 */
export class GitObjectError extends Error {
  override name = "GitObjectError";

  constructor(
    message: string,
    readonly sha?: string,
  ) {
    super(message);
  }
}

/** Git's object id: SHA-1 of `"<type> <length>\0"` followed by the body (git's object-file.c, hash_object_file). */
export function hashObject(type: GitObjectType, body: Uint8Array): string {
  return createHash("sha1").update(`${type} ${body.length}\0`).update(body).digest("hex");
}

/**
 * One name of a repository path. Git refuses to check out "." and "..", and ".git" in any case ("`.GIT`
 * everywhere out of an abundance of caution", git's read-cache.c verify_dotfile), and since CVE-2014-9390 GitHub
 * refuses pushes whose trees hold `.git`. A NUL would end the name inside a tree object, and "/" would make it two.
 */
export function isPathSegment(segment: string): boolean {
  return (
    segment.length > 0 &&
    segment !== "." &&
    segment !== ".." &&
    segment.toLowerCase() !== ".git" &&
    !segment.includes("/") &&
    !segment.includes("\0")
  );
}

/**
 * A repository path (`src/a.ts`) as its names, or null when git could not store it: empty, a leading or trailing
 * "/", an empty name (`a//b`), or a name isPathSegment refuses. The caller answers null with GitHub's 422.
 */
export function pathSegments(path: string): string[] | null {
  const segments = path.split("/");
  return segments.every(isPathSegment) ? segments : null;
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

function decodeUtf8(bytes: Uint8Array, what: string): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw new GitObjectError(`${what} is not UTF-8`);
  }
}

/**
 * The bytes git sorts a tree by: its name, with a "/" after a directory's (git's read-cache.c base_name_compare), so
 * `a-b` (0x2d) comes before a directory `a` and a file `a` before `a-b`.
 */
const sortKey = (entry: TreeEntry): Buffer => Buffer.from(entry.mode === "040000" ? `${entry.name}/` : entry.name);

/** Entries in git's tree order; the same order a recursive listing and a diff walk in. */
export function sortTreeEntries(entries: readonly TreeEntry[]): TreeEntry[] {
  return entries
    .map((entry) => ({ entry, key: sortKey(entry) }))
    .sort((a, b) => Buffer.compare(a.key, b.key))
    .map(({ entry }) => entry);
}

/** Git's mode inside a tree object: octal with no leading zero (`%o` in git's cache-tree.c and mktree.c). */
const objectMode = (mode: GitMode): string => (mode === "040000" ? "40000" : mode);

/**
 * A tree object's body: `<mode> <name>\0<20 raw bytes of sha>` per entry, in git's order (entries may come in any
 * order). Two entries of one name are refused: git's fsck calls that `duplicateEntries` and checkout could not
 * write both.
 */
export function encodeTree(entries: readonly TreeEntry[]): Buffer {
  const names = new Set<string>();
  for (const entry of entries) {
    if (!isPathSegment(entry.name))
      throw new GitInputError("invalid-path", "is not a valid tree entry name", entry.name);
    if (!isGitMode(entry.mode))
      throw new GitInputError("invalid-mode", `mode ${entry.mode} is not a git mode`, entry.name);
    if (!isSha(entry.sha)) throw new GitInputError("invalid-sha", "sha is not 40 hexadecimal digits", entry.name);
    if (names.has(entry.name)) throw new GitInputError("duplicate-path", "is in the tree twice", entry.name);
    names.add(entry.name);
  }
  return Buffer.concat(
    sortTreeEntries(entries).flatMap((entry) => [
      Buffer.from(`${objectMode(entry.mode)} ${entry.name}\0`),
      Buffer.from(entry.sha, "hex"),
    ]),
  );
}

const SPACE = 0x20;
const NUL = 0x00;

/** A tree object's entries, in its order, with modes in the API's form. */
export function decodeTree(body: Uint8Array): TreeEntry[] {
  const bytes = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  const entries: TreeEntry[] = [];
  for (let at = 0; at < bytes.length; ) {
    const space = bytes.indexOf(SPACE, at);
    const nul = space === -1 ? -1 : bytes.indexOf(NUL, space + 1);
    if (nul === -1 || nul + 21 > bytes.length) throw new GitObjectError("tree entry is cut short");
    const rawMode = bytes.toString("latin1", at, space);
    const mode = rawMode === "40000" ? "040000" : rawMode;
    // "040000" inside the object is not git's (fsck: zeroPaddedFilemode), nor is a legacy mode such as 100664.
    if (rawMode === "040000" || !isGitMode(mode)) throw new GitObjectError(`tree mode ${rawMode} is not git's`);
    const name = decodeUtf8(bytes.subarray(space + 1, nul), "tree entry name");
    if (name.length === 0) throw new GitObjectError("tree entry has an empty name");
    entries.push({ mode, name, sha: bytes.toString("hex", nul + 1, nul + 21) });
    at = nul + 21;
  }
  return entries;
}

/** A commit's author or committer, a tag's tagger: git keeps the offset the person's clock had, not just the instant. */
export interface GitPerson {
  name: string;
  email: string;
  date: Date;
  /** Minutes east of UTC (`+1200` is 720). -0 writes git's `-0000` (an unknown zone), so decoding keeps it. */
  offsetMinutes: number;
}

/** `Name <email> <unix-seconds> <+hhmm>`, as git's ident.c fmt_ident writes it. */
function encodePerson(person: GitPerson): string {
  // Git's fsck (badName, badEmail) refuses "<" and ">" in either, and a newline would end the header.
  const crud = /[<>\n\0]/;
  if (crud.test(person.name) || crud.test(person.email))
    throw new GitInputError("invalid-person", "a name or email may not hold <, >, a newline or NUL");
  const seconds = Math.floor(person.date.getTime() / 1000);
  const offset = person.offsetMinutes;
  if (!Number.isSafeInteger(seconds) || seconds < 0)
    throw new GitInputError("invalid-person", "a date must be a valid time after 1970");
  if (!Number.isInteger(offset) || Math.abs(offset) > 99 * 60 + 59)
    throw new GitInputError("invalid-person", "a time zone offset must be whole minutes within ±99:59");
  const sign = offset < 0 || Object.is(offset, -0) ? "-" : "+";
  const hhmm = `${Math.floor(Math.abs(offset) / 60)}`.padStart(2, "0") + `${Math.abs(offset) % 60}`.padStart(2, "0");
  return `${person.name} <${person.email}> ${seconds} ${sign}${hhmm}`;
}

const PERSON_LINE = /^([^<>\n]*) <([^<>\n]*)> (\d+) ([+-])(\d{2})(\d{2})$/;

function decodePerson(text: string, what: string): GitPerson {
  const match = PERSON_LINE.exec(text);
  if (!match) throw new GitObjectError(`${what} is not "name <email> seconds ±hhmm"`);
  const [, name, email, seconds, sign, hours, minutes] = match;
  const magnitude = Number(hours) * 60 + Number(minutes);
  return {
    name: name!,
    email: email!,
    date: new Date(Number(seconds) * 1000),
    offsetMinutes: sign === "-" ? -magnitude : magnitude,
  };
}

const API_DATE = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})(?:\.\d+)?(?:Z|([+-])(\d{2}):?(\d{2}))$/;

/**
 * A `date` of GitHub's create-a-commit and create-a-tag input (ISO 8601: `2008-07-09T16:13:30+12:00` or `...Z`) as
 * the instant and the offset git stores (`+1200`); null for anything else, which the caller answers 422. Fractions
 * of a second are dropped: git keeps whole seconds.
 */
export function parseApiDate(input: string): { date: Date; offsetMinutes: number } | null {
  const [, day = "", time = "", sign = "+", hours = "00", minutes = "00"] = API_DATE.exec(input) ?? [];
  const wall = new Date(`${day}T${time}Z`);
  // Date rolls February 30 over into March and 24:00 into the next day: a date that does not read back is none.
  if (Number.isNaN(wall.getTime()) || wall.toISOString().slice(0, 19) !== `${day}T${time}`) return null;
  if (Number(hours) > 23 || Number(minutes) > 59) return null;
  const offsetMinutes = (sign === "-" ? -1 : 1) * (Number(hours) * 60 + Number(minutes));
  // "-00:00" is UTC in ISO 8601, not git's unknown zone.
  return { date: new Date(wall.getTime() - offsetMinutes * 60_000), offsetMinutes: offsetMinutes || 0 };
}

/**
 * A person's `date` as GitHub's git-data API answers it: the instant in UTC, whole seconds
 * (`"2014-11-07T22:01:45Z"`, https://docs.github.com/rest/git/commits), whatever offset the object holds.
 */
export const formatApiDate = (person: Pick<GitPerson, "date">): string =>
  person.date.toISOString().replace(/\.\d{3}Z$/, "Z");

/**
 * A header git does not interpret itself, after `committer` in the order written: `gpgsig` (the signature GitHub's
 * create-a-commit `signature` input becomes), `encoding`, `mergetag`. A value of several lines is written with a
 * space before each line after the first, as git's commit.c add_header_signature does.
 */
export interface GitHeader {
  name: string;
  value: string;
}

export interface CommitFields {
  tree: string;
  parents: string[];
  author: GitPerson;
  committer: GitPerson;
  /**
   * Stored exactly as given: git's plumbing (`commit-tree`, `hash-object`) adds no newline and neither does GitHub's
   * create-a-commit, whose messages end without one unless the caller wrote it (isaacs/github#1170).
   */
  message: string;
  headers?: GitHeader[];
}

/** The headers a commit holds in git's fixed order, each once (parents any number of times): never extra. */
const COMMIT_HEADERS = new Set(["tree", "parent", "author", "committer"]);

function encodeHeader(header: GitHeader): string {
  if (!/^[a-z][a-z0-9-]*$/.test(header.name) || COMMIT_HEADERS.has(header.name))
    throw new GitInputError("invalid-header", `${header.name} cannot be an extra header`);
  if (header.value.includes("\0")) throw new GitInputError("invalid-header", `${header.name} may not hold NUL`);
  return `${header.name} ${header.value.replaceAll("\n", "\n ")}\n`;
}

function requireSha(sha: string, what: string): void {
  if (!isSha(sha)) throw new GitInputError("invalid-sha", `${what} is not 40 hexadecimal digits`);
}

/** A commit object's body, as git's commit.c commit_tree_extended writes it. */
export function encodeCommit(fields: CommitFields): Buffer {
  requireSha(fields.tree, "tree");
  for (const parent of fields.parents) requireSha(parent, "parent");
  const head =
    `tree ${fields.tree}\n` +
    fields.parents.map((parent) => `parent ${parent}\n`).join("") +
    `author ${encodePerson(fields.author)}\n` +
    `committer ${encodePerson(fields.committer)}\n` +
    (fields.headers ?? []).map(encodeHeader).join("");
  return Buffer.from(`${head}\n${fields.message}`);
}

/** An object's header lines (continuations joined back) and its message, split at the first empty line. */
function splitObject(body: Uint8Array, what: string): { headers: GitHeader[]; message: string } {
  const text = decodeUtf8(body, what);
  const end = text.indexOf("\n\n");
  if (end === -1) throw new GitObjectError(`${what} has no empty line before its message`);
  const headers: GitHeader[] = [];
  for (const line of text.slice(0, end).split("\n")) {
    const last = headers[headers.length - 1];
    if (line.startsWith(" ") && last) {
      last.value += `\n${line.slice(1)}`;
      continue;
    }
    const space = line.indexOf(" ");
    if (space <= 0) throw new GitObjectError(`${what} header "${line}" has no value`);
    headers.push({ name: line.slice(0, space), value: line.slice(space + 1) });
  }
  return { headers, message: text.slice(end + 2) };
}

/** Takes the next header, which must be `name`; with `optional`, null when it is not. */
function takeHeader(headers: GitHeader[], name: string, what: string, optional = false): string | null {
  if (headers[0]?.name === name) return headers.shift()!.value;
  if (optional) return null;
  throw new GitObjectError(`${what} has no ${name} header where git writes it`);
}

function takeSha(headers: GitHeader[], name: string, what: string): string {
  const sha = takeHeader(headers, name, what)!;
  if (!isSha(sha)) throw new GitObjectError(`${what} ${name} is not a SHA`);
  return sha;
}

export function decodeCommit(body: Uint8Array): CommitFields {
  const { headers, message } = splitObject(body, "commit");
  const tree = takeSha(headers, "tree", "commit");
  const parents: string[] = [];
  while (headers[0]?.name === "parent") parents.push(takeSha(headers, "parent", "commit"));
  const author = decodePerson(takeHeader(headers, "author", "commit")!, "commit author");
  const committer = decodePerson(takeHeader(headers, "committer", "commit")!, "commit committer");
  const fields: CommitFields = { tree, parents, author, committer, message };
  if (headers.some((header) => COMMIT_HEADERS.has(header.name)))
    throw new GitObjectError("commit repeats a header git writes once");
  if (headers.length > 0) fields.headers = headers;
  return fields;
}

export interface TagFields {
  object: string;
  type: GitObjectType;
  tag: string;
  /** The earliest tags have none (git's fsck: missingTaggerEntry), and GitHub's create-a-tag does not require one. */
  tagger: GitPerson | null;
  /** As given, as a commit's (an OpenPGP signature, when there is one, is the message's end). */
  message: string;
}

const OBJECT_TYPES: readonly string[] = ["blob", "tree", "commit", "tag"] satisfies GitObjectType[];

const isObjectType = (value: string): value is GitObjectType => OBJECT_TYPES.includes(value);

/** An annotated tag object's body, as git's builtin/tag.c writes it. */
export function encodeTag(fields: TagFields): Buffer {
  requireSha(fields.object, "object");
  if (!isObjectType(fields.type)) throw new GitInputError("invalid-header", `${fields.type} is not a type`);
  if (fields.tag.length === 0 || /[\n\0]/.test(fields.tag))
    throw new GitInputError("invalid-tag-name", "a tag name must be one line of text");
  const tagger = fields.tagger ? `tagger ${encodePerson(fields.tagger)}\n` : "";
  return Buffer.from(`object ${fields.object}\ntype ${fields.type}\ntag ${fields.tag}\n${tagger}\n${fields.message}`);
}

export function decodeTag(body: Uint8Array): TagFields {
  const { headers, message } = splitObject(body, "tag");
  const object = takeSha(headers, "object", "tag");
  const type = takeHeader(headers, "type", "tag")!;
  if (!isObjectType(type)) throw new GitObjectError(`tag type ${type} is not an object type`);
  const tag = takeHeader(headers, "tag", "tag")!;
  const tagger = takeHeader(headers, "tagger", "tag", true);
  if (headers.length > 0) throw new GitObjectError(`tag has a header git does not write: ${headers[0]!.name}`);
  return {
    object,
    type,
    tag,
    tagger: tagger === null ? null : decodePerson(tagger, "tag tagger"),
    message,
  };
}
