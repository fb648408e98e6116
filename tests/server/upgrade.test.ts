/**
 * Upgrades keep the data: for every schema version, on the test driver (both in `npm test`), a database is built as the feedgate of that
 * version left it (its migrations, and rows in every table it had, written in its columns: tests/helpers/
 * upgrade-fixtures.ts), then a copy of it is opened by this feedgate, which migrates it to the latest version, and
 * every row is read back through the API. One database is built up a version at a time and copied at each, so that
 * each version's is not built again from the first migration (on PostgreSQL that was half of this file's minutes).
 * A migration added without fixture rows fails here, saying so.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { buildApp } from "../../src/server/app.js";
import { loadConfig } from "../../src/server/config.js";
import { migrations } from "../../src/server/store/migrations/index.js";
import { LATEST_SCHEMA_VERSION } from "../../src/server/store/schema-version.js";
import { migrateDatabase, SqliteStore } from "../../src/server/store/sqlite/sqlite-store.js";
import { migratePostgres, PostgresStore } from "../../src/server/store/postgres/postgres-store.js";
import type { Store } from "../../src/server/store/store.js";
import { setPasswordCost } from "../../src/server/services/credentials.js";
import { createTestDatabase } from "../helpers/services.js";
import { testDriver } from "../helpers/store-drivers.js";
import { TEST_PASSWORD_COST } from "../helpers/password-cost.js";
import { FIXTURES, type Api, type Fixture, type FixtureDb, type Made } from "../helpers/upgrade-fixtures.js";

setPasswordCost(TEST_PASSWORD_COST);
const FIXTURES_FILE = "tests/helpers/upgrade-fixtures.ts";

/** A database of one driver being built as older feedgates left it, one version after another. */
interface OldDatabase {
  /** Applies the migrations up to `version`, as the feedgate of that version did. */
  migrateTo(version: number): Promise<void>;
  fixtureDb: FixtureDb;
  /** Every table (but the migrations' own record) and its number of rows. */
  tableRows(): Promise<Record<string, number>>;
  /** A copy of the database as it is now, for this feedgate to open; the building goes on in the original. */
  copy(): Promise<{ db: string; drop(): Promise<void> }>;
  drop(): Promise<void>;
}

const columnsOf = (row: Record<string, unknown>) => Object.keys(row).join(", ");

