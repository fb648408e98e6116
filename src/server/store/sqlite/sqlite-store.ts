/**
 * The embedded default store: one SQLite file through better-sqlite3, WAL mode, prepared statements.
 * better-sqlite3 is synchronous; the methods are async only to share the Store interface with PostgreSQL.
 */
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import Database from "better-sqlite3";
import { migrations } from "../migrations/index.js";
import type { AuthorizationStore } from "../authorization-store.js";
import type { OAuthAppStore } from "../oauth-app-store.js";
import type { DirectoryStore } from "../directory-store.js";
import type { EventStore } from "../event-store.js";
import type { IngestStore } from "../ingest-store.js";
import type { SessionStore } from "../session-store.js";
import type { UserStore } from "../user-store.js";
import type { ConnectionCounts, MigrationReport, Store } from "../store.js";
import { Users } from "../users.js";
import { SqliteExecutor } from "./executor.js";
import { Authorizations } from "../authorizations.js";
import { OAuthApps } from "../oauth-apps.js";
import { Directory } from "../directory.js";
import { SqliteEvents } from "./events.js";
import { inThread, SqliteIngest } from "./ingest.js";
import { Hooks } from "../hooks.js";
import { Issues } from "../issues.js";
import { IssueSearches, type IssueSearchStore } from "../issue-search.js";
import type { IssueStore } from "../issue-store.js";
import { Comments, Reactions } from "../comments.js";
import type { CommentStore, ReactionStore } from "../comment-store.js";
import { Actions } from "../actions.js";
import { Relations } from "../relations.js";
import { Collaborators } from "../collaborators.js";
import { GitObjects } from "../git.js";
import { Pulls } from "../pulls.js";
import { ReviewComments } from "../review-comments.js";
import { Statuses } from "../statuses.js";
import { Checks } from "../checks.js";
import { Releases } from "../releases.js";
import { CommitComments } from "../commit-comments.js";
import { Protections } from "../protections.js";
import { Labels } from "../labels.js";
import { Repositories } from "../repositories.js";
import { Milestones } from "../milestones.js";
import { Apps } from "../apps.js";
import { Assignees } from "../assignees.js";
import type {
  AppStore,
  AssigneeStore,
  CollaboratorStore,
  GitStore,
  PullStore,
  ReviewCommentStore,
  StatusStore,
  CheckStore,
  ReleaseStore,
  CommitCommentStore,
  ProtectionStore,
  LabelStore,
  MilestoneStore,
  RepositoryStore,
} from "../store.js";
import type { ActionStore } from "../action-store.js";
import type { RelationStore } from "../relation-store.js";
import { sqliteActionDriver } from "./actions.js";
import { Sessions } from "../sessions.js";
import type { HookStore } from "../hook-store.js";
import { forgettingOnReplace, type StateStore } from "../state-store.js";
import { SqliteState } from "./state.js";
import type { RetentionStore } from "../retention-store.js";
import { Retention } from "../retention.js";
import { sqliteEventRetention } from "./retention.js";
import { ensureFeedIndexes } from "./feed-indexes.js";
import { isSqliteOutage, SQLITE_BUSY_TIMEOUT_MS } from "./outage.js";
import { WriteWorker } from "./write-worker-client.js";
import { retryingBusy, waitingForLock } from "./busy-retry.js";
import { outboxInWorker } from "./outbox-in-worker.js";
import { raisingUnavailable } from "../unavailable.js";
import { LATEST_SCHEMA_VERSION, refuseNewerSchema } from "../schema-version.js";

/** The highest migration `db` records; null when it records none (a new file, or not a feedgate database). */
export function sqliteSchemaVersion(db: Database.Database): number | null {
  const table = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'").get();
  return table ? (db.prepare<[], number | null>("SELECT max(id) FROM schema_migrations").pluck().get() ?? null) : null;
}

/**
 * Applies pending migrations, up to `upTo` (tests build databases as older feedgates left them); BEGIN IMMEDIATE
 * takes the write lock first, so two processes cannot race. A database a newer feedgate migrated is refused first.
 */
