/**
 * Every state table of a test double's database, read directly: what the tests of reset(), restore() and parked
 * stores compare, table by table (src/server/store/sqlite/state.ts, src/testing/parked-stores.ts).
 */
import type Database from "better-sqlite3";
import { NOT_STATE } from "../../src/server/store/state-store.js";
import type { Feedgate } from "../../src/testing/index.js";

/** Every state table's rows and the id counters, each in the order of its first two columns. */
export function stateTables(fg: Feedgate): Record<string, unknown[]> {
  // The store's connection, private to it: these tests read the tables themselves.
  const { db } = fg.store as unknown as { db: Database.Database };
  const tables = db
    .prepare<[], string>("SELECT name FROM main.sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
    .pluck()
    .all()
    .filter((name) => !NOT_STATE.includes(name));
  return Object.fromEntries(
    [...tables, "sqlite_sequence"].map((table) => [
      table,
      db.prepare(`SELECT * FROM main."${table}" ORDER BY 1, 2`).all(),
    ]),
  );
}
