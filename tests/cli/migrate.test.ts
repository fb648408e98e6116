/**
 * `feedgate migrate` says what it did, on both drivers: the schema created on an empty database, the pending
 * migrations applied on an older one, or nothing to do.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { runCli } from "../helpers/cli.js";
import { createTestDatabase, skipUnlessPostgres, type TestDatabase } from "../helpers/services.js";
import { migrations } from "../../src/server/store/migrations/index.js";

const LATEST = migrations.at(-1)!.id;
const FIRST = migrations[0]!;

interface Driver {
  name: string;
  skip: string | false;
  /** A database with nothing in it. */
  empty(): Promise<string>;
  /** A database where only the first migration was applied, as by an old feedgate. */
  atFirstMigration(): Promise<string>;
}

const dir = mkdtempSync(join(tmpdir(), "feedgate-migrate-"));
const databases: TestDatabase[] = [];
let files = 0;

const DRIVERS: Driver[] = [
  {
    name: "SQLite",
    skip: false,
    empty: async () => join(dir, `${++files}.db`),
    async atFirstMigration() {
      const path = join(dir, `${++files}.db`);
      const db = new Database(path);
      db.exec("CREATE TABLE schema_migrations (id INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)");
      db.exec(FIRST.sqlite);
      db.prepare("INSERT INTO schema_migrations VALUES (?, ?, ?)").run(FIRST.id, FIRST.name, new Date().toISOString());
      db.close();
      return path;
    },
  },
  {
    name: "PostgreSQL",
    skip: await skipUnlessPostgres(),
    async empty() {
      const database = await createTestDatabase();
      databases.push(database);
      return database.url;
    },
    async atFirstMigration() {
      const url = await this.empty();
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(
        "CREATE TABLE schema_migrations (id integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL)",
      );
      await client.query(FIRST.postgres);
      await client.query("INSERT INTO schema_migrations VALUES ($1, $2, now())", [FIRST.id, FIRST.name]);
      await client.end();
      return url;
    },
  },
];

after(async () => {
  for (const database of databases) await database.drop();
  rmSync(dir, { recursive: true, force: true });
});

for (const driver of DRIVERS) {
  describe(`feedgate migrate on ${driver.name}`, { skip: driver.skip }, () => {
    let empty: string;
    let old: string;
    before(async () => {
      empty = await driver.empty();
      old = await driver.atFirstMigration();
    });

    test("on an empty database it says it created the schema, with how many migrations", async () => {
      const result = await runCli(["migrate", "--db", empty]);
      assert.deepEqual([result.code, result.stderr], [0, ""]);
      assert.equal(result.stdout, `${empty}: created the schema (${migrations.length} migrations)\n`);
    });

    test("on a database an older feedgate made it says how many it applied and the version now", async () => {
      const result = await runCli(["migrate", "--db", old]);
      assert.deepEqual([result.code, result.stderr], [0, ""]);
      const pending = migrations.length - 1;
      assert.equal(
        result.stdout,
        `${old}: applied ${pending} migration${pending === 1 ? "" : "s"} (now at version ${LATEST})\n`,
      );
    });

    test("run again it says the database is already up to date", async () => {
      for (const db of [empty, old]) {
        const result = await runCli(["migrate", "--db", db]);
        assert.equal(result.stdout, `${db}: already up to date (version ${LATEST})\n`);
      }
    });
  });
}
