/**
 * The retention batches' SQL, shared by both drivers (`@name` parameters). Each deletes the oldest rows first, found
 * through an index on their time (migration 16; sessions are few), at most `@limit` of them.
 */
export const RETENTION_SQL = {
  deliveries: `DELETE FROM hook_deliveries WHERE id IN (
    SELECT id FROM hook_deliveries WHERE delivered_at < @before ORDER BY delivered_at LIMIT @limit)`,
  sessions: `DELETE FROM sessions WHERE id_hash IN (
    SELECT id_hash FROM sessions WHERE last_seen_at < @idleBefore OR created_at < @createdBefore LIMIT @limit)`,
  /**
   * SQLite's events (PostgreSQL drops partitions instead). The newest arrival is kept whatever its age: SQLite numbers
   * the next arrival after the highest stored (sqlite/ingest.ts), and a number given twice would hide an event from
   * the live streams that saw the first.
   */
  events: `DELETE FROM events WHERE id IN (
    SELECT id FROM events WHERE created_at < @before AND seq < (SELECT max(seq) FROM events) ORDER BY created_at LIMIT @limit)`,
};
