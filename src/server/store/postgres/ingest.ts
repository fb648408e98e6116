/**
 * Applies an ingest program (store/ingest-plan.ts, in the protocol of store/ingest-protocol.ts) on one PostgreSQL
 * client inside one transaction. Bulk operations are one statement each over arrays (unnest), so a batch costs a
 * handful of round trips.
 *
 * Not shared: arrays (unnest), COPY, partitions and the ingest lock are PostgreSQL's.
 */
import type pg from "pg";
import { ingestProgram } from "../ingest-plan.js";
import {
  runProgramAsync,
  type AccountRecord,
  type AsyncIngestDriver,
  type Pair,
  type RepoRecord,
} from "../ingest-protocol.js";
import type { BulkLoadProgress, IngestBatch, IngestOptions, IngestResult, IngestStore } from "../ingest-store.js";
import { buildFeedIndexes, dropFeedIndexes, vacuumAfterLoad } from "./feed-indexes.js";
import { named, transaction } from "./pool.js";
import { copyNewRows } from "./copy.js";
import type { CopyType } from "./copy-binary.js";
import { SHARE_PARTITIONS, type EventPartitions } from "./event-partitions.js";
import { LOG_INGEST, RAISE_GENERATION } from "../feed-sql.js";
import { hookTargetsSql, toHookTarget, type HookTargetRecord } from "../hook-sql.js";
import { SET_PROFILE } from "../users.js";

const HOOK_TARGETS = hookTargetsSql("SELECT unnest(@repoIds::int8[])", "postgres");

const EVENT_COLUMNS: [string, CopyType][] = [
  ["id", "int8"],
  ["type", "text"],
  ["actor_id", "int8"],
  ["repo_id", "int8"],
  ["org_id", "int8"],
  ["public", "bool"],
  ["created_at", "int8"],
  ["complete", "bool"],
  ["body", "text"],
];
const ISSUE_EVENT_COLUMNS: [string, CopyType][] = [
  ["id", "int8"],
  ["repo_id", "int8"],
  ["actor_id", "int8"],
  ["created_at", "int8"],
  ["complete", "bool"],
  ["body", "text"],
];

const lower = (s: string) => s.toLowerCase();
const repoKey = (ownerId: number, name: string) => `${ownerId}/${lower(name)}`;

/** Inserts (a, b) pairs into a two-column relation in one statement; pairs already there are skipped. */
async function addPairs(client: pg.PoolClient, table: string, pairs: Pair[]): Promise<void> {
  await client.query(`INSERT INTO ${table} SELECT * FROM unnest($1::int8[], $2::int8[]) ON CONFLICT DO NOTHING`, [
    pairs.map((p) => p.a),
    pairs.map((p) => p.b),
  ]);
}

/** One UPDATE over (a, b) pairs: `set` and `where` name them v.a and v.b. */
async function update(client: pg.PoolClient, set: string, where: string, pairs: Pair[]): Promise<void> {
  await client.query(`UPDATE ${set} FROM unnest($1::int8[], $2::int8[]) AS v(a, b) WHERE ${where}`, [
    pairs.map((p) => p.a),
    pairs.map((p) => p.b),
  ]);
}

