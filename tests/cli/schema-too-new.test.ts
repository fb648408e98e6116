/**
 * A database a newer feedgate migrated (a schema version this code lacks) is refused by `serve` and `migrate` before
 * anything is written, with one line naming both versions, on both drivers: a rollback of the binary after an
 * upgrade must not let old code write rows in shapes the new schema does not expect.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { feedgate, runCli } from "../helpers/cli.js";
import { createTestDatabase, skipUnlessPostgres, type TestDatabase } from "../helpers/services.js";
import { LATEST_SCHEMA_VERSION } from "../../src/server/store/schema-version.js";

const FUTURE = LATEST_SCHEMA_VERSION + 3;
const REFUSAL =
  `feedgate: the database is at schema version ${FUTURE}, newer than this feedgate's (${LATEST_SCHEMA_VERSION}): ` +
  `run a feedgate that knows version ${FUTURE}, or restore a backup made at version ${LATEST_SCHEMA_VERSION} or earlier; ` +
  "nothing was written";

interface Driver {
  name: string;
  skip: string | false;
  /** A database migrated by this feedgate, then by a newer one (a table and a schema_migrations row it added). */
  fromTheFuture(): Promise<string>;
  /** Everything a write would change: the file's bytes and times, or every table's rows. */
  fingerprint(db: string): Promise<unknown>;
}

const dir = mkdtempSync(join(tmpdir(), "feedgate-too-new-"));
const databases: TestDatabase[] = [];

/** The newer feedgate's migration, in each driver's SQL. */
const futureMigration = (ids: string) => [
  `CREATE TABLE future_things (id ${ids} PRIMARY KEY, what TEXT NOT NULL)`,
  "INSERT INTO future_things (id, what) VALUES (1, 'kept')",
];

const DRIVERS: Driver[] = [
  {
    name: "SQLite",
    skip: false,
    async fromTheFuture() {
      const path = join(dir, "future.db");
      assert.equal((await runCli(["migrate", "--db", path])).code, 0);
      const db = new Database(path);
      for (const sql of futureMigration("INTEGER")) db.exec(sql);
      db.prepare("INSERT INTO schema_migrations VALUES (?, 'from a newer feedgate', ?)").run(
        FUTURE,
        new Date().toISOString(),
      );
      db.close(); // checkpoints the WAL into the file and removes it
      return path;
    },
    async fingerprint(path) {
      const { mtimeMs, size } = statSync(path);
      return {
        sha256: createHash("sha256").update(readFileSync(path)).digest("hex"),
        mtimeMs,
        size,
        wal: existsSync(`${path}-wal`) ? statSync(`${path}-wal`).size : "none",
      };
    },
  },
  {
    name: "PostgreSQL",
    skip: await skipUnlessPostgres(),
    async fromTheFuture() {
      const database = await createTestDatabase();
      databases.push(database);
      assert.equal((await runCli(["migrate", "--db", database.url])).code, 0);
      await withClient(database.url, async (client) => {
        for (const sql of futureMigration("integer")) await client.query(sql);
        await client.query("INSERT INTO schema_migrations VALUES ($1, 'from a newer feedgate', now())", [FUTURE]);
      });
      return database.url;
    },
    fingerprint: (url) =>
      withClient(url, async (client) => {
        const { rows: tables } = await client.query<{ name: string }>(
          "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1",
        );
        const contents: Record<string, unknown> = {};
        for (const { name } of tables) contents[name] = (await client.query(`SELECT * FROM ${name} ORDER BY 1`)).rows;
        return contents;
      }),
  },
];

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

after(async () => {
  for (const database of databases) await database.drop();
  rmSync(dir, { recursive: true, force: true });
});

for (const driver of DRIVERS) {
  describe(`a database from a newer feedgate, on ${driver.name}`, { skip: driver.skip }, () => {
    let db: string;
    let before_: unknown;
    before(async () => {
      db = await driver.fromTheFuture();
      before_ = await driver.fingerprint(db);
    });

    test("feedgate migrate refuses it: one line naming both versions, status 1, nothing written", async () => {
      const result = await runCli(["migrate", "--db", db]);
      assert.deepEqual([result.code, result.stdout, result.stderr], [1, "", `${REFUSAL}\n`]);
      assert.deepEqual(await driver.fingerprint(db), before_);
    });

    test("feedgate serve refuses it before listening: the same line, the process ends, nothing written", async () => {
      const run = feedgate(["serve", "--db", db, "--port", "0"]);
      const timer = setTimeout(() => run.child.kill("SIGKILL"), 20_000);
      const exit = await run.done;
      clearTimeout(timer);
      assert.deepEqual([exit.code, exit.stderr.trim().split("\n")], [1, [REFUSAL]], exit.stdout);
      assert.doesNotMatch(exit.stdout, /"feedgate":"ready"/);
      assert.deepEqual(await driver.fingerprint(db), before_);
    });

    test("the commands that open the store refuse it too", async () => {
      for (const command of [
        ["user", "list"],
        ["token", "add", "nobody"],
      ]) {
        const result = await runCli([...command, "--db", db]);
        assert.deepEqual([command, result.code, result.stderr], [command, 1, `${REFUSAL}\n`]);
      }
      assert.deepEqual(await driver.fingerprint(db), before_);
    });
  });
}
