/**
 * The serving pool's limits hold on every connection, including the one a migration borrowed: migrations run
 * without a statement timeout, and that connection goes back to the pool that serves requests.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import type pg from "pg";
import { PostgresStore } from "../../src/server/store/postgres/postgres-store.js";
import { createTestDatabase, skipUnlessPostgres, type TestDatabase } from "../helpers/services.js";

const skip = await skipUnlessPostgres();

describe("PostgreSQL pool limits after migrating", { skip }, () => {
  let database: TestDatabase;
  let store: PostgresStore;
  before(async () => {
    database = await createTestDatabase();
    // One connection: the one the migration used is the one every later query gets.
    store = await PostgresStore.open(database.url, {
      maxConnections: 1,
      connectTimeoutMs: 5_000,
      statementTimeoutMs: 1_500,
      queryTimeoutMs: 20_000,
    });
  });
  after(async () => {
    await store?.close();
    await database?.drop();
  });

  test("a statement longer than --db-statement-timeout is cancelled on the connection that migrated", async () => {
    await store.migrate(); // again, now that the schema is there
    // The store has no query of its own that takes seconds; its pool (private) is what the server's queries use.
    const { pool } = store as unknown as { pool: pg.Pool };
    assert.equal(
      (await pool.query<{ statement_timeout: string }>("SHOW statement_timeout")).rows[0]!.statement_timeout,
      "1500ms",
    );
    await assert.rejects(pool.query("SELECT pg_sleep(3)"), /statement timeout/);
  });
});
