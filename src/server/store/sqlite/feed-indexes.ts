/**
 * The events table's feed indexes (migration 2 created them, 21 the last feed's, 40 the pushes'; the definitions
 * here are the same, and a test compares them), for imports that defer them: rebuilding an index once, from sorted keys, is far cheaper
 * than updating it for each of millions of rows, and the cost of a per-row update grows with the table.
 *
 * Not shared: SQLite's index definitions and pragmas; PostgreSQL's differ (postgres/feed-indexes.ts).
 */
import type Database from "better-sqlite3";

export const FEED_INDEXES = [
  "CREATE INDEX events_public ON events (created_at DESC, id DESC) WHERE public = 1",
  "CREATE INDEX events_by_repo ON events (repo_id, created_at DESC, id DESC, public, org_id)",
  "CREATE INDEX events_by_actor ON events (actor_id, created_at DESC, id DESC, public, repo_id, org_id)",
  "CREATE INDEX events_by_org ON events (org_id, created_at DESC, id DESC, public, repo_id) WHERE org_id IS NOT NULL",
  // Not a feed's: a repository's newest push, its `pushed_at` (migration 40). Deferred with the others.
  "CREATE INDEX events_pushes_by_repo ON events (repo_id, created_at) WHERE type = 'PushEvent'",
  // Not a feed's: retention's, which deletes the oldest events first (migration 16). Deferred with the others.
  "CREATE INDEX events_by_time ON events (created_at)",
];

const nameOf = (sql: string) => /^CREATE INDEX (\w+)/.exec(sql)![1]!;

export function dropFeedIndexes(db: Database.Database): void {
  db.transaction(() => {
    for (const sql of FEED_INDEXES) db.exec(`DROP INDEX IF EXISTS ${nameOf(sql)}`);
  }).immediate();
}

/** Creates whichever feed index is missing: after a deferred import, or at open after one was interrupted. */
export function ensureFeedIndexes(db: Database.Database): void {
  db.transaction(() => {
    for (const sql of FEED_INDEXES) db.exec(sql.replace("CREATE INDEX", "CREATE INDEX IF NOT EXISTS"));
  }).immediate();
}
