/**
 * Validates event and issue-event envelopes and turns them into store inserts plus the relations they imply.
 * Payloads are never validated: they are kept verbatim (real history fails today's payload schemas).
 */
import type { EventInsert, EventText, IngestBatch, IssueEventInsert } from "../store/store.js";
import { fail, isObject, REPO_NAME, type Json } from "./input-checks.js";
import { isoSeconds } from "../convert/time.js";

/**
 * The repo GitHub gave events that concern no repository (2012's GistEvent, FollowEvent, TeamAddEvent):
 * `{"url": "https://api.github.com/repos//", "name": "/"}`, recorded in pygithub's user and org feeds. Such an
 * event is kept with no repository (and its `repo` as sent) rather than refused: real history holds them.
 */
const NO_REPO = "/";
/** Ids fit SQLite's and PostgreSQL's 64-bit integers. */
const ID = /^[0-9]{1,18}$/;

function idOf(value: unknown, where: string): string {
  const text = typeof value === "number" && Number.isSafeInteger(value) && value >= 0 ? String(value) : value;
  if (typeof text !== "string" || !ID.test(text)) fail(`${where}.id`, "must be a string of digits");
  return text;
}

function loginOf(value: unknown, where: string): string {
  if (!isObject(value)) fail(where, "must be an object with a login");
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  if (typeof value.login !== "string" || value.login.trim() === "" || /[/\s\x00-\x1f\x7f]/.test(value.login)) {
    fail(`${where}.login`, "must be a non-empty string without slashes or spaces");
  }
  return value.login;
}

function timeOf(value: unknown, where: string): Date {
  const time = typeof value === "string" ? new Date(value) : null;
  if (!time || Number.isNaN(time.getTime()) || !/^\d{4}-\d{2}-\d{2}T/.test(value as string)) {
    fail(`${where}.created_at`, "must be an ISO 8601 time such as 2012-10-05T15:03:11Z");
  }
  return time;
}

const externalId = (value: Json): number | undefined =>
  typeof value.id === "number" && Number.isSafeInteger(value.id) ? value.id : undefined;

/** An account object is complete when it has what GitHub always sends: id, login, url and avatar_url. */
const completeAccount = (value: Json) =>
  typeof value.id === "number" && typeof value.url === "string" && typeof value.avatar_url === "string";

/** @typeParam Body what the event's body is: text, unless parseEvent was given the line's bytes. */
export interface ParsedEvent<Body extends EventText = EventText> {
  insert: EventInsert & { body: Body };
  /** The relations this event implies, to merge into the batch. */
  relations: Pick<IngestBatch, "accounts" | "repos" | "collaborators" | "watches">;
}

/**
 * Checks an event's envelope and derives its relations:
 * WatchEvent -> the actor watches the repository; ForkEvent -> the forkee joins the repository's network;
 * MemberEvent -> the member becomes (or stops being) a collaborator; `public: false` -> the repository is
 * private; PublicEvent -> it became public; `org` -> the account is an organization.
 * @param raw the event's original text (or its UTF-8 bytes, without the whitespace around it): stored as is when the
 * envelope is complete.
 */