/** The ingest operations as statements on one client, inside the caller's transaction (an ingest's, an action's). */
export function driver(client: pg.PoolClient): AsyncIngestDriver {
  const q = (text: string, values: unknown[]) => client.query(text, values);
  const run = async (text: string, values: unknown[]) => void (await q(text, values));
  return {
    findAccounts: async (o) => {
      const { rows } = await q(
        `SELECT id, login, type, password_hash AS "passwordHash", external_id AS "externalId"
        FROM users WHERE lower(login) = ANY($1::text[])`,
        [o.logins.map(lower)],
      );
      const byLogin = new Map(rows.map(({ login, ...account }) => [lower(login), account as AccountRecord]));
      return o.logins.map((login) => byLogin.get(lower(login)) ?? null);
    },
    insertAccounts: async (o) => {
      const { rows } = await q(
        `INSERT INTO users (login, type, external_id, created_at)
        SELECT login, type, external_id, $4 FROM unnest($1::text[], $2::text[], $3::int8[]) AS a(login, type, external_id)
        RETURNING id, login`,
        [o.rows.map((a) => a.login), o.rows.map((a) => a.type), o.rows.map((a) => a.externalId), o.now],
      );
      const ids = new Map(rows.map((r) => [lower(r.login), r.id as number]));
      return o.rows.map((a) => ids.get(lower(a.login))!);
    },
    setAccountExternalIds: (o) =>
      update(client, "users SET external_id = v.b", "users.id = v.a AND users.external_id IS NULL", o.pairs),
    makeOrganizations: (o) => run("UPDATE users SET type = 'Organization' WHERE id = ANY($1::int8[])", [o.ids]),
    setPassword: (o) => run("UPDATE users SET password_hash = $1 WHERE id = $2", [o.passwordHash, o.id]),
    setOtpSecret: (o) => run("UPDATE users SET otp_secret = $1 WHERE id = $2", [o.otpSecret, o.id]),
    setSiteAdmin: (o) => run("UPDATE users SET site_admin = $1 WHERE id = $2", [o.siteAdmin, o.id]),
    setProfile: async ({ op: _, ...profile }) => void (await client.query(named(SET_PROFILE, profile))),
    findRepos: async (o) => {
      // One probe of repos_by_owner_name a key. As a plain join, the planner hashed the whole table for every batch (a
      // scan computing lower(name) of every repository, which it costs at next to nothing: 230 ms a batch of 5,000 at
      // 337,000 repositories, against 48 ms probing). LIMIT 1 (a key names one repository at most) keeps the lateral
      // subquery from being pulled up into that join.
      const { rows } = await q(
        `SELECT r.id, r.owner_id AS "ownerId", r.name, r.network_id AS "networkId",
          r.external_id AS "externalId", r.private
        FROM unnest($1::int8[], $2::text[]) AS k(owner_id, name)
        CROSS JOIN LATERAL (SELECT * FROM repos WHERE repos.owner_id = k.owner_id AND lower(repos.name) = lower(k.name) LIMIT 1) AS r`,
        [o.keys.map((k) => k.ownerId), o.keys.map((k) => k.name)],
      );
      const byKey = new Map(rows.map(({ ownerId, name, ...repo }) => [repoKey(ownerId, name), repo as RepoRecord]));
      return o.keys.map((k) => byKey.get(repoKey(k.ownerId, k.name)) ?? null);
    },
    insertRepos: async (o) => {
      // A new repository is the root of its own fork network: its id is drawn first, to be its network's too.
      const { rows } = await q(
        `INSERT INTO repos (id, owner_id, name, network_id, external_id)
        SELECT id, owner_id, name, id, external_id FROM (
          SELECT nextval(pg_get_serial_sequence('repos', 'id')) AS id, owner_id, name, external_id
          FROM unnest($1::int8[], $2::text[], $3::int8[]) AS r(owner_id, name, external_id)) AS numbered
        RETURNING id, owner_id AS "ownerId", name`,
        [o.rows.map((r) => r.ownerId), o.rows.map((r) => r.name), o.rows.map((r) => r.externalId)],
      );
      const ids = new Map(rows.map((r) => [repoKey(r.ownerId, r.name), r.id as number]));
      return o.rows.map((r) => ids.get(repoKey(r.ownerId, r.name))!);
    },
    setRepoExternalIds: (o) =>
      update(client, "repos SET external_id = v.b", "repos.id = v.a AND repos.external_id IS NULL", o.pairs),
    setPrivate: (o) => update(client, "repos SET private = (v.b = 1)", "repos.id = v.a", o.pairs),
    setParents: (o) => update(client, "repos SET parent_id = v.b", "repos.id = v.a", o.pairs),
    moveNetworks: (o) => update(client, "repos SET network_id = v.b", "repos.network_id = v.a", o.pairs),
    addCollaborators: (o) => addPairs(client, "collaborators (repo_id, user_id)", o.pairs),
    removeCollaborators: (o) =>
      run(
        `DELETE FROM collaborators c USING unnest($1::int8[], $2::int8[]) AS v(a, b)
        WHERE c.repo_id = v.a AND c.user_id = v.b`,
        [o.pairs.map((p) => p.a), o.pairs.map((p) => p.b)],
      ),
    // The role is updated only when it changes: an update raises the access number (migration 6's triggers).
    addMembers: (o) =>
      run(
        `INSERT INTO org_members (org_id, user_id, role) SELECT a, b, $3 FROM unnest($1::int8[], $2::int8[]) AS v(a, b)
        ON CONFLICT (org_id, user_id) DO UPDATE SET role = excluded.role WHERE org_members.role <> excluded.role`,
        [o.pairs.map((p) => p.a), o.pairs.map((p) => p.b), o.role],
      ),
    addFollows: (o) => addPairs(client, "follows (follower_id, followee_id)", o.pairs),
    addWatches: (o) => addPairs(client, "watches (user_id, repo_id)", o.pairs),
    tokenOwner: async (o) =>
      (await q("SELECT user_id FROM authorizations WHERE hashed_token = $1", [o.hashedToken])).rows[0]?.user_id ?? null,
    insertToken: (o) =>
      run(
        `INSERT INTO authorizations (user_id, hashed_token, token_last_eight, scopes, note, created_at, updated_at)
        VALUES ($1, $2, $3, $4, $5, $6, $6)`,
        [o.userId, o.hashedToken, o.tokenLastEight, JSON.stringify(o.scopes), o.note, o.now],
      ),
    raiseGeneration: async (o) => {
      await run(RAISE_GENERATION, []);
      for (const sql of LOG_INGEST)
        await client.query(named(sql, { oldestEvent: o.oldestEvent, oldestIssueEvent: o.oldestIssueEvent }));
    },
    insertEvents: (o) =>
      copyNewRows(
        client,
        "events",
        EVENT_COLUMNS,
        o.rows.map((e) => [e.id, e.type, e.actorId, e.repoId, e.orgId, e.public, e.createdAt, e.complete, e.body]),
      ),
    insertIssueEvents: async (o) =>
      (
        await copyNewRows(
          client,
          "issue_events",
          ISSUE_EVENT_COLUMNS,
          o.rows.map((e) => [e.id, e.repoId, e.actorId, e.createdAt, e.complete, e.body]),
        )
      ).length,
    findHookTargets: async (o) =>
      (await client.query<HookTargetRecord>(named(HOOK_TARGETS, { active: true, repoIds: o.repoIds }))).rows.map(
        toHookTarget,
      ),
    queueDeliveries: (o) =>
      run(
        `INSERT INTO hook_queue (hook_id, guid, event, event_id, installation_id, next_attempt_at, created_at)
        SELECT d.hook_id, d.guid, d.event, d.event_id, d.installation_id, $6, $7
          FROM unnest($1::int8[], $2::text[], $3::text[], $4::int8[], $5::int8[])
          AS d(hook_id, guid, event, event_id, installation_id)`,
        [
          o.rows.map((d) => d.hookId),
          o.rows.map((d) => d.guid),
          o.rows.map((d) => d.event),
          o.rows.map((d) => d.eventId),
          o.rows.map((d) => d.installationId),
          o.now.getTime(),
          o.now,
        ],
      ),
  };
}

