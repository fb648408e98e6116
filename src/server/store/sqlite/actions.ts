/**
 * The action log's SQLite part: an action's transaction is BEGIN IMMEDIATE on the main connection, which holds the
 * database's one write lock, so nothing else is locked; what it made is written with statements of its own inside the
 * open transaction (sqlite/made-rows.ts).
 *
 * Not shared: PostgreSQL's part takes the ingest's locks and makes the month's partition (postgres/actions.ts).
 */
import type { ActionDriver } from "../action-store.js";
import { writeMade } from "./made-rows.js";

export function sqliteActionDriver(committed: () => void): ActionDriver {
  return {
    prepare: async () => undefined,
    opening: undefined,
    write: (tx, made) => writeMade(tx, made),
    committed,
  };
}
