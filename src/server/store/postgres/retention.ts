/** PostgreSQL's event retention: a month partition dropped at a time, which needs PostgreSQL's partitions. */
import type { EventRetention } from "../retention.js";
import type { EventPartitions } from "./event-partitions.js";

export const postgresEventRetention = (partitions: EventPartitions): EventRetention => ({
  async pruneEvents(before) {
    const dropped = await partitions.dropOldest(Math.floor(before.getTime() / 1000));
    return { rows: 0, partitions: dropped ? 1 : 0 };
  },
  async prepareEvents(now) {
    await partitions.adoptDefault();
    const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
    await partitions.ensure([now.getTime(), next].map((ms) => Math.floor(ms / 1000)));
  },
});
