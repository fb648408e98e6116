/**
 * The feed page cache over HTTP: concurrent requests for a page nobody has asked for since the last ingest
 * read the store once between them; after an ingest into the feed the next requests count only what arrived (never
 * the feed again) and make the first page from the one before and the events that arrived (a later page reads its
 * rows again); an ingest elsewhere costs one small count of what arrived and no rows.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { startTestApp, type TestApp } from "../helpers/test-app.js";
import { IngestService } from "../../src/server/services/ingest.js";
import { event, minutesAfter } from "../helpers/events.js";

const push = (id: string, minute: number) =>
  event(id, "PushEvent", "poller", "poller/busy", { created_at: minutesAfter("2026-01-14T00:00:00Z", minute) });

describe("feed page cache", () => {
  let t: TestApp;
  /** The store's feed reads by kind; the store itself answers them. */
  const reads = { rows: 0, counts: 0, arrivals: 0, boundaries: 0, arrivedRows: 0 };
  before(async () => {
    t = await startTestApp({ rateLimitAnonymous: 1000 });
    await new IngestService(t.store, t.clock.now).ingestEvents([push("1", 1), push("2", 2)]);
    const events = t.store.events;
    const [feedRows, countBetween, countArrivals, timeAtDepth, arrivals] = [
      events.feedRows.bind(events),
      events.countBetween.bind(events),
      events.countArrivals.bind(events),
      events.timeAtDepth.bind(events),
      events.arrivals.bind(events),
    ];
    events.arrivals = async (...args) => {
      reads.arrivedRows++;
      return arrivals(...args);
    };
    events.feedRows = async (...args) => {
      reads.rows++;
      return feedRows(...args);
    };
    events.countBetween = async (...args) => {
      reads.counts++;
      return countBetween(...args);
    };
    events.countArrivals = async (...args) => {
      reads.arrivals++;
      return countArrivals(...args);
    };
    events.timeAtDepth = async (...args) => {
      reads.boundaries++;
      return timeAtDepth(...args);
    };
  });
  /** What the store was asked since the last call. */
  const asked = () => {
    const seen = { ...reads };
    Object.assign(reads, { rows: 0, counts: 0, arrivals: 0, boundaries: 0, arrivedRows: 0 });
    return seen;
  };
  after(() => t.close());

  const poll = (clients: number, query = "") =>
    Promise.all(
      Array.from({ length: clients }, () => t.app.inject({ method: "GET", url: `/repos/poller/busy/events${query}` })),
    );

  test("twenty concurrent polls of an uncached page read the store once and get the same page", async () => {
    const responses = await poll(20);
    // The boundary, the count above it (the feed is smaller than the boundary's depth: nothing lies below), the rows.
    assert.deepEqual(asked(), { rows: 1, counts: 1, arrivals: 0, boundaries: 1, arrivedRows: 0 });
    for (const res of responses) {
      assert.equal(res.statusCode, 200);
      assert.deepEqual(
        (res.json() as { id: string }[]).map((e) => e.id),
        ["2", "1"],
      );
      assert.equal(res.headers.etag, responses[0]!.headers.etag);
    }
  });

  test("after an ingest the next polls count what is new, make the first page from what arrived and show the new event", async () => {
    await new IngestService(t.store, t.clock.now).ingestEvents([push("3", 3)]);
    const responses = await poll(20);
    // The count is of the events that arrived with the ingest, not of the feed; so is the read of rows.
    assert.deepEqual(asked(), { rows: 0, counts: 0, arrivals: 1, boundaries: 0, arrivedRows: 1 });
    for (const res of responses)
      assert.deepEqual(
        (res.json() as { id: string }[]).map((e) => e.id),
        ["3", "2", "1"],
      );
    // A later page is read again.
    const second = await poll(2, "?per_page=2&page=2");
    assert.deepEqual(asked(), { rows: 1, counts: 0, arrivals: 0, boundaries: 0, arrivedRows: 0 });
    for (const res of second)
      assert.deepEqual(
        (res.json() as { id: string }[]).map((e) => e.id),
        ["1"],
      );
  });

  test("after an ingest into another repository the page is kept: one count of what arrived, no rows", async () => {
    const etag = (await poll(1))[0]!.headers.etag;
    asked();
    await new IngestService(t.store, t.clock.now).ingestEvents([{ ...push("4", 4), repo: { name: "poller/quiet" } }]);
    const responses = await poll(20);
    assert.deepEqual(asked(), { rows: 0, counts: 0, arrivals: 1, boundaries: 0, arrivedRows: 0 });
    for (const res of responses) assert.equal(res.headers.etag, etag, res.body);
  });

  test("polls with nothing ingested read nothing but the version", async () => {
    await poll(20);
    assert.deepEqual(asked(), { rows: 0, counts: 0, arrivals: 0, boundaries: 0, arrivedRows: 0 });
  });

  test("each page asked for is kept once, in its newest state: ten ingests into the feed add no page", async () => {
    const cached = async () => {
      const text = (await t.app.inject({ method: "GET", url: "/metrics" })).body;
      const gauge = (name: string) => Number(new RegExp(`^${name} (\\d+)$`, "m").exec(text)?.[1]);
      return { pages: gauge("feedgate_feed_cache_pages"), bytes: gauge("feedgate_feed_cache_bytes") };
    };
    await poll(1);
    await poll(1, "?per_page=2&page=2");
    const before = await cached();
    for (let minute = 10; minute < 20; minute++) {
      await new IngestService(t.store, t.clock.now).ingestEvents([push(String(minute), minute)]);
      const [first] = await poll(1);
      assert.equal((first!.json() as { id: string }[])[0]!.id, String(minute));
      await poll(1, "?per_page=2&page=2");
    }
    const after = await cached();
    assert.equal(after.pages, before.pages, "each page of the feed is kept once, in its newest state");
    assert.ok(after.bytes > before.bytes, "the pages kept hold the events that arrived");
  });
});
