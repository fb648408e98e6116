/**
 * The action log's PostgreSQL part: the month's event partition made before the transaction (as an ingest makes its
 * months'), the ingest's locks taken first inside it, so that actions and ingests write one after another and the ids
 * an action reads as the highest stay so, and its events ingested with the ingest's own statements on its client.
 *
 * Not shared: partitions, advisory locks and COPY are PostgreSQL's (postgres/ingest.ts).
 */
import { madeBatch, type ActionDriver } from "../action-store.js";
import { ingestProgram } from "../ingest-plan.js";
import { runProgramAsync } from "../ingest-protocol.js";
import { SHARE_PARTITIONS, type EventPartitions } from "./event-partitions.js";
import { clientOf } from "./executor.js";
import { driver, INGEST_LOCK } from "./ingest.js";

export function postgresActionDriver(partitions: EventPartitions): ActionDriver {
  return {
    // Not made (the lock not had in time), the month's events go to the default partition, as an ingest's do.
    prepare: (now) => partitions.ensure([Math.floor(now.getTime() / 1000)]).catch(() => undefined),
    lock: async (tx) => {
      await tx.run(INGEST_LOCK);
      await tx.run(SHARE_PARTITIONS);
    },
    ingest: (tx, made, now, options) =>
      runProgramAsync(ingestProgram(madeBatch(made), now, options), driver(clientOf(tx))),
    committed: () => undefined,
  };
}
