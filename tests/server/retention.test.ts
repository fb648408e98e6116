/**
 * Background retention over a real server and store (both drivers: FEEDGATE_TEST_STORE=postgres runs it on
 * PostgreSQL): moving the clock starts a run, which deletes webhook attempts, expired sessions and events past their
 * retention, in batches, and nothing younger; feeds and their paging stay right afterwards; large request bodies come
 * back whole; the metrics say what was pruned and when.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import pg from "pg";
import Database from "better-sqlite3";
import { startListeningApp, type ListeningApp } from "../helpers/listening-app.js";
import { basic, TestClock } from "../helpers/test-app.js";
import { ALICE } from "../helpers/client-world.js";
import { receiver, type Receiver } from "../helpers/webhook-receiver.js";
import { eventually } from "../helpers/wait.js";
import { testDriver } from "../helpers/store-drivers.js";

const DAY = 86_400_000;
const START = new Date("2026-01-15T10:00:00Z");
const onPostgres = testDriver().name === "postgres";

/** One row of a table of the app's database, whichever driver: the few facts a store's API does not show. */
async function sql<R>(db: string, text: string): Promise<R[]> {
  if (!db.startsWith("postgres")) {
    const file = new Database(db, { readonly: true });
    try {
      return file.prepare(text).all() as R[];
    } finally {
      file.close();
    }
  }
  const client = new pg.Client({ connectionString: db });
  await client.connect();
  try {
    return (await client.query(text)).rows as R[];
  } finally {
    await client.end();
  }
}

const event = (id: string, createdAt: string, extra: object = {}) => ({
  id,
  type: "PushEvent",
  actor: { login: "alice" },
  repo: { name: "alice/kept" },
  public: true,
  created_at: createdAt,
  payload: { ref: "refs/heads/main", head: `h${id}`, before: "0000" },
  ...extra,
});

