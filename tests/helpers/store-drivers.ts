/**
 * The one place tests pick a store driver. The contract suites (tests/store) run on every driver in one run:
 * SQLite always; PostgreSQL when reachable (always under CI), else the driver's suite reports itself skipped with
 * the reason. Everything else (the apps of tests/server, the CLI) runs on `testDriver()`, the driver
 * FEEDGATE_TEST_STORE names: SQLite by default, PostgreSQL in the driver matrix run (tests/matrix/postgres.ts).
 */
import { describe } from "node:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SqliteStore } from "../../src/server/store/sqlite/sqlite-store.js";
import { PostgresStore } from "../../src/server/store/postgres/postgres-store.js";
import type { Store } from "../../src/server/store/store.js";
import { createTestDatabase, skipUnlessPostgres } from "./services.js";

/** A new, empty database of one driver, not opened yet. */
export interface TestDatabase {
  /** The SQLite file or the PostgreSQL URL: what `--db` takes. */
  db: string;
  /** Removes the database (the SQLite file's directory, or the PostgreSQL database). */
  drop(): Promise<void>;
}

export interface OpenedStore {
  store: Store;
  /** The SQLite file or the PostgreSQL URL, for snapshot(). */
  db: string;
  close(): Promise<void>;
}

export type DriverName = "sqlite" | "postgres";

export interface Driver {
  name: DriverName;
  skip: string | false;
  /** A new database a store opens at the latest schema (on PostgreSQL, a copy of one migrated once). */
  create(): Promise<TestDatabase>;
  /** A new database without a table, for a test that builds an older schema itself. */
  createEmpty(): Promise<TestDatabase>;
  /** A new database, opened (and so migrated); `close()` closes the store and drops the database. */
  open(): Promise<OpenedStore>;
  /**
   * A new database for a test of what the store computes, not of the file it keeps: on SQLite `:memory:` (no file,
   * no write worker, whose start tests opening a store per case would pay hundreds of times over), on PostgreSQL a
   * new database, as create() makes.
   */
  createScratch(): Promise<TestDatabase>;
  /** A scratch database (createScratch), opened; `close()` as open()'s. */
  openScratch(): Promise<OpenedStore>;
}

/** Opens a store on a database `db` names, as `--db` does: a PostgreSQL URL, or a SQLite file. */
export function openStore(db: string): Promise<Store> {
  return /^postgres(ql)?:/.test(db) ? PostgresStore.open(db) : SqliteStore.open(db);
}

function driver(
  name: DriverName,
  skip: string | false,
  create: () => Promise<TestDatabase>,
  createScratch = create,
  createEmpty = create,
): Driver {
  const opened = async (database: TestDatabase): Promise<OpenedStore> => {
    const store = await openStore(database.db);
    return {
      store,
      db: database.db,
      async close() {
        await store.close();
        await database.drop();
      },
    };
  };
  return {
    name,
    skip,
    create,
    createScratch,
    createEmpty,
    open: async () => opened(await create()),
    openScratch: async () => opened(await createScratch()),
  };
}

export const postgresSkip = await skipUnlessPostgres();

const asTestDatabase = (database: { url: string; drop(): Promise<void> }): TestDatabase => ({
  db: database.url,
  drop: () => database.drop(),
});

export const DRIVERS: Driver[] = [
  driver(
    "sqlite",
    false,
    async () => {
      const dir = mkdtempSync(join(tmpdir(), "feedgate-test-"));
      return {
        db: join(dir, "feedgate.db"),
        async drop() {
          rmSync(dir, { recursive: true, force: true });
        },
      };
    },
    async () => ({ db: ":memory:", async drop() {} }),
  ),
  driver(
    "postgres",
    postgresSkip,
    async () => asTestDatabase(await createTestDatabase({ migrated: true })),
    undefined,
    async () => asTestDatabase(await createTestDatabase()),
  ),
];

/** The driver FEEDGATE_TEST_STORE names (SQLite unless it says postgres): the one an app or a CLI run uses. */
export function testDriver(): Driver {
  const name = process.env.FEEDGATE_TEST_STORE === "postgres" ? "postgres" : "sqlite";
  return DRIVERS.find((d) => d.name === name)!;
}

/**
 * Declares a part of the store contract on every driver, under `store contract: <driver>`, so each part can be a
 * file of its own (files run in parallel) while its tests keep the names they had in the one-file suite.
 */
export function contractSuite(body: (driver: Driver) => void): void {
  for (const d of DRIVERS) describe(`store contract: ${d.name}`, { skip: d.skip }, () => body(d));
}
