/**
 * The feed page cache over HTTP: concurrent requests for a page nobody has asked for since the last ingest
 * read the store once between them, and an ingest makes the next requests read it again.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { startTestApp, type TestApp } from "../helpers/test-app.js";
import { IngestService } from "../../src/server/services/ingest.js";

const event = (id: string, minute: number) => ({
  id, type: "PushEvent", actor: { login: "poller" }, repo: { name: "poller/busy" }, payload: {}, public: true,
  created_at: new Date(Date.parse("2026-01-14T00:00:00Z") + minute * 60_000).toISOString(),
});

describe("feed page cache", () => {
  let t: TestApp;
  let reads = 0;
  before(async () => {
    t = await startTestApp();
    await new IngestService(t.store, t.clock.now).ingestEvents([event("1", 1), event("2", 2)]);
    // Count the store's feed reads; the store itself answers them.
    const events = t.store.events;
    const feed = events.feed.bind(events);
    events.feed = async (...args) => {
      reads += 1;
      return feed(...args);
    };
  });
  after(() => t.close());

  const poll = (clients: number) => Promise.all(Array.from({ length: clients }, () =>
    t.app.inject({ method: "GET", url: "/repos/poller/busy/events" })));

  test("twenty concurrent polls of an uncached page read the store once and get the same page", async () => {
    const responses = await poll(20);
    assert.equal(reads, 1);
    for (const res of responses) {
      assert.equal(res.statusCode, 200);
      assert.deepEqual((res.json() as { id: string }[]).map((e) => e.id), ["2", "1"]);
      assert.equal(res.headers.etag, responses[0]!.headers.etag);
    }
  });

  test("after an ingest the next polls read the store once more and show the new event", async () => {
    await new IngestService(t.store, t.clock.now).ingestEvents([event("3", 3)]);
    const responses = await poll(20);
    assert.equal(reads, 2);
    for (const res of responses) assert.deepEqual((res.json() as { id: string }[]).map((e) => e.id), ["3", "2", "1"]);
  });
});
