/**
 * GitHub's issue search syntax (https://docs.github.com/search-github/searching-on-github/searching-issues-and-pull-requests),
 * parsed into what the store filters on. Served: `repo:`, `org:`, `user:`, `is:` and `type:` (issue, pr, open,
 * closed, locked, unlocked), `state:`, `label:` (each one must be on the issue), `author:`, `assignee:`, `mentions:`,
 * `milestone:`, `no:` (label, assignee, milestone), `in:` (title, body, comments), `created:`/`updated:`/`closed:` with
 * `>`, `>=`, `<`, `<=` or a `..` range, and words (every one must appear), quoted phrases included. A qualifier GitHub
 * knows that feedgate does not serve is refused by name, never ignored; a `word:word` GitHub does not know is text, as on
 * GitHub. No Fastify and no SQL.
 */
import { InvalidInputError } from "../../failures.js";

export type TimeField = "created" | "updated" | "closed";

/** A time bound: `after`/`before` as instants, each inclusive or not. */
export interface TimeRange {
  field: TimeField;
  from?: { at: Date; inclusive: boolean };
  to?: { at: Date; inclusive: boolean };
}

export interface IssueQuery {
  repos: { owner: string; name: string }[];
  /** `org:` and `user:`: repositories these accounts own. */
  owners: string[];
  kind: "issue" | "pr" | null;
  state: "open" | "closed" | null;
  locked: boolean | null;
  labels: string[];
  author: string | null;
  assignee: string | null;
  mentions: string | null;
  milestone: string | null;
  without: ("label" | "assignee" | "milestone")[];
  /** Where words are looked for: the title and body unless `in:` says otherwise. */
  in: ("title" | "body" | "comments")[];
  words: string[];
  times: TimeRange[];
}

/** Qualifiers GitHub's issue search knows that feedgate does not serve: each is refused by name. */
const NOT_SERVED = new Set([
  "commenter",
  "involves",
  "team",
  "project",
  "status",
  "head",
  "base",
  "language",
  "comments",
  "interactions",
  "reactions",
  "draft",
  "review",
  "reviewed-by",
  "review-requested",
  "user-review-requested",
  "team-review-requested",
  "merged",
  "archived",
  "linked",
  "reason",
  "sort",
  "parent-issue",
  "sub-issue",
  "blocking",
  "blocked-by",
  "has",
  "repo-visibility",
  "visibility",
  "fork",
]);
const SERVED = new Set([
  "repo",
  "org",
  "user",
  "is",
  "type",
  "state",
  "label",
  "author",
  "assignee",
  "mentions",
  "milestone",
  "no",
  "in",
  "created",
  "updated",
  "closed",
]);

/** GitHub's refusal of a query, as its search answers it: 422 naming what it could not take. */
export class QueryRefused extends InvalidInputError {
  override name = "QueryRefused";
  constructor(problem: string) {
    super(problem, { field: "q", code: "invalid" });
  }
}

