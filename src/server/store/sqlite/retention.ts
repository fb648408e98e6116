/** SQLite's event retention: rows deleted in batches, since SQLite has no partitions to drop. */
import type { Executor } from "../executor.js";
import { RAISE_GENERATION } from "../feed-sql.js";
import { RETENTION_SQL, type EventRetention } from "../retention.js";

export const sqliteEventRetention = (db: Executor): EventRetention => ({
  async pruneEvents(before, limit) {
    const rows = await db.transaction(
      async (tx) => {
        const deleted = (await tx.run(RETENTION_SQL.events, { before: Math.floor(before.getTime() / 1000), limit }))
          .changes;
        // Feeds changed: cached pages and totals are forgotten (services/feed-totals.ts counts again).
        if (deleted > 0) await tx.run(RAISE_GENERATION);
        return deleted;
      },
      { write: true },
    );
    return { rows, partitions: 0 };
  },
  async prepareEvents() {},
});
