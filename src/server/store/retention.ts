/**
 * Retention's batches, written once over the executor. Each deletes the oldest rows first, found through an index on
 * their time (migration 16; sessions are few), at most `@limit` of them. Events are each driver's own: SQLite deletes
 * rows, PostgreSQL drops month partitions (sqlite/retention.ts, postgres/retention.ts).
 */
import type { Executor } from "./executor.js";
import type { RetentionStore } from "./retention-store.js";

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

/** How a driver removes old events and readies the table for new ones. */
export type EventRetention = Pick<RetentionStore, "pruneEvents" | "prepareEvents">;

export class Retention implements RetentionStore {
  readonly pruneEvents;
  readonly prepareEvents;

  constructor(
    private readonly db: Executor,
    events: EventRetention,
  ) {
    this.pruneEvents = events.pruneEvents.bind(events);
    this.prepareEvents = events.prepareEvents.bind(events);
  }

  async pruneDeliveries(before: Date, limit: number): Promise<number> {
    // delivered_at is ISO text in SQLite (hook-sql.ts), which sorts as the times do.
    return (await this.db.run(RETENTION_SQL.deliveries, { before: this.db.values.time(before), limit })).changes;
  }

  async pruneSessions(idleBefore: Date, createdBefore: Date, limit: number): Promise<number> {
    const { time } = this.db.values;
    const parameters = { idleBefore: time(idleBefore), createdBefore: time(createdBefore), limit };
    return (await this.db.run(RETENTION_SQL.sessions, parameters)).changes;
  }
}
