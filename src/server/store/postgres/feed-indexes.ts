/**
 * What an import into an empty events table defers, and builds once at the end: the feed indexes and the foreign
 * keys (migrations 16 and 18 made them; the definitions here are the same, and a test compares them). One index built from
 * sorted keys costs far less than four indexes updated row by row (and their pages written) through the whole
 * import; one check of each key over the whole table (a join) far less than three look-ups, each locking the row it
 * finds, for every event (half of the database's work in a COPY into events, measured). Every row the import writes
 * references accounts and repositories its own transaction made or found, so the checks at the end hold.
 *
 * The primary key stays, as every look-up of an id needs it; so does `events_by_seq`, appended to in order at no
 * cost worth saving.
 *
 * Not shared: PostgreSQL's index definitions, foreign keys and VACUUM; SQLite's differ (sqlite/feed-indexes.ts).
 */
import type pg from "pg";
import { withClient } from "./pool.js";

export const FEED_INDEXES = [
  "CREATE INDEX events_public ON events (created_at DESC, id DESC) WHERE public",
  "CREATE INDEX events_by_repo ON events (repo_id, created_at DESC, id DESC) INCLUDE (public, org_id)",
  "CREATE INDEX events_by_actor ON events (actor_id, created_at DESC, id DESC) INCLUDE (public, repo_id, org_id)",
  "CREATE INDEX events_by_org ON events (org_id, created_at DESC, id DESC) INCLUDE (public, repo_id) WHERE org_id IS NOT NULL",
  // Not a feed's: a repository's newest push, its `pushed_at` (migration 40). Deferred with the others.
  // With the cast PostgreSQL writes back (pg_get_indexdef), so that a test compares it with the migrated one.
  "CREATE INDEX events_pushes_by_repo ON events (repo_id, created_at) WHERE type = 'PushEvent'::text",
];

/** Named as migration 16 named them: the unpartitioned table's keys still held the plain names then. */
export const EVENT_FOREIGN_KEYS: [name: string, definition: string][] = [
  ["events_actor_id_fkey1", "FOREIGN KEY (actor_id) REFERENCES users(id)"],
  ["events_repo_id_fkey1", "FOREIGN KEY (repo_id) REFERENCES repos(id)"],
  ["events_org_id_fkey1", "FOREIGN KEY (org_id) REFERENCES users(id)"],
];

const nameOf = (sql: string) => /^CREATE INDEX (\w+)/.exec(sql)![1]!;

type Queryable = Pick<pg.Pool, "query">;

export async function dropFeedIndexes(db: Queryable): Promise<void> {
  await db.query(
    [
      ...FEED_INDEXES.map((sql) => `DROP INDEX IF EXISTS ${nameOf(sql)};`),
      ...EVENT_FOREIGN_KEYS.map(([name]) => `ALTER TABLE events DROP CONSTRAINT IF EXISTS ${name};`),
    ].join("\n"),
  );
}

/**
 * Creates whichever feed index or foreign key is missing: after a deferred import, or at open after one was
 * interrupted. Each is looked for first: CREATE INDEX IF NOT EXISTS would lock the table against writes even when the
 * index is there.
 */
export async function ensureFeedIndexes(db: Queryable): Promise<void> {
  const { rows } = await db.query<{ name: string }>(
    `SELECT name FROM unnest($1::text[]) AS name WHERE to_regclass(name) IS NULL
    UNION ALL SELECT name FROM unnest($2::text[]) AS name
      WHERE NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conrelid = 'events'::regclass AND conname = name)`,
    [FEED_INDEXES.map(nameOf), EVENT_FOREIGN_KEYS.map(([name]) => name)],
  );
  const missing = new Set(rows.map((r) => r.name));
  for (const sql of FEED_INDEXES)
    if (missing.has(nameOf(sql))) await db.query(sql.replace("CREATE INDEX", "CREATE INDEX IF NOT EXISTS"));
  for (const [name, definition] of EVENT_FOREIGN_KEYS) {
    if (missing.has(name)) await db.query(`ALTER TABLE events ADD CONSTRAINT ${name} ${definition}`);
  }
}

/**
 * The same after a bulk load, with no statement timeout (ten million rows take minutes) and more memory for the sort
 * than the default 64 MB, so that each partition's index is sorted in memory rather than on disk.
 */
export function buildFeedIndexes(pool: pg.Pool): Promise<void> {
  return withClient(pool, async (client) => {
    await client.query("SET statement_timeout = 0; SET maintenance_work_mem = '256MB'");
    try {
      await ensureFeedIndexes(client);
    } finally {
      await client.query("RESET statement_timeout; RESET maintenance_work_mem");
    }
  });
}

/**
 * After a bulk load: the planner's statistics made (none exist for the rows just copied, and a plan guessed without
 * them read a whole month's partition for a received feed), and every loaded row marked visible to all, without which
 * a read from the covering indexes (migration 18) still visits the table for each row. Autovacuum would get there on
 * its own, minutes later, with the first requests paying meanwhile.
 */
export function vacuumAfterLoad(pool: pg.Pool): Promise<void> {
  return withClient(pool, async (client) => {
    await client.query("SET statement_timeout = 0");
    try {
      await client.query("VACUUM (ANALYZE) events, issue_events");
    } finally {
      await client.query("RESET statement_timeout");
    }
  });
}
