/**
 * The Store interface: everything the services need from persistence, and nothing about SQL. Each aggregate's
 * contract has its own file; this one assembles them, with what belongs to the store as a whole (migrations,
 * connections, readiness). Asynchronous even though SQLite is synchronous, so that the PostgreSQL driver fits the
 * same interface.
 */
import type { AuthorizationStore } from "./authorization-store.js";
import type { DirectoryStore } from "./directory-store.js";
import type { EventStore } from "./event-store.js";
import type { HookStore } from "./hook-store.js";
import type { IngestStore } from "./ingest-store.js";
import type { SessionStore } from "./session-store.js";
import type { StateStore } from "./state-store.js";
import type { RetentionStore } from "./retention-store.js";
import type { UserStore } from "./user-store.js";
import type { IssueStore } from "./issue-store.js";
import type { ActionStore } from "./action-store.js";
import type { IssueSearchStore } from "./issue-search.js";
import type { CommentStore, ReactionStore } from "./comment-store.js";
import type { RelationStore } from "./relation-store.js";
import type { LabelStore } from "./label-store.js";
import type { MilestoneStore } from "./milestone-store.js";
import type { AssigneeStore } from "./assignee-store.js";
import type { RepositoryStore } from "./repository-store.js";
import type { CollaboratorStore } from "./collaborator-store.js";
import type { GitStore } from "./git-store.js";
import type { PullStore } from "./pull-store.js";
import type { ReviewCommentStore } from "./review-comment-store.js";
import type { StatusStore } from "./status-store.js";
import type { CheckStore } from "./check-store.js";
import type { ReleaseStore } from "./release-store.js";
import type { CommitCommentStore } from "./commit-comment-store.js";
import type { ProtectionStore } from "./protection-store.js";
import type { OAuthAppStore } from "./oauth-app-store.js";
import type { AppStore } from "./app-store.js";

// The parts' names, so that code outside the store keeps importing them from here.
export type * from "./page.js";
export type * from "./user-store.js";
export type * from "./authorization-store.js";
export type * from "./session-store.js";
export type * from "./directory-store.js";
export type * from "./event-store.js";
export { arrivalTableOf } from "./event-store.js";
export type * from "./ingest-store.js";
export type * from "./state-store.js";
export type * from "./retention-store.js";
export type * from "./issue-store.js";
export type * from "./action-store.js";
export type { IssueSearch, IssueSearchStore, SearchReader } from "./issue-search.js";
export type * from "./comment-store.js";
export type * from "./relation-store.js";
export type * from "./label-store.js";
export type * from "./milestone-store.js";
export type * from "./assignee-store.js";
export type * from "./repository-store.js";
export type * from "./collaborator-store.js";
export type * from "./git-store.js";
export type * from "./pull-store.js";
export type * from "./review-comment-store.js";
export type * from "./status-store.js";
export { STATUS_STATES } from "./status-store.js";
export type * from "./check-store.js";
export { CHECK_CONCLUSIONS, CHECK_STATUSES } from "./check-store.js";
export type * from "./release-store.js";
export { MAKE_LATEST } from "./release-store.js";
export type * from "./commit-comment-store.js";
export type * from "./protection-store.js";
export type * from "./oauth-app-store.js";
export type * from "./app-store.js";
export { DEFAULT_INGEST_OPTIONS, IngestConflictError } from "./ingest-store.js";
export { DuplicateError } from "./duplicate-error.js";

export type { StandbyReport } from "./postgres/standbys.js";
import type { StandbyReport } from "./postgres/standbys.js";

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
  /** Images of the whole database, for the test double's snapshots and resets. */
  readonly state: StateStore;
  /** Background retention's batches (services/retention.ts). */
  readonly retention: RetentionStore;
  /** Issues and their labels and assignees, as reads; writes go through `actions`. */
  readonly issues: IssueStore;
  /** Issue comments and reactions, as reads; writes go through `actions`. */
  readonly comments: CommentStore;
  readonly reactions: ReactionStore;
  /** Stars, subscriptions (watching) and follows, as reads; writes go through `actions`. */
  readonly relations: RelationStore;
  /** A repository's labels, milestones and assignable users, as reads; writes go through `actions`. */
  readonly labels: LabelStore;
  readonly milestones: MilestoneStore;
  readonly assignees: AssigneeStore;
  /** Repositories made, edited, forked and deleted through the API, and the lists of them; writes go through `actions`. */
  readonly repositories: RepositoryStore;
  /** Collaborators and repository invitations, as reads; writes go through `actions`. */
  readonly collaborators: CollaboratorStore;
  /** Git objects and refs, as reads (and objects no ref points at yet); ref updates go through `actions`. */
  readonly git: GitStore;
  /** Pull requests, their reviewers and reviews, as reads; writes go through `actions`. */
  readonly pulls: PullStore;
  /** Pull requests' review comments, as reads; writes go through `actions`. */
  readonly reviewComments: ReviewCommentStore;
  /** Commit statuses, as reads; they are written through `actions`. */
  readonly statuses: StatusStore;
  /** GitHub Apps' check suites, runs and annotations, as reads; they are written through `actions`. */
  readonly checks: CheckStore;
  /** Releases and their assets, as reads (and a download's count); they are written through `actions`. */
  readonly releases: ReleaseStore;
  /** Commit comments, as reads; they are written through `actions`. */
  readonly commitComments: CommitCommentStore;
  /** Branches' protection rules, as reads; they are written through `actions`. */
  readonly protections: ProtectionStore;
  /** The action log: every write of GitHub's REST API that makes activity (action-store.ts). */
  readonly actions: ActionStore;
  /** OAuth apps, their web-flow codes and device codes. */
  readonly oauthApps: OAuthAppStore;
  /** GitHub Apps and their installations. */
  readonly apps: AppStore;
  /** `GET /search/issues`. */
  readonly issueSearch: IssueSearchStore;
  /** Applies pending migrations and reports what it did; safe to call on every start. */
  migrate(): Promise<MigrationReport>;
  /** What opening the store applied: every driver migrates as it opens (SQLite must, before preparing statements). */
  readonly migratedAtOpen: MigrationReport;
  /** Resolves when the database answers (readiness checks). */
  ping(): Promise<void>;
  /** The connections this process holds, for the metrics; synchronous, as drivers keep the counts in memory. */
  connections(): ConnectionCounts;
  /**
   * With hot standbys (`--db-replica`, PostgreSQL only): makes a read scope of these callers, in which the returned function runs work,, whose reads
   * go to a standby that has replayed their writes (postgres/read-scope.ts). Absent without standbys.
   */
  readonly readScope?: (callers: readonly string[]) => Promise<(work: () => void) => void>;
  /** Each standby's lag, whether it serves reads, and the reads each server answered; absent without standbys. */
  readonly standbys?: () => { primaryReads: number; standbys: StandbyReport[] };
  /**
   * With `--db-direct` (PostgreSQL behind a pooler): the `statement_timeout` statements through the pooler run under,
   * in milliseconds, 0 for none; the pooler's configuration sets it, not feedgate (postgres/direct.ts). Absent otherwise.
   */
  readonly pooledStatementTimeoutMs?: number;
  close(): Promise<void>;
}
