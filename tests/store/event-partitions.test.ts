/**
 * PostgreSQL's events by month (migration 16): a database written before it keeps every event (ids, arrival numbers,
 * bodies) in monthly partitions; an event for a month without a partition lands in the default one and is moved into
 * its own by retention's next run; retention drops the oldest month that is all past the cut-off, one a batch,
 * raising the generation so that feeds are counted again.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import pg from "pg";
import { PostgresStore } from "../../src/server/store/postgres/postgres-store.js";
import { migrations } from "../../src/server/store/migrations/index.js";
import { emptyBatch } from "../../src/server/services/event-envelope.js";
import type { IngestBatch } from "../../src/server/store/store.js";
import { createTestDatabase, skipUnlessPostgres, type TestDatabase } from "../helpers/services.js";

const skip = await skipUnlessPostgres();
const seconds = (iso: string) => Date.parse(iso) / 1000;
const ALL = { visibility: { kind: "all" } as const, notBefore: null, limit: 100, offset: 0 };

function batch(events: [string, string][]): IngestBatch {
  const b = emptyBatch();
  b.accounts.push({ source: "t", login: "alice", type: "User" });
  for (const [id, at] of events) {
    b.events.push({
      source: id,
      id,
      type: "PushEvent",
      actorLogin: "alice",
      repoName: null,
      orgLogin: null,
      public: true,
      createdAt: new Date(at),
      complete: false,
      body: `{"n":${id}}`,
    });
  }
  return b;
}

describe("events partitioned by month on PostgreSQL", { skip }, () => {
  let database: TestDatabase;
  let client: pg.Client;
  const partitions = async () =>
    (
      await client.query<{ name: string }>(`SELECT c.relname AS name FROM pg_inherits i
    JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'events'::regclass ORDER BY 1`)
    ).rows.map((r) => r.name);
  const where = async (id: string) =>
    (await client.query<{ t: string }>("SELECT tableoid::regclass::text AS t FROM events WHERE id = $1", [id])).rows[0]
      ?.t;

  before(async () => {
    database = await createTestDatabase();
    client = new pg.Client({ connectionString: database.url });
    await client.connect();
  });
  after(async () => {
    await client?.end();
    await database?.drop();
  });

  test("migration 16 moves the events of a database written before it into their months, ids, arrival numbers and all", async () => {
    await client.query(
      "CREATE TABLE schema_migrations (id integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL)",
    );
    for (const migration of migrations.filter((m) => m.id <= 15)) {
      await client.query(migration.postgres);
      await client.query("INSERT INTO schema_migrations VALUES ($1, $2, now())", [migration.id, migration.name]);
    }
    await client.query("INSERT INTO users (id, login, created_at) VALUES (1, 'alice', now())");
    await client.query(`INSERT INTO events (id, type, actor_id, public, created_at, complete, body) VALUES
      (11, 'PushEvent', 1, true, ${seconds("2024-01-31T23:59:59Z")}, false, '{"n":11}'),
      (12, 'PushEvent', 1, false, ${seconds("2024-02-01T00:00:00Z")}, false, '{"n":12}'),
      (13, 'PushEvent', 1, true, ${seconds("2024-02-15T00:00:00Z")}, false, '{"n":13}')`);
    const before = (await client.query("SELECT id, seq, created_at, body, public FROM events ORDER BY id")).rows;

    const store = await PostgresStore.open(database.url);
    try {
      assert.equal(store.migratedAtOpen.version >= 16, true);
      assert.deepEqual(
        (await client.query("SELECT id, seq, created_at, body, public FROM events ORDER BY id")).rows,
        before,
      );
      assert.deepEqual(await partitions(), ["events_202401", "events_202402", "events_default"]);
      assert.deepEqual(
        [await where("11"), await where("12"), await where("13")],
        ["events_202401", "events_202402", "events_202402"],
        "the last second of January is January's; midnight UTC is February's",
      );
      const added = await store.ingest.apply(
        batch([
          ["14", "2024-02-20T00:00:00Z"],
          ["13", "2024-02-15T00:00:00Z"],
        ]),
        new Date(),
      );
      assert.equal(
        added.eventsAdded,
        1,
        "an id stored before the migration is still known: re-imports stay idempotent",
      );
      const seq = (await client.query("SELECT seq FROM events WHERE id = 14")).rows[0].seq;
      assert.ok(Number(seq) > Math.max(...before.map((r) => Number(r.seq))), "arrival numbers go on from the highest");
      const page = await store.events.feed({ kind: "all" }, ALL);
      assert.deepEqual(
        page.rows.map((r) => JSON.parse(r.body).n),
        [14, 13, 12, 11],
      );
      assert.equal(page.total, 4);
    } finally {
      await store.close();
    }
  });

  test("an event for a month without a partition goes to the default partition; retention's next run gives it its month", async () => {
    const store = await PostgresStore.open(database.url);
    try {
      // Straight into the table, as a restored image does: nothing made its month's partition first.
      await client.query(`INSERT INTO events (id, type, actor_id, public, created_at, complete, body)
        VALUES (21, 'PushEvent', 1, true, ${seconds("2019-05-05T00:00:00Z")}, false, '{"n":21}')`);
      assert.equal(await where("21"), "events_default");
      await store.retention.prepareEvents(new Date("2024-03-10T00:00:00Z"));
      assert.equal(await where("21"), "events_201905");
      assert.deepEqual(
        await partitions(),
        ["events_201905", "events_202401", "events_202402", "events_202403", "events_202404", "events_default"],
        "and this month's and the next are made ahead",
      );
      assert.equal((await client.query("SELECT count(*) AS n FROM events_default")).rows[0].n, "0");
    } finally {
      await store.close();
    }
  });

  test("retention drops the oldest month all past the cut-off, one a batch, and feeds are counted again", async () => {
    const store = await PostgresStore.open(database.url);
    try {
      const generation = async () => (await store.events.version()).generation;
      const start = await generation();
      const cutOff = new Date("2024-02-10T00:00:00Z"); // January and May 2019 are all older; February is not
      assert.deepEqual(await store.retention.pruneEvents(cutOff, 1000), { rows: 0, partitions: 1 });
      assert.ok(!(await partitions()).includes("events_201905"), "the oldest first");
      assert.equal(await generation(), start + 1);
      assert.deepEqual(await store.retention.pruneEvents(cutOff, 1000), { rows: 0, partitions: 1 });
      assert.deepEqual(await store.retention.pruneEvents(cutOff, 1000), { rows: 0, partitions: 0 });
      assert.deepEqual(await partitions(), ["events_202402", "events_202403", "events_202404", "events_default"]);
      const page = await store.events.feed({ kind: "all" }, ALL);
      assert.deepEqual(
        page.rows.map((r) => JSON.parse(r.body).n),
        [14, 13, 12],
        "February's events, 12 among them although older than the cut-off",
      );
      assert.equal(page.total, 3);
      // A January event imported again after its month went: it gets its partition back, for the next run to drop.
      await store.ingest.apply(batch([["11", "2024-01-31T23:59:59Z"]]), new Date());
      assert.equal(await where("11"), "events_202401");
    } finally {
      await store.close();
    }
  });
});
