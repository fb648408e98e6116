/** Retention's batches in SQLite (SQL in ../retention-sql.ts): one short write transaction each. */
import type Database from "better-sqlite3";
import type { EventsPruned, RetentionStore } from "../retention-store.js";
import { RETENTION_SQL } from "../retention-sql.js";
import { RAISE_GENERATION } from "../feed-sql.js";
import { SQLITE_VALUES } from "../sql-values.js";

export class SqliteRetention implements RetentionStore {
  private readonly deliveries;
  private readonly sessions;
  private readonly events;
  private readonly raise;

  constructor(private readonly db: Database.Database) {
    this.deliveries = db.prepare<{ before: string; limit: number }>(RETENTION_SQL.deliveries);
    this.sessions = db.prepare<{ idleBefore: string; createdBefore: string; limit: number }>(RETENTION_SQL.sessions);
    this.events = db.prepare<{ before: number; limit: number }>(RETENTION_SQL.events);
    this.raise = db.prepare(RAISE_GENERATION);
  }

  async pruneDeliveries(before: Date, limit: number): Promise<number> {
    // delivered_at is ISO text (hook-sql.ts), which sorts as the times do.
    return this.deliveries.run({ before: before.toISOString(), limit }).changes;
  }

  async pruneSessions(idleBefore: Date, createdBefore: Date, limit: number): Promise<number> {
    const time = SQLITE_VALUES.time;
    return this.sessions.run({ idleBefore: time(idleBefore), createdBefore: time(createdBefore), limit }).changes;
  }

  async pruneEvents(before: Date, limit: number): Promise<EventsPruned> {
    const rows = this.db
      .transaction(() => {
        const deleted = this.events.run({ before: Math.floor(before.getTime() / 1000), limit }).changes;
        // Feeds changed: cached pages and totals are forgotten (services/feed-totals.ts counts again).
        if (deleted > 0) this.raise.run();
        return deleted;
      })
      .immediate();
    return { rows, partitions: 0 };
  }

  async prepareEvents(): Promise<void> {}
}
