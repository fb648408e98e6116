/**
 * The store drivers the contract suites run on: SQLite always; PostgreSQL when reachable (always under CI), else
 * the driver's suite reports itself skipped with the reason.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SqliteStore } from "../../src/server/store/sqlite/sqlite-store.js";
import { PostgresStore } from "../../src/server/store/postgres/postgres-store.js";
import type { Store } from "../../src/server/store/store.js";
import { createTestDatabase, skipUnlessPostgres } from "./services.js";

export interface OpenedStore {
  store: Store;
  /** The SQLite file or the PostgreSQL URL, for snapshot(). */
  db: string;
  close(): Promise<void>;
}

export interface Driver {
  name: "sqlite" | "postgres";
  skip: string | false;
  open(): Promise<OpenedStore>;
}

export const postgresSkip = await skipUnlessPostgres();

export const DRIVERS: Driver[] = [
  {
    name: "sqlite",
    skip: false,
    async open() {
      const dir = mkdtempSync(join(tmpdir(), "feedgate-contract-"));
      const db = join(dir, "feedgate.db");
      const store = await SqliteStore.open(db);
      return { store, db, async close() { await store.close(); rmSync(dir, { recursive: true, force: true }); } };
    },
  },
  {
    name: "postgres",
    skip: postgresSkip,
    async open() {
      const database = await createTestDatabase();
      const store = await PostgresStore.open(database.url);
      return { store, db: database.url, async close() { await store.close(); await database.drop(); } };
    },
  },
];