async function oldSqlite(): Promise<OldDatabase> {
  const dir = mkdtempSync(join(tmpdir(), "feedgate-upgrade-"));
  const path = join(dir, "old.db");
  const db = new Database(path);
  db.pragma("journal_mode = WAL");
  db.pragma("foreign_keys = ON");
  // better-sqlite3 takes numbers, text and null: booleans are 1 and 0, as the SQLite driver writes them.
  const value = (v: unknown) => (typeof v === "boolean" ? Number(v) : v);
  return {
    async migrateTo(to) {
      migrateDatabase(db, to);
    },
    fixtureDb: {
      driver: "sqlite",
      async insert(table, row) {
        const sql = `INSERT INTO ${table} (${columnsOf(row)}) VALUES (${Object.keys(row)
          .map(() => "?")
          .join(", ")}) RETURNING *`;
        const inserted = db.prepare(sql).get(...Object.values(row).map(value)) as { id?: number };
        return inserted.id;
      },
      async run(sql, ...params) {
        db.prepare(sql).run(...params.map(value));
      },
    },
    async tableRows() {
      const tables = db
        .prepare(
          "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' " +
            "AND name <> 'schema_migrations' ORDER BY name",
        )
        .pluck()
        .all() as string[];
      return Object.fromEntries(
        tables.map((t) => [t, db.prepare(`SELECT count(*) FROM ${t}`).pluck().get() as number]),
      );
    },
    async copy() {
      // Everything in the main file, so that a copy of it alone is the whole database.
      db.pragma("wal_checkpoint(TRUNCATE)");
      const copyDir = mkdtempSync(join(tmpdir(), "feedgate-upgrade-"));
      const copied = join(copyDir, "copy.db");
      copyFileSync(path, copied);
      return { db: copied, drop: async () => rmSync(copyDir, { recursive: true, force: true }) };
    },
    async drop() {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function oldPostgres(): Promise<OldDatabase> {
  const database = await createTestDatabase();
  let client = new pg.Client({ connectionString: database.url });
  await client.connect();
  const numbered = (sql: string) => {
    let n = 0;
    return sql.replace(/\?/g, () => `$${++n}`);
  };
  return {
    async migrateTo(to) {
      await migratePostgres(client, to);
    },
    fixtureDb: {
      driver: "postgres",
      async insert(table, row) {
        const sql = `INSERT INTO ${table} (${columnsOf(row)}) VALUES (${Object.keys(row)
          .map(() => "?")
          .join(", ")}) RETURNING *`;
        const { rows } = await client.query<{ id?: string }>(numbered(sql), Object.values(row));
        return rows[0]!.id === undefined ? undefined : Number(rows[0]!.id);
      },
      async run(sql, ...params) {
        await client.query(numbered(sql), params);
      },
    },
    async tableRows() {
      // Tables and partitioned tables, not their partitions: events' months (and its default partition, empty unless
      // a row arrives before its month's partition) are counted through the parent.
      const { rows } = await client.query<{ name: string }>(
        "SELECT c.relname AS name FROM pg_class c " +
          "JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') " +
          "AND NOT c.relispartition AND c.relname <> 'schema_migrations' ORDER BY 1",
      );
      const counts: Record<string, number> = {};
      for (const { name } of rows)
        counts[name] = Number((await client.query(`SELECT count(*) AS n FROM ${name}`)).rows[0].n);
      return counts;
    },
    async copy() {
      // A template is copied only while no session is connected to it.
      await client.end();
      try {
        const copied = await createTestDatabase({ copyOf: database.name });
        return { db: copied.url, drop: () => copied.drop() };
      } finally {
        client = new pg.Client({ connectionString: database.url });
        await client.connect();
      }
    },
    async drop() {
      await client.end().catch(() => undefined);
      await database.drop();
    },
  };
}

const hasRows = (fixture: Fixture | { none: string }): fixture is Fixture => "rows" in fixture;

/** An API over `store` answering in process, for the checks. */
async function apiOver(db: string, store: Store): Promise<Api & { close(): Promise<void> }> {
  // The fixtures' rows are dated 2024: retention, which would delete their deliveries on the first start after an upgrade
  // as it should, is off so that the checks read what the migrations kept.
  const app = await buildApp({
    config: loadConfig(
      {
        db,
        logLevel: "silent",
        rateLimitAnonymous: 1_000_000,
        passwordCost: TEST_PASSWORD_COST,
        webhookDeliveryRetention: "off",
      },
      {},
    ),
    store,
  });
  return {
    app,
    store,
    async get(url, authorization, headers = {}) {
      const response = await app.inject({ url, headers: { ...headers, ...(authorization ? { authorization } : {}) } });
      let body: unknown = response.body;
      try {
        body = response.json();
      } catch {
        // an HTML page (the console): the text is the body
      }
      return { status: response.statusCode, body };
    },
    close: () => app.close(),
  };
}

test("every migration has upgrade fixtures: rows in the columns it adds and a check reading them back, or a reason it needs none", () => {
  const missing = migrations
    .filter((m) => FIXTURES[m.id] === undefined)
    .map(
      (m) =>
        `migration ${m.id} (${m.name}) has no upgrade fixture: add rows for what it adds, and a check reading them ` +
        `back through the API, to FIXTURES in ${FIXTURES_FILE} (or { none: "why" } when it adds no table or column)`,
    );
  assert.deepEqual(missing, []);
  const unknown = Object.keys(FIXTURES)
    .map(Number)
    .filter((id) => !migrations.some((m) => m.id === id));
  assert.deepEqual(unknown, [], "fixtures for migrations that do not exist");
});

const DRIVERS = [
  { name: "sqlite", old: oldSqlite, open: (db: string) => SqliteStore.open(db) },
  { name: "postgres", old: oldPostgres, open: (db: string) => PostgresStore.open(db) },
];
/** The driver FEEDGATE_TEST_STORE names, as for every suite of tests/server: the driver matrix runs this on PostgreSQL. */
const driver = DRIVERS.find((d) => d.name === testDriver().name)!;

describe(`upgrades on ${driver.name}: a database of every schema version, migrated to ${LATEST_SCHEMA_VERSION}, keeps its rows`, {
  skip: testDriver().skip,
}, () => {
  let old: OldDatabase;
  const made: Made = {};
  before(async () => {
    old = await driver.old();
  });
  after(() => old?.drop());

  // In order: each version's test builds its version on the one the test before left.
  for (const migration of migrations) {
    const version = migration.id;
    test(`from version ${version}`, async () => {
      await old.migrateTo(version);
      const fixture = FIXTURES[version];
      assert.ok(fixture, `migration ${version} has no upgrade fixture in ${FIXTURES_FILE}`);
      if (hasRows(fixture)) await fixture.rows(old.fixtureDb, made);
      const empty = Object.entries(await old.tableRows())
        .filter(([, rows]) => rows === 0)
        .map(([table]) => table);
      assert.deepEqual(
        empty,
        [],
        `at schema version ${version}, tables without rows: add rows for them to the fixture of ` +
          `the migration that made them, in ${FIXTURES_FILE}`,
      );

      const copy = await old.copy();
      try {
        const store = await driver.open(copy.db);
        try {
          assert.deepEqual(
            [store.migratedAtOpen.version, store.migratedAtOpen.applied],
            [LATEST_SCHEMA_VERSION, LATEST_SCHEMA_VERSION - version],
          );
          const api = await apiOver(copy.db, store);
          try {
            for (const checked of migrations.filter((m) => m.id <= version)) {
              const checkedFixture = FIXTURES[checked.id]!;
              if (!hasRows(checkedFixture)) continue;
              await test(`the rows of version ${checked.id} (${checked.name})`, () => checkedFixture.check(api, made));
            }
          } finally {
            await api.close();
          }
        } finally {
          await store.close();
        }
      } finally {
        await copy.drop();
      }
    });
  }
});
