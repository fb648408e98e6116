/**
 * The action log's SQLite part: an action's transaction is BEGIN IMMEDIATE on the main connection, which holds the
 * database's one write lock, so nothing else is locked; its events are ingested with the ingest's own statements on
 * that connection, inside the open transaction.
 *
 * Not shared: better-sqlite3's synchronous statements (sqlite/ingest.ts); PostgreSQL's ingest is COPY and locks.
 */
import type Database from "better-sqlite3";
import { madeBatch, type ActionDriver } from "../action-store.js";
import { programsOn } from "./ingest.js";

export function sqliteActionDriver(db: Database.Database, committed: () => void): ActionDriver {
  let run: ReturnType<typeof programsOn> | undefined;
  return {
    prepare: async () => undefined,
    opening: undefined,
    write: async (tx, made, now) => {
      await (run ??= programsOn(db))(madeBatch(made), now, { webhooks: null });
      // The ingest's statements know no issue numbers: a made issue event is the per-issue feed's.
      for (const e of made.issueEvents)
        await tx.run("UPDATE issue_events SET issue_number = @number WHERE id = @id", {
          id: e.id,
          number: e.issueNumber,
        });
    },
    committed,
  };
}