describe("background retention", () => {
  let t: ListeningApp;
  let r: Receiver;
  const auth = { authorization: basic(ALICE.login, ALICE.password), "content-type": "application/json" };
  let hookUrl: string;

  before(async () => {
    // The clock runs (webhook sends wait on real time) from START; moves are what the test makes.
    t = await startListeningApp({ eventRetention: "30d", retentionBatch: "1" }, new TestClock(START, true));
    r = receiver();
    const created = await fetch(`${t.url}/repos/alice/hello/hooks`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify({ config: { url: await r.listen(), content_type: "json" }, events: ["push"] }),
    });
    assert.equal(created.status, 201);
    hookUrl = ((await created.json()) as { url: string }).url;
    await r.until(1); // the ping, recorded at START
  });
  after(async () => {
    await r?.close();
    await t?.close();
  });

  const deliveries = async () =>
    (await (await fetch(`${hookUrl}/deliveries`, { headers: auth })).json()) as {
      id: number;
      event: string;
      delivered_at: string;
    }[];
  const metric = async (name: string) => {
    const text = await (await fetch(`${t.url}/metrics`)).text();
    return Number(new RegExp(`^${name.replace(/[{}"]/g, "\\$&")} (\\S+)$`, "m").exec(text)?.[1] ?? Number.NaN);
  };
  /** Waits for the run that the last clock move started (or a later one) to finish. */
  const ranAt = async (time: Date) => {
    const at = await eventually(
      () => metric("feedgate_retention_last_run_timestamp_seconds"),
      (s) => s >= time.getTime() / 1000 - 1,
    );
    assert.ok(
      at >= time.getTime() / 1000 - 1,
      `a run finished after ${time.toISOString()}, last at ${new Date(at * 1000).toISOString()}`,
    );
  };

  test("webhook attempts older than 30 days go when the clock passes them, in batches; younger ones and their bodies stay whole", async () => {
    // A push whose payload is far past the 4 KiB above which request bodies are stored compressed.
    t.clock.advance("20d");
    const long = randomBytes(6000).toString("hex");
    await t.ingest.ingestEvents([
      {
        ...event("990001", t.clock.current.toISOString()),
        repo: { name: "alice/hello" },
        payload: { ref: "refs/heads/main", head: "big01", before: "0000", commits: [{ sha: "big01", message: long }] },
      },
    ]);
    await r.until(2);
    const sent = r.received[1]!.body;
    const both = await eventually(deliveries, (rows) => rows.length === 2);
    assert.deepEqual(
      both.map((d) => d.event),
      ["push", "ping"],
    );
    const push = (await (await fetch(`${hookUrl}/deliveries/${both[0]!.id}`, { headers: auth })).json()) as {
      request: { payload: unknown };
    };
    assert.deepEqual(push.request.payload, JSON.parse(sent), "the API gives the body back as sent");
    const [stored] = await sql<{ text: number; packed: number }>(
      t.dbPath,
      `SELECT length(request_body) AS text, length(request_body_gzip) AS packed FROM hook_deliveries WHERE id = ${both[0]!.id}`,
    );
    assert.equal(Number(stored!.text), 0, "the text column is empty");
    assert.ok(
      Number(stored!.packed) > 0 && Number(stored!.packed) < sent.length / 2,
      `stored compressed: ${stored!.packed} bytes of ${sent.length}`,
    );

    // Two more pings, at START + 20 days: with the first, three attempts past 30 days once the clock is at START + 51 days.
    for (const _ of [1, 2])
      assert.equal((await fetch(`${hookUrl}/pings`, { method: "POST", headers: auth })).status, 204);
    await eventually(deliveries, (rows) => rows.length === 4);
    t.clock.advance("239h"); // START + 29 days 23 hours
    await ranAt(t.clock.current);
    assert.equal((await deliveries()).length, 4, "nothing younger than 30 days is deleted");

    t.clock.advance("2h");
    await ranAt(t.clock.current);
    const left = await deliveries();
    assert.deepEqual(
      left.map((d) => d.event),
      ["ping", "ping", "push"],
      "the START ping went, the later attempts stay",
    );
    assert.equal(await metric(`feedgate_retention_pruned_total{kind="webhook_deliveries"}`), 1);

    t.clock.advance("21d"); // START + 51 days and an hour: all three past 30 days, gone one batch (of one row) at a time
    await ranAt(t.clock.current);
    assert.deepEqual(await eventually(deliveries, (rows) => rows.length === 0), []);
    assert.equal(await metric(`feedgate_retention_pruned_total{kind="webhook_deliveries"}`), 4);
  });

  test("events past --event-retention go (on PostgreSQL by whole months); younger ones stay, and feeds page as before", async () => {
    const now = t.clock.current; // START + 51 days: 2026-03-07
    const iso = (daysAgo: number) => new Date(now.getTime() - daysAgo * DAY).toISOString();
    // Oldest first, so the newest arrival (SQLite keeps it, whatever its age) is a young event.
    await t.ingest.ingestEvents([
      event("770001", "2025-12-20T00:00:00Z"),
      event("770002", iso(32)),
      event("770003", iso(10)),
      event("770004", iso(1)),
    ]);
    const feed = async (page = 1) => {
      const response = await fetch(`${t.url}/repos/alice/kept/events?per_page=1&page=${page}`);
      return {
        ids: ((await response.json()) as { id: string }[]).map((e) => e.id),
        link: response.headers.get("link") ?? "",
      };
    };
    assert.match((await feed()).link, /page=4>; rel="last"/, "the total as counted (and cached) before the run");

    t.clock.advance("1m");
    await ranAt(t.clock.current);
    // 770002 (32 days old, created 2026-02-03) is past 30 days; its month, February, is not all past them yet.
    const kept = onPostgres ? ["770004", "770003", "770002"] : ["770004", "770003"];
    const pages = [];
    for (let page = 1; page <= kept.length; page++) pages.push(...(await feed(page)).ids);
    assert.deepEqual(pages, kept);
    assert.match(
      (await feed()).link,
      new RegExp(`page=${kept.length}>; rel="last"`),
      "the total counts only what is left",
    );
    assert.deepEqual((await feed(kept.length + 1)).ids, []);
    if (onPostgres) {
      const partitions = (
        await sql<{ name: string }>(
          t.dbPath,
          `SELECT c.relname AS name FROM pg_inherits i
        JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'events'::regclass ORDER BY 1`,
        )
      ).map((p) => p.name);
      assert.ok(
        !partitions.includes("events_202512") && !partitions.includes("events_202601"),
        `December's and January's partitions are dropped: ${partitions.join(", ")}`,
      );
      assert.ok(
        partitions.includes("events_202602") &&
          partitions.includes("events_202603") &&
          partitions.includes("events_202604"),
        `February's stays, this month's and the next are made ahead: ${partitions.join(", ")}`,
      );
      assert.ok((await metric(`feedgate_retention_pruned_total{kind="event_partitions"}`)) >= 1);
    } else {
      assert.ok((await metric(`feedgate_retention_pruned_total{kind="events"}`)) >= 2);
    }
  });

  test("console sessions go once expired (8 hours unused), live ones stay", async () => {
    const user = await t.store.users.findByLogin("alice");
    const hash = (n: number) => `${"0".repeat(63)}${n}`;
    await t.store.sessions.create(
      { idHash: hash(1), userId: user!.id, credential: "c", verified: true },
      t.clock.current,
    );
    t.clock.advance("7h");
    await t.store.sessions.create(
      { idHash: hash(2), userId: user!.id, credential: "c", verified: true },
      t.clock.current,
    );
    t.clock.advance("2h");
    await ranAt(t.clock.current);
    assert.equal(await t.store.sessions.find(hash(1)), null, "unused for 9 hours");
    assert.notEqual(await t.store.sessions.find(hash(2)), null, "unused for 2 hours");
    assert.ok((await metric(`feedgate_retention_pruned_total{kind="sessions"}`)) >= 1);
  });
});