/** Held by every ingest and every action (postgres/actions.ts) until it commits: they write one after another. */
export const INGEST_LOCK = "SELECT pg_advisory_xact_lock(hashtext('feedgate:ingest'))";

export class PostgresIngest implements IngestStore {
  /** @param direct where the index build and VACUUM run, each in a session with its own limits (postgres/direct.ts). */
  constructor(
    private readonly pool: pg.Pool,
    private readonly partitions: EventPartitions,
    private readonly direct: pg.Pool = pool,
  ) {}

  /**
   * Into an empty events table, the feed indexes are dropped for the import and built once at the end
   * (postgres/feed-indexes.ts). Feeds served meanwhile stay right, only slower.
   */
  async bulkLoad<T>(work: () => Promise<T>, progress?: BulkLoadProgress): Promise<T> {
    if ((await this.pool.query("SELECT 1 FROM events LIMIT 1")).rowCount !== 0) return work();
    await dropFeedIndexes(this.pool);
    let loaded: T;
    try {
      loaded = await work();
    } finally {
      const done = progress?.("building feed indexes");
      await buildFeedIndexes(this.direct);
      done?.();
    }
    const done = progress?.("vacuuming and analyzing the events");
    await vacuumAfterLoad(this.direct);
    done?.();
    return loaded;
  }

  async apply(batch: IngestBatch, now: Date, options?: IngestOptions): Promise<IngestResult> {
    // The months' partitions first, in a transaction of their own: made inside the ingest's, they would keep the
    // events table locked until it commits. Not made (the lock not had in time), the rows go to the default partition.
    await this.partitions
      .ensure(batch.events.map((e) => Math.floor(e.createdAt.getTime() / 1000)))
      .catch(() => undefined);
    return transaction(this.pool, async (client) => {
      // Concurrent ingests serialize: each batch sees the accounts and repositories the previous one created.
      await client.query(INGEST_LOCK);
      // Before the events table is touched: retention takes this lock, exclusive, before it locks the table to drop a
      // month (postgres/event-partitions.ts), so the two never wait for each other the other way round.
      await client.query(SHARE_PARTITIONS);
      return runProgramAsync(ingestProgram(batch, now, options), driver(client));
    });
  }
}