export function parseEvent(value: unknown, where: string, raw?: string): ParsedEvent<string>;
export function parseEvent(value: unknown, where: string, raw?: EventText): ParsedEvent;
export function parseEvent(value: unknown, where: string, raw?: EventText): ParsedEvent {
  if (!isObject(value)) fail(where, "must be a JSON object");
  const id = idOf(value.id, where);
  if (typeof value.type !== "string" || !/^[A-Za-z]+$/.test(value.type))
    fail(`${where}.type`, "must be an event type such as PushEvent");
  const actorLogin = loginOf(value.actor, `${where}.actor`);
  const actor = value.actor as Json;
  if (
    !isObject(value.repo) ||
    typeof value.repo.name !== "string" ||
    !(REPO_NAME.test(value.repo.name) || value.repo.name === NO_REPO)
  ) {
    fail(`${where}.repo.name`, 'must be "owner/name"');
  }
  const repo = value.repo;
  const repoName = repo.name === NO_REPO ? null : (repo.name as string);
  if (value.payload !== undefined && !isObject(value.payload)) fail(`${where}.payload`, "must be an object");
  if (value.public !== undefined && typeof value.public !== "boolean") fail(`${where}.public`, "must be true or false");
  const createdAt = timeOf(value.created_at, where);
  const orgLogin = value.org === undefined || value.org === null ? null : loginOf(value.org, `${where}.org`);
  const isPublic = value.public !== false;

  const complete =
    typeof value.id === "string" &&
    value.payload !== undefined &&
    value.public !== undefined &&
    completeAccount(actor) &&
    (repoName === null || (typeof repo.id === "number" && typeof repo.url === "string")) &&
    (orgLogin === null || completeAccount(value.org as Json));
  const payload = value.payload;

  const relations: ParsedEvent["relations"] = {
    accounts: [{ source: where, login: actorLogin, type: "User", externalId: externalId(actor) }],
    repos:
      repoName === null
        ? []
        : [{ source: where, fullName: repoName, externalId: externalId(repo), ...(isPublic ? {} : { private: true }) }],
    collaborators: [],
    watches: [],
  };
  if (orgLogin !== null) {
    relations.accounts.push({
      source: where,
      login: orgLogin,
      type: "Organization",
      externalId: externalId(value.org as Json),
    });
  }
  const p = isObject(payload) ? payload : {};
  if (repoName !== null) {
    if (value.type === "PublicEvent") relations.repos.push({ source: where, fullName: repoName, private: false });
    if (value.type === "WatchEvent") relations.watches.push({ source: where, user: actorLogin, repo: repoName });
    if (
      value.type === "ForkEvent" &&
      isObject(p.forkee) &&
      typeof p.forkee.full_name === "string" &&
      REPO_NAME.test(p.forkee.full_name)
    ) {
      relations.repos.push({
        source: where,
        fullName: p.forkee.full_name,
        forkOf: repoName,
        externalId: externalId(p.forkee),
      });
    }
    if (value.type === "MemberEvent" && isObject(p.member) && typeof p.member.login === "string") {
      const remove = p.action === "removed" || p.action === "deleted";
      relations.collaborators.push({ source: where, repo: repoName, user: p.member.login, remove });
    }
  }

  return {
    insert: {
      source: where,
      id,
      type: value.type,
      actorLogin,
      repoName,
      orgLogin,
      public: isPublic,
      createdAt,
      complete,
      body:
        complete && raw !== undefined
          ? typeof raw === "string"
            ? raw.trim()
            : raw
          : normalizedBody(value, id, isPublic),
    },
    relations,
  };
}

/** An incomplete event's body, in GitHub's key order (wire notes 2.2); anything else it carries follows, as given. */
function normalizedBody(value: Json, id: string, isPublic: boolean): string {
  const { id: _id, type, actor, repo, payload, public: _p, created_at, org, ...rest } = value;
  return JSON.stringify({
    id,
    type,
    actor,
    repo,
    payload: payload ?? {},
    public: isPublic,
    created_at,
    ...(org ? { org } : {}),
    ...rest,
  });
}

/**
 * The event with `created_at` set to `now` (GitHub's form, whole seconds) when it has none: `POST /admin/events`
 * takes events as they happen, and an event that does not say when it happened happened as it arrives. A
 * `created_at` that is given, even null or malformed, is left for parseEvent to judge.
 */
export function createdNowUnlessSaid(value: unknown, now: Date): unknown {
  return isObject(value) && value.created_at === undefined ? { ...value, created_at: isoSeconds(now) } : value;
}

/** Checks an issue event of the world file; its `repo` key says where it belongs and is not kept. */
export function parseIssueEvent(value: unknown, where: string): IssueEventInsert {
  if (!isObject(value)) fail(where, "must be a JSON object");
  const { repo, ...event } = value;
  if (typeof repo !== "string" || !REPO_NAME.test(repo)) fail(`${where}.repo`, 'must be "owner/name"');
  const id = idOf(value.id, where);
  if (typeof value.event !== "string" || value.event === "")
    fail(`${where}.event`, "must be an issue event kind such as closed");
  const actorLogin = value.actor === null || value.actor === undefined ? null : loginOf(value.actor, `${where}.actor`);
  const createdAt = timeOf(value.created_at, where);
  const issue = value.issue;
  if (
    !isObject(issue) ||
    typeof issue.title !== "string" ||
    !Number.isInteger(issue.number) ||
    typeof issue.state !== "string"
  ) {
    fail(`${where}.issue`, "must be an object with title (string), number (integer) and state (string)");
  }
  const complete = actorLogin === null || completeAccount(value.actor as Json);
  return {
    source: where,
    id,
    repoName: repo,
    actorLogin,
    createdAt,
    complete,
    body: JSON.stringify({ ...event, id }),
  };
}

/** An empty batch to fill. */
export function emptyBatch(): IngestBatch {
  return {
    accounts: [],
    memberships: [],
    repos: [],
    collaborators: [],
    follows: [],
    watches: [],
    tokens: [],
    events: [],
    issueEvents: [],
  };
}

/** Adds a parsed event and its relations to a batch. */
export function addEvent(batch: IngestBatch, parsed: ParsedEvent): void {
  batch.accounts.push(...parsed.relations.accounts);
  batch.repos.push(...parsed.relations.repos);
  batch.collaborators.push(...parsed.relations.collaborators);
  batch.watches.push(...parsed.relations.watches);
  batch.events.push(parsed.insert);
}
