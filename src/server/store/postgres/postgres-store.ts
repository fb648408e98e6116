/**
 * The scale-out store: PostgreSQL through a `pg` pool, shared by any number of stateless feedgate instances.
 * Migrations run under an advisory lock, so instances starting together do not race; behind a pooler in transaction
 * mode, they and LISTEN run on the direct connection (postgres/direct.ts).
 */
import type pg from "pg";
import { migrations } from "../migrations/index.js";
import type { AuthorizationStore } from "../authorization-store.js";
import type { OAuthAppStore } from "../oauth-app-store.js";
import type { DirectoryStore } from "../directory-store.js";
import type { EventStore } from "../event-store.js";
import type { IngestStore } from "../ingest-store.js";
import type { SessionStore } from "../session-store.js";
import type { UserStore } from "../user-store.js";
import type { ConnectionCounts, MigrationReport, Store } from "../store.js";
import { createPool, pooledStatementTimeoutMs, UNLIMITED, withClient, type PoolLimits } from "./pool.js";
import { Standbys, type StandbyReport } from "./standbys.js";
import { hostsOf, PrimaryFinder } from "./primary-finder.js";
import { type Direct, openDirect, sameAsPool } from "./direct.js";
import { MemoryLsnFloors, readScopes, type LsnFloors, type ReadScope } from "./read-scope.js";
import type { ReadRouting } from "./executor.js";

/** `--db-replica` and `--replica-max-lag`. */
export interface StandbySettings {
  urls: readonly string[];
  maxLagMs: number;
}
import { Users } from "../users.js";
import { PostgresExecutor } from "./executor.js";
import { Authorizations } from "../authorizations.js";
import { OAuthApps } from "../oauth-apps.js";
import { Directory } from "../directory.js";
import { PostgresEvents } from "./events.js";
import { PostgresIngest } from "./ingest.js";
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
import { postgresActionDriver } from "./actions.js";
import { Sessions } from "../sessions.js";
import type { HookStore } from "../hook-store.js";
import { forgettingOnReplace, type StateStore } from "../state-store.js";
import { PostgresState } from "./state.js";
import type { RetentionStore } from "../retention-store.js";
import { Retention } from "../retention.js";
import { postgresEventRetention } from "./retention.js";
import { EventPartitions } from "./event-partitions.js";
import { ensureFeedIndexes } from "./feed-indexes.js";
import { asUnavailable, raisingUnavailable } from "../unavailable.js";
import { isPostgresOutage } from "./outage.js";
import { LATEST_SCHEMA_VERSION, refuseNewerSchema } from "../schema-version.js";

const MIGRATION_LOCK = "hashtext('feedgate:migrations')";
/**
 * A statement without the pool's client-side query timeout. pg reads a query's own `query_timeout` (which its
 * types leave out) of 0 as "the pool's", so the longest timer Node allows stands for none.
 */
const withoutTimeout = (text: string) => ({ text, query_timeout: 2 ** 31 - 1 }) as pg.QueryConfig;

/**
 * Applies pending migrations on `client`, up to `upTo` (tests build databases as older feedgates left them), under the
 * advisory lock. A database a newer feedgate migrated is refused before anything is applied.
 */
