/**
 * Conditional requests (wire notes 2.6): a 304 is a result, `notModified`, with its `meta` (ETag, poll
 * interval, rate limit), never a failure; it costs no rate limit; a changed feed answers 200 again.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { Client } from "../../src/client/index.js";
import { startListeningApp, type ListeningApp } from "../helpers/listening-app.js";
import { ALICE, minute } from "../helpers/client-world.js";
import { event } from "../helpers/events.js";

describe("conditional requests", () => {
  let t: ListeningApp;
  let client: Client;
  const HELLO = { user: "alice", repo: "hello" };
  before(async () => {
    t = await startListeningApp();
    client = new Client({ baseUrl: t.url, version: "3.0.0" });
  });
  after(() => t.close());

  test("If-None-Match with the last ETag is reported as not modified, with meta, and costs nothing", async () => {
    const first = await client.events.getFromRepo(HELLO);
    const etag = first.meta.etag!;
    const again = await client.events.getFromRepo({ ...HELLO, headers: { "If-None-Match": etag } });
    assert.equal(again.notModified, true);
    assert.equal(again.status, 304);
    assert.equal(again.data, undefined);
    assert.equal(again.meta.etag, etag);
    assert.equal(again.meta["x-poll-interval"], "60");
    assert.equal(again.meta.status, "304 Not Modified");
    assert.equal(again.meta["x-ratelimit-remaining"], first.meta["x-ratelimit-remaining"]);
    // Compile-time only: a conditional call's data must be narrowed first, since it may be a 304.
    // @ts-expect-error data is possibly undefined
    void (() => again.data.length);
  });

  test("If-Modified-Since with the last Last-Modified is not modified either", async () => {
    const first = await client.events.getFromRepo(HELLO);
    const again = await client.events.getFromRepo({
      ...HELLO,
      headers: { "if-modified-since": first.meta["last-modified"]! },
    });
    assert.equal(again.notModified, true);
  });

  test("a new event changes the feed: the same ETag then gets 200 with the event on top", async () => {
    const before = await client.events.getFromRepo(HELLO);
    await t.ingest.ingestEvents([event("6001", "WatchEvent", "bob", "alice/hello", { created_at: minute(100) })]);
    const after = await client.events.getFromRepo({ ...HELLO, headers: { "If-None-Match": before.meta.etag! } });
    assert.equal(after.notModified, false);
    if (after.notModified) return;
    assert.equal(after.status, 200);
    assert.equal(after.data[0]!.id, "6001");
    assert.notEqual(after.meta.etag, before.meta.etag);
  });

  test("an authorization fetched again with its ETag is not modified", async () => {
    const alice = new Client({
      baseUrl: t.url,
      version: "3.0.0",
      auth: { type: "basic", username: ALICE.login, password: ALICE.password },
    });
    const { data } = await alice.authorization.getAll({ per_page: 1 });
    const first = await alice.authorization.get({ id: data[0]!.id });
    const again = await alice.authorization.get({ id: data[0]!.id, headers: { "If-None-Match": first.meta.etag! } });
    assert.equal(again.notModified, true);
    assert.equal(again.status, 304);
  });
});
