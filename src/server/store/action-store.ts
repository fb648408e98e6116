/**
 * The action log's contract: a write made through GitHub's REST API (open an issue, label it, comment) is one
 * transaction holding the resource's state, the Events API events and issue events it makes, the webhook deliveries
 * it queues and the numbers that caches and ETags key on. A write that fails writes none of them. Made events go
 * through the ingest's own rules (ingest-plan.ts) in that transaction, so they are ordinary events: numbered on
 * arrival, delivered to hooks, paged, streamed and retained as ingested ones.
 */
import type { Executor } from "./executor.js";
import type { EventInsert, IngestOptions, IssueEventInsert } from "./ingest-store.js";
import type { IssueStore } from "./issue-store.js";
import type { DirectoryStore } from "./directory-store.js";
import type { UserStore } from "./user-store.js";
import type { CommentStore, ReactionStore } from "./comment-store.js";
import type { RelationStore } from "./relation-store.js";
import type { LabelStore } from "./label-store.js";
import type { MilestoneStore } from "./milestone-store.js";
import type { RepositoryStore } from "./repository-store.js";
import type { CollaboratorStore } from "./collaborator-store.js";
import type { GitStore } from "./git-store.js";
import type { PullStore } from "./pull-store.js";
import type { ReviewCommentStore } from "./review-comment-store.js";
import type { HookStore } from "./hook-store.js";
import type { StatusStore } from "./status-store.js";
import type { CheckStore } from "./check-store.js";
import type { AppStore } from "./app-store.js";
import type { ReleaseStore } from "./release-store.js";
import type { CommitCommentStore } from "./commit-comment-store.js";
import type { ProtectionStore } from "./protection-store.js";

/** A webhook delivery with no Events API event to build it from (`issues.edited`, `label.created`): its whole body. */
export interface MadeWebhook {
  /** The repository whose hooks (and whose owning organization's) receive it. */
  repoId: number;
  /** Only this organization's hooks receive it, not the repository's own (`repository.deleted`). */
  toOrganization?: number;
  /**
   * Only this GitHub App's hook receives it, through its installation covering the repository: what GitHub sends the
   * app a check belongs to alone (`check_run.rerequested`, `check_suite.rerequested`).
   */
  toApp?: number;
  /** `X-GitHub-Event`: `issues`, `label`, `star`... */
  event: string;
  action: string | null;
  body: string;
}

/** An Events API event an action made, with the ids of the accounts and repository it names (the action has them). */
export interface MadeEvent extends EventInsert {
  body: string;
  actorId: number;
  repoId: number;
  orgId: number | null;
}

/** An issue event an action made, with the issue it is about (the per-issue feed reads it), and the ids it names. */
export interface MadeIssueEvent extends IssueEventInsert {
  issueNumber: number;
  repoId: number;
  actorId: number;
}

/** What an action made that is written as an ingest writes it (the drivers' made-rows.ts). */
export interface MadeRows {
  events: MadeEvent[];
  issueEvents: MadeIssueEvent[];
}

/** A time as events, issue events and the ingest log keep it: whole seconds. */
export const madeSeconds = (at: Date) => Math.floor(at.getTime() / 1000);

/** The oldest of the rows' times, in seconds, as the ingest log keeps it; null for none. */
export const oldestSeconds = (rows: { createdAt: Date }[]) =>
  rows.length ? Math.min(...rows.map((r) => madeSeconds(r.createdAt))) : null;

/** What an action's work answers: its own value, and what the log writes beside the state the work wrote. */
export interface Action<T> {
  value: T;
  events?: MadeEvent[];
  issueEvents?: MadeIssueEvent[];
  webhooks?: MadeWebhook[];
}

/** The store as an action's work sees it: every part bound to the action's transaction. */
export interface ActionTransaction {
  readonly issues: IssueStore;
  readonly comments: CommentStore;
  readonly reactions: ReactionStore;
  readonly users: UserStore;
  readonly directory: DirectoryStore;
  readonly relations: RelationStore;
  readonly labels: LabelStore;
  readonly milestones: MilestoneStore;
  readonly repositories: RepositoryStore;
  readonly collaborators: CollaboratorStore;
  readonly git: GitStore;
  readonly pulls: PullStore;
  readonly reviewComments: ReviewCommentStore;
  /** Whether a repository has a hook an action's webhooks would go to (a scene read in the transaction). */
  readonly hooks: Pick<HookStore, "hasActiveHook">;
  readonly statuses: StatusStore;
  readonly checks: CheckStore;
  /** The apps a write names (a check suite's, made by a push), read in the transaction. */
  readonly apps: Pick<AppStore, "byId">;
  readonly releases: ReleaseStore;
  readonly commitComments: CommitCommentStore;
  readonly protections: ProtectionStore;
  /** The id the next Events API event takes: after the highest stored, and after those this action took. */
  nextEventId(): Promise<string>;
  /** The same for issue events, which are numbered apart. */
  nextIssueEventId(): Promise<string>;
}

export interface Performed<T> {
  value: T;
  /** Webhook deliveries queued: the action's webhooks, to each hook subscribed (made events queue none of their own). */
  deliveriesQueued: number;
}

/** The tables whose ids an action's made rows take: the events', and the issue events' (numbered apart). */
export type IdTable = "events" | "issue_events";

export interface ActionStore {
  /**
   * Runs `work` in one write transaction and writes what it made in the same one. `work` may be run again when the
   * database was busy (SQLite), so it must do nothing outside the transaction. `expects`: the tables the action will
   * most likely take ids in, whose highest ids are then read with its locks (PostgreSQL: in the BEGIN's round trip);
   * a table it does not name costs a read when first asked, one it names and does not use a wasted read.
   */
  perform<T>(
    work: (tx: ActionTransaction) => Promise<Action<T>>,
    now: Date,
    options?: IngestOptions,
    expects?: readonly IdTable[],
  ): Promise<Performed<T>>;
}

/** What differs by driver: how an action's transaction is made safe for events, and how they are ingested in it. */
export interface ActionDriver {
  /** Before the transaction, outside it (PostgreSQL makes the month's event partition). */
  prepare(now: Date): Promise<void>;
  /**
   * First thing inside the transaction, sent with its BEGIN: the locks an ingest takes, so that actions and ingests
   * serialize (none where the transaction's BEGIN is the lock, SQLite's). Followed there, when the action expects to
   * take ids, by the read of the highest (actions.ts).
   */
  opening: string | undefined;
  /**
   * The action's events and issue events (each issue event's issue number too), with the generation raised and the
   * ingest logged as an ingest does, on the transaction's own connection.
   */
  write(tx: Executor, made: MadeRows, now: Date): Promise<void>;
  /** After the commit: what the driver keeps of the database's version is read afresh. */
  committed(): void;
}
