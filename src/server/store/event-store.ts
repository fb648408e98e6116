/**
 * Feeds: stored events read by scope and visibility, the version numbers that say when what was read is still
 * current, and arrival order for live streams.
 */
import type { PageRequest } from "./page.js";

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
  /** The event's id (GitHub's), in decimal: a feed's ties in time are ordered by it, newest first. */
  id: string;
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
  /**
   * Every change to anyone's follows and watches (migration 19): while it stands, no user's received-feed number
   * (receivedVersion) moved.
   */
  received: number;
  /**
   * Every change to hooks and installations that could change who receives a repository's webhooks (migration 41):
   * nothing a feed shows depends on it.
   */
  hooks: number;
}

/** A feed's events: a scope seen with a visibility, or one repository's issue events. */
export type FeedTarget = { scope: EventScope; visibility: Visibility } | { issuesOf: number };

/** The oldest creation times (seconds) that a run of ingests stored; null where they stored none. */
export interface IngestedSince {
  oldestEvent: number | null;
  oldestIssueEvent: number | null;
}

/** A stored event with what live streams need: its place in arrival order (migration 9) and type. */
export interface ArrivedEvent extends StoredEvent {
  seq: number;
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
  /**
   * The store's version now: one read of one row. A driver that can answer without waiting (SQLite) answers
   * directly, so that reading it costs a request no promise.
   * @param shareTurn the caller answers a request that came in on a socket, whose answer may be as of what was read
   * for another request handled in the same turn of the event loop (SQLite keeps that read, see sqlite/events.ts; a
   * driver whose reads are round trips shares those in flight anyway). Not for a request made in this process
   * (Fastify's inject), which a test may send in the very turn it wrote through another connection.
   */
  version(shareTurn?: boolean): StoreVersion | Promise<StoreVersion>;
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
  /** How many of a feed's events arrived in (after, upTo] and were created at or after `from` (seconds). */
  countArrivals(target: FeedTarget, range: { after: number; upTo: number; from: number }): Promise<number>;
  /**
   * Calls `onChange` soon after another process commits a write that raises the version (PostgreSQL: LISTEN on
   * the channel migration 9 notifies). A driver without such a signal never calls it: its readers poll version().
   * Resolves, once listening, to the function that stops.
   */
  listenForChanges(onChange: () => void): Promise<() => Promise<void>>;
}
