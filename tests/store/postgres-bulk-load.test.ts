/**
 * A PostgreSQL bulk load (`feedgate import` into an empty events table) defers the feed indexes and the events'
 * foreign keys (postgres/feed-indexes.ts): afterwards the table has exactly what the migrations gave it, also after a
 * load that failed half-way or a process stopped before it could build them (the next open builds them); a table
 * that already holds events is loaded with everything in place. Bodies go out in COPY's binary format: every
 * character that the text format had to escape arrives as it was.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import pg from "pg";
import { PostgresStore } from "../../src/server/store/postgres/postgres-store.js";
import { dropFeedIndexes, EVENT_FOREIGN_KEYS, FEED_INDEXES } from "../../src/server/store/postgres/feed-indexes.js";
import { emptyBatch } from "../../src/server/services/event-envelope.js";
import type { IngestBatch } from "../../src/server/store/store.js";
import { createTestDatabase, skipUnlessPostgres, type TestDatabase } from "../helpers/services.js";

const skip = await skipUnlessPostgres();

/** The events table's indexes and constraints (`index <name>`, `constraint <name>`: the primary key is both), with their definitions. */
async function schema(client: pg.Client): Promise<Record<string, string>> {
  const { rows } = await client.query<{ name: string; definition: string }>(`
    SELECT 'index ' || indexname AS name, indexdef AS definition FROM pg_indexes WHERE tablename = 'events'
    UNION ALL SELECT 'constraint ' || conname, pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = 'events'::regclass
    ORDER BY 1`);
  return Object.fromEntries(rows.map((r) => [r.name, r.definition]));
}

function batchOf(id: string, body: string): IngestBatch {
  const batch = emptyBatch();
  batch.events.push({
    source: `e${id}`,
    id,
    type: "PushEvent",
    actorLogin: "loader",
    repoName: "loader/repo",
    orgLogin: "org",
    public: true,
    createdAt: new Date("2024-01-01T00:00:00Z"),
    complete: false,
    body,
  });
  return batch;
}

describe("PostgreSQL bulk load", { skip }, () => {
  let database: TestDatabase;
  let store: PostgresStore;
  let client: pg.Client;
  let migrated: Record<string, string>;

  before(async () => {
    database = await createTestDatabase();
    store = await PostgresStore.open(database.url);
    client = new pg.Client({ connectionString: database.url });
    await client.connect();
    migrated = await schema(client);
  });
  after(async () => {
    await client?.end();
    await store?.close();
    await database?.drop();
  });

  test("what it defers is what the migrations made, named and defined the same", () => {
    for (const sql of FEED_INDEXES) {
      const name = /^CREATE INDEX (\w+)/.exec(sql)![1]!;
      // PostgreSQL prints the definition back with a schema, the method, and a predicate in parentheses.
      assert.equal(
        migrated[`index ${name}`]?.replace(/WHERE \((.*)\)$/, "WHERE $1"),
        sql.replace(" ON events ", " ON ONLY public.events USING btree "),
        name,
      );
    }
    for (const [name, definition] of EVENT_FOREIGN_KEYS) assert.equal(migrated[`constraint ${name}`], definition, name);
  });

  test("into an empty table, the indexes and keys are missing during the load and back as migrated after it", async () => {
    let during: Record<string, string> = {};
    await store.ingest.bulkLoad(async () => {
      during = await schema(client);
      await store.ingest.apply(batchOf("1", '{"tab":"\t","backslash":"\\\\","newline":"\n","é":"€ 😀"}'), new Date());
    });
    assert.deepEqual(
      Object.keys(during).filter((name) => !Object.keys(migrated).includes(name)),
      [],
    );
    assert.ok(Object.keys(during).length < Object.keys(migrated).length);
    assert.deepEqual(await schema(client), migrated);
  });

  test("after it, the events are vacuumed and analyzed: statistics to plan with, rows marked visible to every reader", async () => {
    // last_vacuum and last_analyze are the manual ones (autovacuum keeps columns of its own).
    const { rows } = await client.query<{ relname: string; vacuumed: boolean; analyzed: boolean }>(`
      SELECT s.relname, s.last_vacuum IS NOT NULL AS vacuumed, s.last_analyze IS NOT NULL AS analyzed
      FROM pg_stat_user_tables s WHERE s.relid = (SELECT tableoid FROM events WHERE id = 1)`);
    assert.deepEqual(
      rows.map((r) => [r.vacuumed, r.analyzed]),
      [[true, true]],
      JSON.stringify(rows),
    );
  });

  test("bodies arrive byte for byte: tabs, backslashes, line breaks and characters beyond ASCII", async () => {
    const { rows } = await client.query("SELECT body FROM events WHERE id = 1");
    assert.equal(rows[0].body, '{"tab":"\t","backslash":"\\\\","newline":"\n","é":"€ 😀"}');
  });

  test("into a table with events, nothing is dropped", async () => {
    let during: Record<string, string> = {};
    await store.ingest.bulkLoad(async () => {
      during = await schema(client);
    });
    assert.deepEqual(during, migrated);
  });

  test("a load that fails still builds them; one stopped before building them gets them back at the next open", async () => {
    await client.query("TRUNCATE events, issue_events");
    await assert.rejects(
      store.ingest.bulkLoad(async () => {
        throw new Error("the file went away");
      }),
      /the file went away/,
    );
    assert.deepEqual(await schema(client), migrated);
    await dropFeedIndexes(client); // as a killed import leaves them
    const reopened = await PostgresStore.open(database.url);
    await reopened.close();
    assert.deepEqual(await schema(client), migrated);
  });
});
