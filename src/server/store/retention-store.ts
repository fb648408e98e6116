/**
 * What background retention (services/retention.ts) asks of the store: each call removes one batch, in one short
 * transaction, and says how much it removed, so that the caller can pause between batches and stop when one comes
 * back short.
 */

/** What one batch of event retention removed: rows (SQLite deletes them) or whole months (PostgreSQL's partitions). */
export interface EventsPruned {
  rows: number;
  partitions: number;
}

export interface RetentionStore {
  /** Deletes at most `limit` webhook attempts (`hook_deliveries`) made before `before`; how many. */
  pruneDeliveries(before: Date, limit: number): Promise<number>;
  /** Deletes at most `limit` console sessions idle since before `idleBefore` or created before `createdBefore`. */
  pruneSessions(idleBefore: Date, createdBefore: Date, limit: number): Promise<number>;
  /**
   * Removes one batch of events created before `before`: at most `limit` rows (SQLite), or the one oldest month
   * partition that ends by then (PostgreSQL, which keeps a month until all of it is older). Raises the ingest
   * generation when it removed any, so that cached pages and feed totals are counted again.
   */
  pruneEvents(before: Date, limit: number): Promise<EventsPruned>;
  /**
   * Readies the events table for what comes (PostgreSQL: the partitions of this month and the next, and of any
   * month whose rows landed in the default partition); nothing to do on SQLite.
   */
  prepareEvents(now: Date): Promise<void>;
}