export async function migratePostgres(client: pg.ClientBase, upTo = LATEST_SCHEMA_VERSION): Promise<MigrationReport> {
  try {
    await client.query(withoutTimeout(`SELECT pg_advisory_lock(${MIGRATION_LOCK})`));
    // A no-op where the table exists: a newer feedgate's database is not changed by it.
    await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      id integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL)`);
    const { rows } = await client.query<{ id: number }>("SELECT id FROM schema_migrations");
    // Read under the lock: what another instance applied meanwhile is not applied twice, nor reported here.
    const done = new Set(rows.map((r) => r.id));
    refuseNewerSchema(done.size === 0 ? null : Math.max(...done));
    let applied = 0;
    for (const migration of migrations.filter((m) => m.id <= upTo)) {
      if (done.has(migration.id)) continue;
      await client.query("BEGIN");
      try {
        await client.query(withoutTimeout(migration.postgres));
        await client.query("INSERT INTO schema_migrations (id, name, applied_at) VALUES ($1, $2, now())", [
          migration.id,
          migration.name,
        ]);
        await client.query("COMMIT");
        applied++;
      } catch (error) {
        await client.query("ROLLBACK");
        throw error;
      }
    }
    return { applied, version: Math.max(0, ...done, upTo), created: done.size === 0 };
  } finally {
    await client.query(`SELECT pg_advisory_unlock(${MIGRATION_LOCK})`).catch(() => undefined);
  }
}

export class PostgresStore implements Store {
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
  /** Set by open(), which migrates before handing the store out. */
  migratedAtOpen: MigrationReport = { applied: 0, version: 0, created: false };

  readonly readScope?: (callers: readonly string[]) => Promise<(work: () => void) => void>;
  readonly standbys?: () => { primaryReads: number; standbys: StandbyReport[] };
  /** Set by open() with a direct URL: the statement_timeout the pooler's server connections run statements under. */
  pooledStatementTimeoutMs?: number;

  /**
   * Each part raises StoreUnavailableError when the server is away, refuses or times out (postgres/outage.ts).
   * @param routing standbys that serve requests' reads, and where callers' write positions are kept.
   * @param direct where what needs a session of its own connects: LISTEN, migrations, a bulk load's index build.
   */
  private constructor(
    private readonly pool: pg.Pool,
    private readonly direct: Direct,
    private readonly routing?: ReadRouting,
    private readonly finder?: PrimaryFinder,
  ) {
    const executor = new PostgresExecutor(pool, undefined, routing);
    if (routing) {
      this.readScope = async (callers) => {
        const scope: ReadScope = { keys: callers, floor: await routing.floors.floor(callers), server: undefined };
        return (work) => readScopes.run(scope, work);
      };
      this.standbys = () => ({ primaryReads: routing.standbys.primaryReads, standbys: routing.standbys.report() });
    }
    this.users = raisingUnavailable(new Users(executor), isPostgresOutage);
    this.authorizations = raisingUnavailable(new Authorizations(executor), isPostgresOutage);
    this.oauthApps = raisingUnavailable(new OAuthApps(executor), isPostgresOutage);
    this.directory = raisingUnavailable(new Directory(executor), isPostgresOutage);
    this.events = raisingUnavailable(new PostgresEvents(executor, direct.pool, direct.Client), isPostgresOutage);
    const partitions = new EventPartitions(pool);
    this.ingest = raisingUnavailable(new PostgresIngest(pool, partitions, direct.pool), isPostgresOutage);
    this.hooks = raisingUnavailable(new Hooks(executor), isPostgresOutage);
    this.sessions = raisingUnavailable(new Sessions(executor), isPostgresOutage);
    const gitObjects = new GitObjects(executor);
    this.state = raisingUnavailable(
      forgettingOnReplace(new PostgresState(pool), () => gitObjects.forget()),
      isPostgresOutage,
    );
    this.retention = raisingUnavailable(new Retention(executor, postgresEventRetention(partitions)), isPostgresOutage);
    this.issues = raisingUnavailable(new Issues(executor), isPostgresOutage);
    this.issueSearch = raisingUnavailable(new IssueSearches(executor), isPostgresOutage);
    this.comments = raisingUnavailable(new Comments(executor), isPostgresOutage);
    this.reactions = raisingUnavailable(new Reactions(executor), isPostgresOutage);
    this.relations = raisingUnavailable(new Relations(executor), isPostgresOutage);
    this.labels = raisingUnavailable(new Labels(executor), isPostgresOutage);
    this.repositories = raisingUnavailable(new Repositories(executor), isPostgresOutage);
    this.milestones = raisingUnavailable(new Milestones(executor), isPostgresOutage);
    this.assignees = raisingUnavailable(new Assignees(executor), isPostgresOutage);
    this.collaborators = raisingUnavailable(new Collaborators(executor), isPostgresOutage);
    this.git = raisingUnavailable(gitObjects, isPostgresOutage);
    this.pulls = raisingUnavailable(new Pulls(executor), isPostgresOutage);
    this.reviewComments = raisingUnavailable(new ReviewComments(executor), isPostgresOutage);
    this.statuses = raisingUnavailable(new Statuses(executor), isPostgresOutage);
    this.checks = raisingUnavailable(new Checks(executor), isPostgresOutage);
    this.releases = raisingUnavailable(new Releases(executor), isPostgresOutage);
    this.commitComments = raisingUnavailable(new CommitComments(executor), isPostgresOutage);
    this.protections = raisingUnavailable(new Protections(executor), isPostgresOutage);
    this.apps = raisingUnavailable(new Apps(executor), isPostgresOutage);
    this.actions = raisingUnavailable(new Actions(executor, postgresActionDriver(partitions)), isPostgresOutage);
  }

  /**
   * @param standbys hot standbys' URLs for reads, with the lag past which one is left out; none: the primary reads.
   * @param floors where callers' write positions are kept: in this process unless several instances share them.
   * @param directUrl PostgreSQL itself, when `url` is a pooler in transaction mode (`--db-direct`); none: `url`.
   */
  static async open(
    url: string,
    limits: PoolLimits = UNLIMITED,
    standbys?: StandbySettings,
    floors: LsnFloors = new MemoryLsnFloors(),
    directUrl?: string,
  ): Promise<PostgresStore> {
    const hosts = hostsOf(url);
    const finder = hosts && new PrimaryFinder(url, hosts, limits.connectTimeoutMs);
    await finder?.start();
    // With a direct URL, `url` is a pooler: it refuses statement_timeout as a startup parameter (PgBouncer: "unsupported
    // startup parameter"), and a SET would stay on whichever server connection it ran on: the pooler's own
    // configuration sets it (direct.ts).
    const pool = createPool(url, limits, { Client: finder?.Client, pooler: Boolean(directUrl) });
    if (finder) finder.pool = pool;
    let direct: Direct = sameAsPool(pool, finder?.Client);
    let routing: ReadRouting | undefined;
    let pooledTimeoutMs: number | undefined;
    try {
      if (directUrl) {
        direct = await openDirect(directUrl, limits, pool);
        pooledTimeoutMs = await pooledStatementTimeoutMs(pool);
      }
      if (standbys?.urls.length) {
        routing = { standbys: await Standbys.open(pool, standbys.urls, standbys.maxLagMs, limits), floors };
      }
    } catch (error) {
      finder?.stop();
      await direct.close();
      await pool.end();
      throw error;
    }
    const store = new PostgresStore(pool, direct, routing, finder);
    store.pooledStatementTimeoutMs = pooledTimeoutMs;
    try {
      store.migratedAtOpen = await store.migrate();
    } catch (error) {
      await store.close();
      throw error;
    }
    return store;
  }

  async migrate(): Promise<MigrationReport> {
    return this.migrateUnlimited().catch((error: unknown) => {
      throw asUnavailable(error, isPostgresOutage);
    });
  }

  private migrateUnlimited(): Promise<MigrationReport> {
    return withClient(this.direct.pool, async (client) => {
      // A migration may build an index over millions of rows: the serving pool's limits are not for it. The client
      // goes back to its pool afterwards, so its session gets the pool's timeout back (RESET restores the value the
      // connection started with). A session's SET and advisory lock: on the direct connection (direct.ts).
      await client.query("SET statement_timeout = 0");
      try {
        const report = await migratePostgres(client);
        // An import that deferred the feed indexes and was stopped before building them left them missing.
        await ensureFeedIndexes(client);
        return report;
      } finally {
        await client.query("RESET statement_timeout");
      }
    });
  }

  async ping(): Promise<void> {
    await this.pool.query("SELECT 1");
  }

  connections(): ConnectionCounts {
    const { totalCount, idleCount, waitingCount } = this.pool;
    return { idle: idleCount, active: totalCount - idleCount, waiting: waitingCount };
  }

  /** Drains the pool: waits for checked-out clients, then closes every connection; the standbys' and direct ones too. */
  async close(): Promise<void> {
    this.finder?.stop();
    await this.pool.end();
    await this.direct.close();
    await this.routing?.standbys.close();
    await this.routing?.floors.close();
  }
}