export function migrateDatabase(db: Database.Database, upTo = LATEST_SCHEMA_VERSION): MigrationReport {
  refuseNewerSchema(sqliteSchemaVersion(db));
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    id INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)`);
  const isApplied = db.prepare<[number]>("SELECT 1 FROM schema_migrations WHERE id = ?");
  const record = db.prepare("INSERT INTO schema_migrations (id, name, applied_at) VALUES (?, ?, ?)");
  const version = db.prepare<[], number | null>("SELECT max(id) FROM schema_migrations").pluck();
  const before = version.get() ?? null;
  let applied = 0;
  for (const migration of migrations.filter((m) => m.id <= upTo)) {
    db.transaction(() => {
      if (isApplied.get(migration.id)) return;
      db.exec(migration.sqlite);
      record.run(migration.id, migration.name, new Date().toISOString());
      applied++;
    }).immediate();
  }
  return { applied, version: version.get() ?? 0, created: before === null };
}

/** An empty database at the latest schema, made on the first `:memory:` open of the process. */
let migratedImage: Buffer | undefined;

export class SqliteStore implements Store {
  readonly users: UserStore;
  readonly authorizations: AuthorizationStore;
  readonly oauthApps: OAuthAppStore;
  readonly directory: DirectoryStore;
  readonly events: EventStore;
  readonly ingest: IngestStore;
  readonly hooks: HookStore;
  readonly sessions: SessionStore;
  readonly state: StateStore;
  readonly retention: RetentionStore;
  readonly issues: IssueStore;
  readonly comments: CommentStore;
  readonly reactions: ReactionStore;
  readonly relations: RelationStore;
  readonly actions: ActionStore;
  readonly issueSearch: IssueSearchStore;
  readonly labels: LabelStore;
  readonly repositories: RepositoryStore;
  readonly milestones: MilestoneStore;
  readonly assignees: AssigneeStore;
  readonly collaborators: CollaboratorStore;
  readonly git: GitStore;
  readonly pulls: PullStore;
  readonly reviewComments: ReviewCommentStore;
  readonly statuses: StatusStore;
  readonly checks: CheckStore;
  readonly releases: ReleaseStore;
  readonly commitComments: CommitCommentStore;
  readonly protections: ProtectionStore;
  readonly apps: AppStore;

  /**
   * Each part raises StoreUnavailableError when the file is locked too long or the disk fails (sqlite/outage.ts).
   * @param writer a file's write worker, which runs the ingests off the event loop; none for `:memory:`, a database
   * no other connection can open (its ingests run on this thread, as every write of both kinds does). With a worker,
   * this connection waits for the worker's lock on timers, not in SQLite (busy-retry.ts).
   */
  private readonly db: Database.Database;

  private constructor(
    private readonly executor: SqliteExecutor,
    readonly migratedAtOpen: MigrationReport,
    private readonly writer?: WriteWorker,
  ) {
    const db = (this.db = executor.db);
    const part = <T extends object>(made: T): T =>
      raisingUnavailable(writer ? retryingBusy(made) : made, isSqliteOutage);
    this.users = part(new Users(executor));
    this.authorizations = part(new Authorizations(executor));
    this.oauthApps = part(new OAuthApps(executor));
    this.directory = part(new Directory(executor));
    const events = new SqliteEvents(executor);
    this.events = part(events);
    // Not tried again: a bulk load's work is not to be run twice; its ingests wait in the worker, off the loop.
    this.ingest = raisingUnavailable(
      new SqliteIngest(
        db,
        writer &&
          (async (batch, now, options) => {
            try {
              return await writer.apply(batch, now, options);
            } finally {
              events.committed(); // before the caller hears of it: the version read kept for this turn predates the write
            }
          }),
        executor.exclusive.bind(executor),
      ),
      isSqliteOutage,
    );
    // With a worker, the dispatcher's claims and records are written there once it runs (outbox-in-worker.ts).
    this.hooks = writer
      ? raisingUnavailable(outboxInWorker(retryingBusy(new Hooks(executor)), writer), isSqliteOutage)
      : part(new Hooks(executor));
    this.sessions = part(new Sessions(executor));
    const gitObjects = new GitObjects(executor);
    this.state = part(forgettingOnReplace(new SqliteState(executor, db.memory && !writer), () => gitObjects.forget()));
    this.retention = part(new Retention(executor, sqliteEventRetention(executor)));
    this.issues = part(new Issues(executor));
    this.issueSearch = part(new IssueSearches(executor));
    this.comments = part(new Comments(executor));
    this.reactions = part(new Reactions(executor));
    this.relations = part(new Relations(executor));
    this.labels = part(new Labels(executor));
    this.repositories = part(new Repositories(executor));
    this.milestones = part(new Milestones(executor));
    this.assignees = part(new Assignees(executor));
    this.collaborators = part(new Collaborators(executor));
    this.git = part(gitObjects);
    this.pulls = part(new Pulls(executor));
    this.reviewComments = part(new ReviewComments(executor));
    this.statuses = part(new Statuses(executor));
    this.checks = part(new Checks(executor));
    this.releases = part(new Releases(executor));
    this.commitComments = part(new CommitComments(executor));
    this.protections = part(new Protections(executor));
    this.apps = part(new Apps(executor));
    // Tried again whole when the write worker held the lock: an action's work does nothing outside its transaction.
    this.actions = part(
      new Actions(
        executor,
        sqliteActionDriver(() => events.committed()),
      ),
    );
  }

  /**
   * Opens (creating when needed) the database file and applies pending migrations. `:memory:` is a database of this
   * process alone, written nowhere: a copy of an image migrated once per process (`new Database(image)` is a copy of
   * memory, where running every migration again took 5 ms of each test double's start).
   */
  static async open(path: string): Promise<SqliteStore> {
    if (path === ":memory:") return SqliteStore.fromImage(); // IN_MEMORY_DB, spelled as SQLite spells it
    mkdirSync(dirname(path), { recursive: true });
    const db = new Database(path);
    // Several processes (the CLI next to a running server) may share the file: wait rather than fail.
    db.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
    try {
      // Before the pragmas below: switching a file to WAL writes its header, and a newer feedgate's file is left as it is.
      refuseNewerSchema(sqliteSchemaVersion(db));
    } catch (error) {
      db.close();
      throw error;
    }
    db.pragma("journal_mode = WAL");
    db.pragma("foreign_keys = ON");
    const migrated = migrateDatabase(db); // before the constructor prepares statements against the tables
    // An import that deferred the feed indexes and was stopped before rebuilding them left them missing.
    ensureFeedIndexes(db);
    db.pragma("busy_timeout = 0"); // from now on, waits are timers (busy-retry.ts)
    const executor = new SqliteExecutor(db);
    const onThisThread = inThread(db, true, executor.exclusive.bind(executor));
    return new SqliteStore(
      executor,
      migrated,
      new WriteWorker({ path, busyTimeoutMs: SQLITE_BUSY_TIMEOUT_MS }, onThisThread),
    );
  }

  private static fromImage(): SqliteStore {
    if (migratedImage === undefined) {
      const template = new Database(":memory:");
      migrateDatabase(template);
      migratedImage = template.serialize();
      template.close();
    }
    const db = new Database(migratedImage);
    db.pragma("foreign_keys = ON");
    return new SqliteStore(new SqliteExecutor(db), {
      applied: migrations.length,
      version: migrations.at(-1)!.id,
      created: true,
    });
  }

  /** Resolves once a file's write worker takes the ingests (they run on this thread while it starts); at once for `:memory:`. */
  async writeWorkerReady(): Promise<void> {
    await this.writer?.ready();
  }

  async migrate(): Promise<MigrationReport> {
    return this.executor.exclusive(() => waitingForLock(this.db, () => migrateDatabase(this.db)));
  }

  async ping(): Promise<void> {
    this.db.prepare("SELECT 1").get();
  }

  /**
   * The one connection. better-sqlite3 runs every statement synchronously, so while this runs no statement does
   * and nothing waits: the connection is idle whenever it can be asked.
   */
  connections(): ConnectionCounts {
    return { idle: this.db.open ? 1 : 0, active: 0, waiting: 0 };
  }

  async close(): Promise<void> {
    await this.writer?.close();
    // After any transaction still open: it ends as it would have, not with its connection closed under it.
    await this.executor.exclusive(() => this.db.open && this.db.close());
  }
}
