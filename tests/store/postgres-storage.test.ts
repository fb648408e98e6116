/**
 * How PostgreSQL stores event bodies (migration 4): compressed with lz4 when the server was built with it,
 * PostgreSQL's default pglz otherwise, and byte for byte either way.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import pg from "pg";
import { PostgresStore } from "../../src/server/store/postgres/postgres-store.js";
import { emptyBatch } from "../../src/server/services/event-envelope.js";
import { createTestDatabase, skipUnlessPostgres, type TestDatabase } from "../helpers/services.js";

const skip = await skipUnlessPostgres();

describe("PostgreSQL event body storage", { skip }, () => {
  let database: TestDatabase;
  let store: PostgresStore;
  let client: pg.Client;
  let lz4 = false;
  // Well over the 2 KB at which PostgreSQL compresses a value, and compressible, like a GH Archive payload.
  const body = JSON.stringify({
    id: "42",
    payload: { commits: Array.from({ length: 100 }, (_, i) => ({ sha: `c${i}`, message: "Fix the build" })) },
  });

  before(async () => {
    database = await createTestDatabase();
    store = await PostgresStore.open(database.url); // migrates
    client = new pg.Client({ connectionString: database.url });
    await client.connect();
    // default_toast_compression lists lz4 among its values only on servers built with it.
    lz4 = (
      await client.query(
        "SELECT 'lz4' = ANY(enumvals) AS lz4 FROM pg_settings WHERE name = 'default_toast_compression'",
      )
    ).rows[0].lz4;
    const batch = emptyBatch();
    batch.events.push({
      source: "e0",
      id: "42",
      type: "PushEvent",
      actorLogin: "big",
      repoName: "big/repo",
      orgLogin: null,
      public: true,
      createdAt: new Date("2024-01-01T00:00:00Z"),
      complete: true,
      body,
    });
    await store.ingest.apply(batch, new Date());
  });
  after(async () => {
    await client?.end();
    await store?.close();
    await database?.drop();
  });

  test("the body columns ask for lz4 where the server has it, and keep the default where it has not", async () => {
    const { rows } = await client.query(`SELECT attrelid::regclass::text AS tbl, attcompression FROM pg_attribute
      WHERE attname = 'body' AND attrelid IN ('events'::regclass, 'issue_events'::regclass) ORDER BY 1`);
    assert.deepEqual(rows, [
      { tbl: "events", attcompression: lz4 ? "l" : "" },
      { tbl: "issue_events", attcompression: lz4 ? "l" : "" },
    ]);
  });

  test("a large body is stored compressed, and read back byte for byte", async () => {
    const { rows } = await client.query("SELECT pg_column_compression(body) AS method, body FROM events WHERE id = 42");
    assert.equal(rows[0].method, lz4 ? "lz4" : "pglz");
    assert.equal(rows[0].body, body);
  });
});
