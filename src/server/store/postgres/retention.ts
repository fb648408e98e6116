/** Retention's batches in PostgreSQL (SQL in ../retention-sql.ts); events go a month partition at a time. */
import type pg from "pg";
import type { EventsPruned, RetentionStore } from "../retention-store.js";
import { RETENTION_SQL } from "../retention-sql.js";
import type { EventPartitions } from "./event-partitions.js";
import { named } from "./pool.js";

export class PostgresRetention implements RetentionStore {
  constructor(
    private readonly pool: pg.Pool,
    private readonly partitions: EventPartitions,
  ) {}

  async pruneDeliveries(before: Date, limit: number): Promise<number> {
    return (await this.pool.query(named(RETENTION_SQL.deliveries, { before, limit }))).rowCount ?? 0;
  }

  async pruneSessions(idleBefore: Date, createdBefore: Date, limit: number): Promise<number> {
    return (await this.pool.query(named(RETENTION_SQL.sessions, { idleBefore, createdBefore, limit }))).rowCount ?? 0;
  }

  async pruneEvents(before: Date): Promise<EventsPruned> {
    const dropped = await this.partitions.dropOldest(Math.floor(before.getTime() / 1000));
    return { rows: 0, partitions: dropped ? 1 : 0 };
  }

  async prepareEvents(now: Date): Promise<void> {
    await this.partitions.adoptDefault();
    const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
    await this.partitions.ensure([now.getTime(), next].map((ms) => Math.floor(ms / 1000)));
  }
}
