/**
 * The events table's feed indexes (migration 16 made them; the definitions here are the same, and a test compares
 * them), for an import into an empty table that defers them: one index built at the end from sorted keys costs far
 * less than four indexes updated row by row (and their pages written) through the whole import. The primary key
 * stays, as every look-up of an id needs it; so does `events_by_seq`, appended to in order at no cost worth saving.
 */
import type pg from "pg";
import { withClient } from "./pool.js";

export const FEED_INDEXES = [
  "CREATE INDEX events_public ON events (created_at DESC, id DESC) WHERE public",
  "CREATE INDEX events_by_repo ON events (repo_id, created_at DESC, id DESC)",
  "CREATE INDEX events_by_actor ON events (actor_id, created_at DESC, id DESC)",
  "CREATE INDEX events_by_org ON events (org_id, created_at DESC, id DESC) WHERE org_id IS NOT NULL",
];

const nameOf = (sql: string) => /^CREATE INDEX (\w+)/.exec(sql)![1]!;

type Queryable = Pick<pg.Pool, "query">;

export async function dropFeedIndexes(db: Queryable): Promise<void> {
  await db.query(FEED_INDEXES.map((sql) => `DROP INDEX IF EXISTS ${nameOf(sql)};`).join("\n"));
}

/**
 * Creates whichever feed index is missing: after a deferred import, or at open after one was interrupted. Each is
 * looked for first: CREATE INDEX IF NOT EXISTS would lock the table against writes even when the index is there.
 */
export async function ensureFeedIndexes(db: Queryable): Promise<void> {
  const { rows } = await db.query<{ name: string; found: string | null }>(
    "SELECT name, to_regclass(name)::text AS found FROM unnest($1::text[]) AS name", [FEED_INDEXES.map(nameOf)]);
  const missing = new Set(rows.filter((r) => r.found === null).map((r) => r.name));
  for (const sql of FEED_INDEXES) if (missing.has(nameOf(sql))) await db.query(sql.replace("CREATE INDEX", "CREATE INDEX IF NOT EXISTS"));
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