/** The query's terms: words, `"quoted phrases"` and `key:value` (whose value may be quoted), split on whitespace. */
function terms(q: string): string[] {
  return [...q.matchAll(/(?:[^\s"]+:)?"[^"]*"|[^\s]+/g)].map((m) => m[0]);
}

const unquoted = (value: string) => value.replace(/^"(.*)"$/, "$1");

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?(Z|[+-]\d{2}:\d{2})?$/;

/** A date (a whole UTC day) or an instant; `end` asks for the day's end, for an upper bound on a date. */
function instant(text: string, end: boolean, key: string): Date {
  if (DAY.test(text)) {
    const start = new Date(`${text}T00:00:00Z`);
    if (!Number.isNaN(start.getTime())) return end ? new Date(start.getTime() + 86_400_000 - 1) : start;
  } else if (INSTANT.test(text)) {
    const at = new Date(text);
    if (!Number.isNaN(at.getTime())) return at;
  }
  throw new QueryRefused(`${key}:${text} is not a date (YYYY-MM-DD) or a time (YYYY-MM-DDTHH:MM:SSZ)`);
}

function timeRange(field: TimeField, value: string): TimeRange {
  const key = field;
  const range = value.match(/^(.+)\.\.(.+)$/);
  if (range) {
    const [, from, to] = range as unknown as [string, string, string];
    return {
      field,
      ...(from === "*" ? {} : { from: { at: instant(from, false, key), inclusive: true } }),
      ...(to === "*" ? {} : { to: { at: instant(to, true, key), inclusive: true } }),
    };
  }
  const compared = value.match(/^(>=|<=|>|<)(.+)$/);
  if (compared) {
    const [, op, text] = compared as unknown as [string, string, string];
    if (op === ">") return { field, from: { at: instant(text, true, key), inclusive: false } };
    if (op === ">=") return { field, from: { at: instant(text, false, key), inclusive: true } };
    if (op === "<") return { field, to: { at: instant(text, false, key), inclusive: false } };
    return { field, to: { at: instant(text, true, key), inclusive: true } };
  }
  return {
    field,
    from: { at: instant(value, false, key), inclusive: true },
    to: { at: instant(value, true, key), inclusive: true },
  };
}

export function parseIssueQuery(q: string): IssueQuery {
  const query: IssueQuery = {
    repos: [],
    owners: [],
    kind: null,
    state: null,
    locked: null,
    labels: [],
    author: null,
    assignee: null,
    mentions: null,
    milestone: null,
    without: [],
    in: [],
    words: [],
    times: [],
  };
  for (const term of terms(q)) {
    const qualified = term.match(/^(-?)([a-z][a-z-]*):(.+)$/);
    const key = qualified?.[2];
    if (!qualified || key === undefined || !(SERVED.has(key) || NOT_SERVED.has(key))) {
      const word = unquoted(term).trim();
      if (word) query.words.push(word);
      continue;
    }
    if (qualified[1] === "-") throw new QueryRefused(`-${key}: excluding results is not served by feedgate`);
    if (NOT_SERVED.has(key)) throw new QueryRefused(`the qualifier ${key}: is not served by feedgate`);
    const value = unquoted(qualified[3]!);
    apply(query, key, value);
  }
  if (query.in.length === 0) query.in = ["title", "body"];
  return query;
}

function apply(query: IssueQuery, key: string, value: string): void {
  const lower = value.toLowerCase();
  switch (key) {
    case "repo": {
      const [owner, name, ...rest] = value.split("/");
      if (!owner || !name || rest.length) throw new QueryRefused(`repo:${value} is not owner/name`);
      query.repos.push({ owner, name });
      return;
    }
    case "org":
    case "user":
      query.owners.push(value);
      return;
    case "is":
    case "type":
      if (lower === "issue" || lower === "pr" || lower === "pull-request")
        query.kind = lower === "issue" ? "issue" : "pr";
      else if (key === "is" && (lower === "open" || lower === "closed")) query.state = lower;
      else if (key === "is" && (lower === "locked" || lower === "unlocked")) query.locked = lower === "locked";
      else throw new QueryRefused(`${key}:${value} is not served by feedgate`);
      return;
    case "state":
      if (lower !== "open" && lower !== "closed") throw new QueryRefused(`state:${value} must be open or closed`);
      query.state = lower;
      return;
    case "label":
      query.labels.push(...value.split(",").filter(Boolean));
      return;
    case "author":
      query.author = value;
      return;
    case "assignee":
      query.assignee = value;
      return;
    case "mentions":
      query.mentions = value;
      return;
    case "milestone":
      query.milestone = value;
      return;
    case "no":
      if (lower !== "label" && lower !== "assignee" && lower !== "milestone")
        throw new QueryRefused(`no:${value} is not served by feedgate`);
      query.without.push(lower);
      return;
    case "in":
      for (const where of lower.split(",")) {
        if (where !== "title" && where !== "body" && where !== "comments")
          throw new QueryRefused(`in:${value} must be title, body or comments`);
        if (!query.in.includes(where)) query.in.push(where);
      }
      return;
    default:
      query.times.push(timeRange(key as TimeField, value));
  }
}
