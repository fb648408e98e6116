/**
 * An event as one sentence ("alice pushed 3 commits to bob/tools"), made of segments: plain text, or a link to the
 * console's page of the account or repository it names. Segments, not HTML: the page renders them with the escaping
 * `html` tag, the live stream sends them as JSON that console.js renders with textContent. Payloads are stored
 * verbatim (never validated), so every field is read defensively and only ever becomes text.
 */

export type Segment = string | { text: string; href: string };

type Json = Record<string, unknown>;

const object = (value: unknown): Json =>
  value && typeof value === "object" && !Array.isArray(value) ? (value as Json) : {};
const text = (value: unknown): string | null => (typeof value === "string" && value !== "" ? value : null);
/** An issue or pull request number, only when it is one (a payload could hold anything). */
const number = (value: unknown): string | null =>
  typeof value === "number" && Number.isSafeInteger(value)
    ? String(value)
    : typeof value === "string" && /^[0-9]{1,12}$/.test(value)
      ? value
      : null;

const segment = (path: string, label: string): Segment => ({ text: label, href: path });
export const userHref = (login: string) => `/console/users/${encodeURIComponent(login)}`;
export const orgHref = (login: string) => `/console/orgs/${encodeURIComponent(login)}`;
export function repoHref(fullName: string): string | null {
  const slash = fullName.indexOf("/");
  if (slash <= 0 || slash === fullName.length - 1) return null;
  return `/console/repos/${encodeURIComponent(fullName.slice(0, slash))}/${encodeURIComponent(fullName.slice(slash + 1))}`;
}

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** What each type says between the actor and the end: a list of segments with `repo` standing for the repository. */
type Phrase = (payload: Json, repo: Segment) => Segment[];

/** "issue #12" or "pull request #12" (an issue comment on a pull request is one, as on GitHub). */
function issueLabel(issue: Json, forcePull = false): string {
  const n = number(issue.number);
  const kind = forcePull || issue.pull_request ? "pull request" : "issue";
  return n ? `${kind} #${n}` : kind === "issue" ? "an issue" : "a pull request";
}

const COMMENT_VERBS: Record<string, string> = {
  created: "commented on",
  edited: "edited a comment on",
  deleted: "deleted a comment on",
};
const PULL_VERBS: Record<string, string> = {
  synchronize: "updated",
  review_requested: "requested a review on",
  review_request_removed: "removed a review request from",
  ready_for_review: "marked as ready for review",
  converted_to_draft: "converted to draft",
};

const PHRASES: Record<string, Phrase> = {
  PushEvent: (p, repo) => {
    const size = typeof p.size === "number" ? p.size : Array.isArray(p.commits) ? p.commits.length : null;
    return size === null ? ["pushed to ", repo] : [`pushed ${plural(size, "commit", "commits")} to `, repo];
  },
  WatchEvent: (_p, repo) => ["starred ", repo],
  ForkEvent: (_p, repo) => ["forked ", repo],
  PublicEvent: (_p, repo) => ["made ", repo, " public"],
  IssuesEvent: (p, repo) => [`${text(p.action) ?? "updated"} ${issueLabel(object(p.issue))} in `, repo],
  IssueCommentEvent: (p, repo) => [
    `${COMMENT_VERBS[text(p.action) ?? "created"] ?? "commented on"} ${issueLabel(object(p.issue))} in `,
    repo,
  ],
  PullRequestEvent: (p, repo) => {
    const action = text(p.action) ?? "updated";
    const merged = action === "closed" && object(p.pull_request).merged === true;
    const pull = issueLabel({ number: p.number ?? object(p.pull_request).number }, true);
    return [`${merged ? "merged" : (PULL_VERBS[action] ?? action)} ${pull} in `, repo];
  },
  PullRequestReviewEvent: (p, repo) => [
    `${text(p.action) === "dismissed" ? "dismissed a review of" : "reviewed"} ${issueLabel(object(p.pull_request), true)} in `,
    repo,
  ],
  PullRequestReviewCommentEvent: (p, repo) => [
    `${COMMENT_VERBS[text(p.action) ?? "created"] ?? "commented on"} the code of ${issueLabel(object(p.pull_request), true)} in `,
    repo,
  ],
  CreateEvent: (p, repo) => {
    const kind = text(p.ref_type) ?? "repository";
    const ref = text(p.ref);
    return kind === "repository" || !ref ? [`created ${kind} `, repo] : [`created ${kind} ${ref} in `, repo];
  },
  DeleteEvent: (p, repo) => {
    const ref = text(p.ref);
    return [`deleted ${text(p.ref_type) ?? "ref"} ${ref ? `${ref} ` : ""}in `, repo];
  },
  ReleaseEvent: (p, repo) => {
    const release = object(p.release);
    const name = text(release.tag_name) ?? text(release.name);
    return [`${text(p.action) ?? "published"} release ${name ? `${name} ` : ""}in `, repo];
  },
  CommitCommentEvent: (p, repo) => {
    const commit = text(object(p.comment).commit_id);
    return [`commented on ${commit ? `commit ${commit.slice(0, 7)}` : "a commit"} in `, repo];
  },
  GollumEvent: (p, repo) => {
    const pages = Array.isArray(p.pages) ? p.pages.length : 0;
    return [`updated ${pages ? plural(pages, "wiki page", "wiki pages") : "the wiki"} in `, repo];
  },
  MemberEvent: (p, repo) => {
    const login = text(object(p.member).login);
    const member: Segment = login ? segment(userHref(login), login) : "a collaborator";
    const action = text(p.action) ?? "added";
    if (action === "removed") return ["removed ", member, " as a collaborator from ", repo];
    if (action === "edited") return ["changed the permissions of ", member, " on ", repo];
    return ["added ", member, " as a collaborator to ", repo];
  },
  SponsorshipEvent: (p, repo) => [`${text(p.action) ?? "changed"} a sponsorship in `, repo],
};

/** A type with no phrase of its own: still a sentence, with its type. */
const generic =
  (type: string): Phrase =>
  (_p, repo) => [`caused a ${type} in `, repo];

/**
 * The sentence of an event as the API returns it (a completed envelope: `actor.login`, `repo.name`). Its actor and
 * repository are links; a repository GitHub records as `/` (none) reads as "a repository".
 */
export function eventSentence(event: unknown): Segment[] {
  const e = object(event);
  const type = text(e.type) ?? "Event";
  const login = text(object(e.actor).login);
  const name = text(object(e.repo).name);
  const href = name ? repoHref(name) : null;
  const repo: Segment = name && href ? segment(href, name) : "a repository";
  const actor: Segment = login ? segment(userHref(login), login) : "someone";
  return [actor, " ", ...(PHRASES[type] ?? generic(type))(object(e.payload), repo)];
}

/** The sentence as plain text, as a reader (or a test) sees it. */
export const sentenceText = (segments: Segment[]) => segments.map((s) => (typeof s === "string" ? s : s.text)).join("");

/** The types the console words itself, for the type filter. */
export const EVENT_TYPES: readonly string[] = Object.keys(PHRASES).sort();
