/**
 * The action log's PostgreSQL part: the month's event partition made before the transaction (as an ingest makes its
 * months'), the ingest's locks taken first inside it (sent with its BEGIN), so that actions and ingests write one
 * after another and the ids an action reads as the highest stay so, and what it made written in one statement on its
 * client (postgres/made-rows.ts).
 *
 * Not shared: partitions and advisory locks are PostgreSQL's (postgres/ingest.ts).
 */
import type { ActionDriver } from "../action-store.js";
import { SHARE_PARTITIONS, type EventPartitions } from "./event-partitions.js";
import { clientOf } from "./executor.js";
import { INGEST_LOCK } from "./ingest.js";
import { writeMade } from "./made-rows.js";

export function postgresActionDriver(partitions: EventPartitions): ActionDriver {
  return {
    // Not made (the lock not had in time), the month's events go to the default partition, as an ingest's do.
    prepare: (now) => partitions.ensure([Math.floor(now.getTime() / 1000)]).catch(() => undefined),
    opening: `${INGEST_LOCK}; ${SHARE_PARTITIONS}`,
    write: (tx, made) => writeMade(clientOf(tx), made),
    committed: () => undefined,
  };
}
