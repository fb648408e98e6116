/**
 * The Store interface: everything the services need from persistence, and nothing about SQL.
 * Asynchronous even though SQLite is synchronous, so that the PostgreSQL driver fits the same interface.
 */
import { DEFAULT_WEBHOOK_MAX_QUEUE } from "../config.js";
import { FeedgateFailure } from "../failures.js";
import type { HookStore } from "./hook-store.js";

export type AccountType = "User" | "Organization";

/** An account: a user (who may log in when it has a password) or an organization. */
export interface UserRow {
  id: number;
  login: string;
  type: AccountType;
  /** The id on the wire: GitHub's id when the account came from imported data, else the row id. */
  wireId: number;
  /** scrypt hash (see services/credentials.ts); null for accounts that cannot log in with a password. */
  passwordHash: string | null;
  /** Base32 TOTP secret; null when two-factor authentication is off. */
  otpSecret: string | null;
  siteAdmin: boolean;
  /** When an administrator suspended the account (`feedgate user disable`); null while it may authenticate. */
  suspendedAt: Date | null;
  createdAt: Date;
}

export interface NewUser {
  login: string;
  passwordHash: string | null;
  otpSecret: string | null;
  siteAdmin: boolean;
}

export interface AuthorizationRow {
  id: number;
  userId: number;
  /** Lowercase hex SHA-256 of the token; the token itself is never stored. */
  hashedToken: string;
  tokenLastEight: string;
  scopes: string[];
  note: string | null;
  noteUrl: string | null;
  fingerprint: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export type NewAuthorization = Omit<AuthorizationRow, "id" | "createdAt" | "updatedAt">;

/** An authorization with its owner's login, for administrators' listings. */
export interface OwnedAuthorization extends AuthorizationRow {
  login: string;
}

/** What deleting an account did. */
export interface AccountDeletion {
  authorizationsDeleted: number;
  /**
   * True when stored history (events, issue events, repositories) names the account: its row then stays, as an
   * account that cannot log in, so that history keeps its actor; otherwise the row is gone too.
   */
  rowKept: boolean;
}

export interface AuthorizationChanges {
  scopes?: string[];
  note?: string | null;
  noteUrl?: string | null;
  fingerprint?: string | null;
}

export interface Page<T> {
  rows: T[];
  total: number;
}

export interface PageRequest {
  limit: number;
  offset: number;
}

export interface UserStore {
  /**
   * Creates a login user, or gives a password to an account known only from imported data. Throws
   * DuplicateError when the login is taken (logins compare case-insensitively, as on GitHub).
   */
  create(user: NewUser): Promise<UserRow>;
  /** Any account: login user, imported actor, or organization. */
  findByLogin(login: string): Promise<UserRow | null>;
  findById(id: number): Promise<UserRow | null>;
  /** Accounts that can log in (they have a password). */
  list(): Promise<UserRow[]>;
  count(): Promise<number>;
  setPassword(id: number, passwordHash: string): Promise<void>;
  /** null turns two-factor authentication off. */
  setOtpSecret(id: number, otpSecret: string | null): Promise<void>;
  /** A time suspends the account, null lifts the suspension. */
  setSuspended(id: number, at: Date | null): Promise<void>;
  /**
   * Deletes a login user in one transaction: its authorizations, follows (both ways), watches, memberships and
   * collaborations, then its row, or only its credentials when history names it (see AccountDeletion). Raises the
   * ingest generation, as feeds depend on those relations.
   */
  delete(id: number): Promise<AccountDeletion>;
}

export interface AuthorizationStore {
  create(authorization: NewAuthorization, now: Date): Promise<AuthorizationRow>;
  /** The user's authorization with that id, or null (another user's id is null too). */
  find(userId: number, id: number): Promise<AuthorizationRow | null>;
  /** The user's authorizations, oldest first. */
  list(userId: number, page: PageRequest): Promise<Page<AuthorizationRow>>;
  /** Applies the changes and moves updated_at; null when the user has no such authorization. */
  update(userId: number, id: number, changes: AuthorizationChanges, now: Date): Promise<AuthorizationRow | null>;
  /** True when a row was deleted. */
  delete(userId: number, id: number): Promise<boolean>;
  /** Candidates for a presented token; the caller compares hashes in constant time. */
  findByTokenLastEight(lastEight: string): Promise<AuthorizationRow[]>;
  /** Every authorization, or one user's, with the owner's login, oldest first: for administrators. */
  listAll(userId?: number): Promise<OwnedAuthorization[]>;
  /** How many authorizations each user holds; users without any are absent. */
  countByUser(): Promise<Map<number, number>>;
  /** Deletes the authorization with that id whoever owns it; the deleted row, or null when there was none. */
  revoke(id: number): Promise<AuthorizationRow | null>;
}

/** A console sign-in session. The id itself is never stored: rows are found by its SHA-256. */
export interface SessionRow {
  idHash: string;
  userId: number;
  /** A digest of the password hash signed in with: a session outlives no password change. */
  credential: string;
  /** False between a two-factor account's password and its code: such a session grants nothing but the code step. */
  verified: boolean;
  createdAt: Date;
  lastSeenAt: Date;
}

export type NewSession = Omit<SessionRow, "createdAt" | "lastSeenAt">;

export interface SessionStore {
  create(session: NewSession, now: Date): Promise<SessionRow>;
  find(idHash: string): Promise<SessionRow | null>;
  /** Moves last_seen_at (the idle expiry's start). */
  touch(idHash: string, now: Date): Promise<void>;
  /** True when a row was deleted. */
  delete(idHash: string): Promise<boolean>;
  /** Deletes sessions idle since before `idleBefore` or created before `createdBefore`; how many. */
  deleteExpired(idleBefore: Date, createdBefore: Date): Promise<number>;
}

export interface RepoRow {
  id: number;
  ownerId: number;
  /** `owner/name`, with the letter case stored. */
  fullName: string;
  private: boolean;
  /** The fork network: the id of the network's root repository. */
  networkId: number;
  wireId: number;
  /** The repository this one was forked from; null for a network's root. */
  parentId: number | null;
}

/** Counts an account shows (`/users/:user`). */
export interface AccountCounts {
  followers: number;
  following: number;
  /** Repositories the account owns, by visibility. */
  publicRepos: number;
  privateRepos: number;
}

/** Counts and times a repository shows (`/repos/:owner/:repo`), from its relations and stored events. */
export interface RepoStats {
  watchers: number;
  /** Direct forks. */
  forks: number;
  /** Every other repository of its fork network. */
  networkForks: number;
  /** Times of its first and last stored events, and of its last PushEvent; null when it has none. */
  firstEventAt: Date | null;
  lastEventAt: Date | null;
  lastPushAt: Date | null;
}

/** Why a user may read a repository (the relations of `canRead`), the strongest first. */
export type RepoRole = "owner" | "collaborator" | "member";

/** Which events a feed covers (before visibility). */
export type EventScope =
  | { kind: "all" }
  | { kind: "repo"; repoId: number }
  | { kind: "network"; networkId: number }
  | { kind: "org"; orgId: number }
  | { kind: "actor"; actorId: number }
  /** Events by accounts the user follows and in repositories the user watches. */
  | { kind: "received"; userId: number };

/**
 * Which private events a feed may show: none, those in repositories the reader can read (owner,
 * collaborator, member of the owning organization), or all of them (the caller was already cleared).
 */
export type Visibility = { kind: "public" } | { kind: "readable-by"; userId: number } | { kind: "all" };

export interface FeedRequest extends PageRequest {
  visibility: Visibility;
  /** Events older than this are left out (the `--feed-max-age` cap); null for the whole history. */
  notBefore: Date | null;
}

/** A stored event or issue event: its JSON as ingested, plus what completing a partial envelope needs. */
export interface StoredEvent {
  body: string;
  /** False when the envelope was given partially (`{"login": "bob"}`) and must be completed on output. */
  complete: boolean;
  createdAt: Date;
  /** Wire ids of the envelope's accounts and repository; only read for incomplete events. */
  actorWireId: number | null;
  repoWireId: number | null;
  orgWireId: number | null;
}

export interface FeedPage {
  rows: StoredEvent[];
  total: number;
  /** The feed's newest event time (its `Last-Modified`), whatever page was asked for. */
  newest: Date | null;
}

export interface DirectoryStore {
  findRepo(owner: string, name: string): Promise<RepoRow | null>;
  /** The login of the account with that wire id (GitHub's id from imported data first, else the row id). */
  loginByWireId(wireId: number): Promise<string | null>;
  /** The `owner/name` of the repository with that wire id. */
  repoNameByWireId(wireId: number): Promise<string | null>;
  /** Owner, collaborator, or member of the organization that owns the repository. */
  canRead(userId: number, repoId: number): Promise<boolean>;
  isMember(orgId: number, userId: number): Promise<boolean>;
  /** A repository by its row id (a fork's parent, a network's root). */
  findRepoById(id: number): Promise<RepoRow | null>;
  accountCounts(accountId: number): Promise<AccountCounts>;
  repoStats(repoId: number): Promise<RepoStats>;
  /** The user's strongest relation to the repository; null exactly when `canRead` is false. */
  repoRole(userId: number, repoId: number): Promise<RepoRole | null>;
}

/**
 * Numbers that only ever grow, each raised in the transaction of a kind of write (see store/feed-sql.ts VERSION):
 * what was read from the database while they stood still is still what the database holds.
 */
export interface StoreVersion {
  /** Every ingest and account deletion: what feeds show. */
  generation: number;
  /** Every change to tokens or accounts: who a credential is, what a login or an id names. */
  credentials: number;
  /** Every change to a repository (privacy, parent, network): what a repository name gives, network feeds. */
  repos: number;
  /** Every change to collaborators and organization members: who may read what. */
  access: number;
}

/** A feed's events: a scope seen with a visibility, or one repository's issue events. */
export type FeedTarget = { scope: EventScope; visibility: Visibility } | { issuesOf: number };

/** The oldest creation times (seconds) that a run of ingests stored; null where they stored none. */
export interface IngestedSince {
  oldestEvent: number | null;
  oldestIssueEvent: number | null;
}

/** A stored event with what live streams need: its place in arrival order (migration 9), id and type. */
export interface ArrivedEvent extends StoredEvent {
  seq: number;
  id: string;
  /** The event's type (`PushEvent`); null for issue events, whose kind is their body's `event`. */
  type: string | null;
}

/** The newest arrival numbers: events and issue events are numbered apart; 0 before any. */
export interface Arrivals {
  events: number;
  issueEvents: number;
}

export type ArrivalTable = keyof Arrivals;

/** Which numbering a feed's events take theirs from. */
export const arrivalTableOf = (target: FeedTarget): ArrivalTable => ("issuesOf" in target ? "issueEvents" : "events");

export interface ArrivalRequest {
  /** Only events with an arrival number above `after`, up to `upTo`. */
  after: number;
  upTo: number;
  limit: number;
  /** Events created before this are left out (`--feed-max-age`), as the feed does; null for none. */
  notBefore: Date | null;
}

export interface EventStore {
  /** The store's version now: one read of one row. */
  version(): Promise<StoreVersion>;
  /** The user's received-feed number: raised by every change to the user's follows and watches. */
  receivedVersion(userId: number): Promise<number>;
  feed(scope: EventScope, request: FeedRequest): Promise<FeedPage>;
  /** Issue events of one repository (they have no visibility of their own: the repository's applies). */
  issueFeed(repoId: number, request: Omit<FeedRequest, "visibility">): Promise<FeedPage>;
  /** A page's rows and the feed's newest time, without the total: feed() for callers that keep the total. */
  feedRows(target: FeedTarget, request: Omit<FeedRequest, "visibility">): Promise<Omit<FeedPage, "total">>;
  /** How many of the feed's events were created in [from, until) (seconds; until null: up to now). */
  countBetween(target: FeedTarget, from: number, until: number | null): Promise<number>;
  /** The creation time (seconds) of the event at `depth` (0: the newest) among those from `from` on; null when fewer. */
  timeAtDepth(target: FeedTarget, depth: number, from: number): Promise<number | null>;
  /**
   * What the ingests after generation `after`, up to `upTo`, stored (the ingest log); null when one of them is not
   * in the log (pruned, or a generation raised by something other than an ingest).
   */
  ingestedSince(after: number, upTo: number): Promise<IngestedSince | null>;
  /** The newest arrival numbers (two index reads). */
  lastArrivals(): Promise<Arrivals>;
  /** The arrival number of the event (or issue event) with that id (digits), or null when none is stored. */
  arrivalOf(table: ArrivalTable, id: string): Promise<number | null>;
  /** A feed's events that arrived in (after, upTo], oldest arrival first, at most `limit`. */
  arrivals(target: FeedTarget, request: ArrivalRequest): Promise<ArrivedEvent[]>;
  /**
   * Calls `onChange` soon after another process commits a write that raises the version (PostgreSQL: LISTEN on
   * the channel migration 9 notifies). A driver without such a signal never calls it: its readers poll version().
   * Resolves, once listening, to the function that stops.
   */
  listenForChanges(onChange: () => void): Promise<() => Promise<void>>;
}

/** One entry of an ingest batch carries where it came from, so an error can name it. */
interface Sourced {
  source: string;
}

export interface AccountUpsert extends Sourced {
  login: string;
  type: AccountType;
  externalId?: number | undefined;
  /** Only for world-file users: set when given. */
  passwordHash?: string | undefined;
  otpSecret?: string | null | undefined;
  siteAdmin?: boolean | undefined;
}

export interface RepoUpsert extends Sourced {
  fullName: string;
  private?: boolean | undefined;
  forkOf?: string | undefined;
  externalId?: number | undefined;
}

export interface EventInsert extends Sourced {
  id: string;
  type: string;
  actorLogin: string;
  /** null: an event about no repository (GitHub's `"repo": {"name": "/"}`, e.g. a 2012 GistEvent). */
  repoName: string | null;
  orgLogin: string | null;
  public: boolean;
  createdAt: Date;
  complete: boolean;
  body: string;
}

export interface IssueEventInsert extends Sourced {
  id: string;
  repoName: string;
  actorLogin: string | null;
  createdAt: Date;
  complete: boolean;
  body: string;
}

export interface TokenInsert extends Sourced {
  login: string;
  hashedToken: string;
  tokenLastEight: string;
  scopes: string[];
  note: string | null;
}

/**
 * Everything one ingest writes, applied in one transaction in this order: accounts, memberships,
 * repositories, collaborators, follows, watches, tokens, events, issue events. Accounts and repositories
 * that later entries name are created on the fly. Every write is idempotent.
 */
export interface IngestBatch {
  accounts: AccountUpsert[];
  memberships: (Sourced & { org: string; member: string })[];
  repos: RepoUpsert[];
  collaborators: (Sourced & { repo: string; user: string; remove?: boolean })[];
  follows: (Sourced & { follower: string; followee: string })[];
  watches: (Sourced & { user: string; repo: string })[];
  tokens: TokenInsert[];
  events: EventInsert[];
  issueEvents: IssueEventInsert[];
}

export interface EventCounts {
  eventsAdded: number;
  eventsSkipped: number;
  issueEventsAdded: number;
  issueEventsSkipped: number;
}

/** Called as a step of a bulk load begins (`what`: "building feed indexes"); the function it returns, once done. */
export type BulkLoadProgress = (what: string) => () => void;

export interface IngestOptions {
  /**
   * Queue webhook deliveries for the events added (null: none, `feedgate import --no-webhooks`); a hook whose queue
   * holds `maxQueue` deliveries gets no more from the ingest (`--webhook-max-queue`).
   */
  webhooks: { maxQueue: number } | null;
}

/** A setting's default (`--webhook-max-queue`), kept with the other settings. */
export { DEFAULT_WEBHOOK_MAX_QUEUE };
export const DEFAULT_INGEST_OPTIONS: IngestOptions = { webhooks: { maxQueue: DEFAULT_WEBHOOK_MAX_QUEUE } };

export interface IngestResult extends EventCounts {
  /**
   * Rows the batch created, by the type the batch left them: the accounts and repositories its entries name,
   * those only an event names included. An account or repository that existed already is not counted.
   */
  usersAdded: number;
  organizationsAdded: number;
  reposAdded: number;
  /** Tokens stored; a token already stored for the same user is not counted. */
  tokensAdded: number;
  /** Hooks that got no delivery of some event because their queue was full (present only when there were any). */
  hooksFull?: number[];
}

export interface IngestStore {
  /** All or nothing: throws IngestConflictError naming the entry, and then nothing is written. */
  apply(batch: IngestBatch, now: Date, options?: IngestOptions): Promise<IngestResult>;
  /**
   * Runs a bulk import (many apply calls); a driver may prepare for it, e.g. defer indexes, and undo that after.
   * `progress` is told of such work after the import that takes long enough to be worth saying (SQLite's index build).
   */
  bulkLoad<T>(work: () => Promise<T>, progress?: BulkLoadProgress): Promise<T>;
}

/** An ingest entry that contradicts what is stored or what the batch said before; `field` names the entry. */
export class IngestConflictError extends FeedgateFailure {
  override name = "IngestConflictError";
  constructor(source: string, problem: string) {
    super(problem, { field: source });
  }
}

/** Database connections by state: idle, in use (checked out or being opened), and requests waiting for one. */
export interface ConnectionCounts {
  idle: number;
  active: number;
  waiting: number;
}

/** What a migration run found and did, so that `feedgate migrate` can say it. */
export interface MigrationReport {
  /** Migrations this run applied; 0 when none was pending. */
  applied: number;
  /** The highest migration recorded once it finished. */
  version: number;
  /** True when the database had no migration recorded before: the run made the schema from nothing. */
  created: boolean;
}

export interface Store {
  readonly users: UserStore;
  readonly authorizations: AuthorizationStore;
  readonly directory: DirectoryStore;
  readonly events: EventStore;
  readonly ingest: IngestStore;
  readonly hooks: HookStore;
  readonly sessions: SessionStore;
  /** Applies pending migrations and reports what it did; safe to call on every start. */
  migrate(): Promise<MigrationReport>;
  /** What opening the store applied: every driver migrates as it opens (SQLite must, before preparing statements). */
  readonly migratedAtOpen: MigrationReport;
  /** Resolves when the database answers (readiness checks). */
  ping(): Promise<void>;
  /** The connections this process holds, for the metrics; synchronous, as drivers keep the counts in memory. */
  connections(): ConnectionCounts;
  close(): Promise<void>;
}

export class DuplicateError extends FeedgateFailure {
  override name = "DuplicateError";
  constructor(what: string) {
    super(`${what} already exists`, { code: "already_exists" });
  }
}
