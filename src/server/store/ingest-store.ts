/** What an ingest writes (one batch, all or nothing) and what it reports. */
import { DEFAULT_WEBHOOK_MAX_QUEUE } from "../config.js";
import { FeedgateFailure } from "../failures.js";
import type { AccountType } from "./user-store.js";
import type { OrgRole } from "./directory-store.js";

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
  /** Only for world-file organizations: what their profile shows, each set when given. */
  profile?: AccountProfile | undefined;
}

export interface AccountProfile {
  email?: string | undefined;
  blog?: string | undefined;
  billingEmail?: string | undefined;
}

export interface RepoUpsert extends Sourced {
  fullName: string;
  private?: boolean | undefined;
  forkOf?: string | undefined;
  externalId?: number | undefined;
}

/**
 * An event's text as stored: a string, or its UTF-8 bytes. `feedgate import`'s parsing thread hands the bodies of a
 * batch over as bytes in one transferred buffer (cli/import-messages.ts): moved, not copied, and never decoded.
 */
export type EventText = string | Uint8Array;

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
  body: EventText;
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

export interface NamedAccount {
  login: string;
  type: AccountType;
  externalId: number | null;
  /** False when only a token names it: a token never creates its user. */
  create: boolean;
}

export interface NamedRepo {
  fullName: string;
  owner: string;
  name: string;
  externalId: number | null;
}

/** Every account and repository a batch names, as the walk gathers them (ingest-names.ts). */
export interface Names {
  /** By lowercase login; logins and repository names are case-insensitive, as on GitHub. */
  accounts: Map<string, NamedAccount>;
  /** By lowercase full name. */
  repos: Map<string, NamedRepo>;
}

/**
 * Everything one ingest writes, applied in one transaction in this order: accounts, memberships,
 * repositories, collaborators, follows, watches, tokens, events, issue events. Accounts and repositories
 * that later entries name are created on the fly. Every write is idempotent.
 */
export interface IngestBatch {
  accounts: AccountUpsert[];
  /** A membership states the member's role (a member's when left out): a later batch may change it. */
  memberships: (Sourced & { org: string; member: string; role?: OrgRole })[];
  repos: RepoUpsert[];
  collaborators: (Sourced & { repo: string; user: string; remove?: boolean })[];
  follows: (Sourced & { follower: string; followee: string })[];
  watches: (Sourced & { user: string; repo: string })[];
  tokens: TokenInsert[];
  events: EventInsert[];
  issueEvents: IssueEventInsert[];
  /**
   * namedIn(this batch), when it was gathered already: `feedgate import`'s parsing thread gathers it beside the
   * batch (cli/import-messages.ts), so the writer does not walk the batch twice. Left out, the ingest gathers it.
   */
  names?: Names;
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
  /** Webhook deliveries the ingest queued (present only when there were any). */
  deliveriesQueued?: number;
  /** Hooks that got no delivery of some event because their queue was full (present only when there were any). */
  hooksFull?: number[];
}

/**
 * A batch still in the bytes it arrived as (an NDJSON body of `POST /admin/events`), for a driver that writes on a
 * thread of its own: SQLite's write worker decodes it there, so that the event loop serving polls neither parses the
 * body nor copies the decoded batch to the worker (a structured clone of some two thousand properties per hundred
 * events). What decoding means is the services' rule, not the store's: the batch names a module that exports it,
 * since a function cannot be sent to another thread, and the store only runs it (encoded-batch.ts).
 */
export interface EncodedBatch {
  bytes: Uint8Array;
  /** The URL of a module exporting `decodingBatch`, a BatchDecoding. */
  decoder: string;
}

/** Decodes `bytes` into a batch, yielding between entries so that a caller on the event loop can let it turn. */
export type BatchDecoding = (bytes: Uint8Array, now: Date) => Generator<void, IngestBatch, void>;

export interface IngestStore {
  /** All or nothing: throws IngestConflictError naming the entry, and then nothing is written. */
  apply(batch: IngestBatch, now: Date, options?: IngestOptions): Promise<IngestResult>;
  /**
   * apply() of the batch `encoded` decodes to, decoded on the thread that writes; a driver that writes on the calling
   * thread has none, and its caller decodes (letting the event loop turn as it goes) and applies. An input that does
   * not decode throws its failure (InvalidInputError), and nothing is written. The bytes are the driver's from the
   * call on: it may move them to another thread, which empties the caller's view of them.
   */
  applyEncoded?(encoded: EncodedBatch, now: Date, options?: IngestOptions): Promise<IngestResult>;
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
