/**
 * The stream hub (src/server/streams/hub.ts) without HTTP: requests and replies are the few fields the hub reads,
 * the store is real (the driver this run tests), and the feed service, authenticator and remembering store are the
 * app's own. What is checked is the hub's bookkeeping: streams of one feed share one read per wake-up, each stream
 * gets what arrived after its own cursor, the per-user limit, and the shutdown.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { IncomingMessage, ServerResponse } from "node:http";
import { Socket } from "node:net";
import type { PassThrough } from "node:stream";
import type { FastifyReply, FastifyRequest } from "fastify";
import { Counter, Gauge } from "prom-client";
import { pino } from "pino";
import { StreamHub } from "../../../src/server/streams/hub.js";
import { STREAMS_PER_TURN } from "../../../src/server/streams/fan-out.js";
import { RememberingStore } from "../../../src/server/store/remembering-store.js";
import { FeedService } from "../../../src/server/services/feeds.js";
import { Authenticator } from "../../../src/server/services/authenticator.js";
import { IngestService } from "../../../src/server/services/ingest.js";
import { MemoryWindowCounters } from "../../../src/server/counters/counters.js";
import { loadConfig } from "../../../src/server/config.js";
import { ApiError } from "../../../src/server/errors.js";
import { testDriver, type OpenedStore } from "../../helpers/store-drivers.js";
import { event } from "../../helpers/events.js";
import { turnCounter, until } from "../../helpers/wait.js";

const NOW = new Date("2026-01-15T10:00:00Z");

/** One stream as its client sees it: the ids of the events it was sent, and whether it ended. */
interface Client {
  ids: string[];
  text: string;
  ended: boolean;
  body: PassThrough;
  chunks: Buffer[];
}

describe("stream hub", () => {
  let s: OpenedStore;
  let hub: StreamHub;
  let ingest: IngestService;
  let reads = 0;
  let plans = 0;
  const open = new Gauge({ name: "hub_test_open_streams", help: "open streams", registers: [] });
  const resumed = new Counter({ name: "hub_test_resumed", help: "resumed streams", registers: [] });
  const gaps = new Counter({ name: "hub_test_gaps", help: "gaps sent", registers: [] });
  let nextId = 1000;

  before(async () => {
    s = await testDriver().open();
    const config = loadConfig({ db: s.db }, {});
    const remembering = new RememberingStore(s.store);
    const feeds = new FeedService({
      store: remembering.store,
      caps: config.feeds,
      clock: () => NOW,
      version: () => remembering.version,
    });
    const arrivals = feeds.arrivals.bind(feeds);
    feeds.arrivals = async (...args) => {
      reads++;
      return arrivals(...args);
    };
    const plan = feeds.plan.bind(feeds);
    feeds.plan = async (...args) => {
      plans++;
      return plan(...args);
    };
    const authenticator = new Authenticator({
      store: remembering.store,
      counters: new MemoryWindowCounters(),
      lockout: config.loginLockout,
    });
    hub = new StreamHub({
      events: remembering.store.events,
      remembering,
      feeds,
      authenticator,
      options: { maxPerUser: 2, heartbeatMs: 60_000, replayMax: 1000 },
      log: pino({ level: "silent" }),
      metrics: { open, resumed, gaps },
      clock: () => NOW,
    });
    ingest = new IngestService(s.store, () => NOW);
    await ingest.seedWorld(
      { repos: [{ full_name: "alice/hello" }, { full_name: "bob/tools" }] },
      { baseDir: undefined },
    );
  });
  after(async () => {
    await hub.close();
    await s.close();
  });

  const push = (repo = "alice/hello") =>
    event(nextId++, "PushEvent", "alice", repo, { created_at: "2026-01-15T09:00:00Z" });

  /**
   * Opens a stream of a repository's feed as an anonymous client at `ip`. The request and reply are the fields the
   * hub reads (a Fastify instance would bring its plugins, which the HTTP tests cover); hence the casts.
   */
  async function stream(ip: string, repo = "hello", lastEventId?: string, reading = true): Promise<Client> {
    const request = {
      headers: lastEventId ? { "last-event-id": lastEventId } : {},
      query: {},
      ip,
      url: `/repos/alice/${repo}/events`,
      baseUrl: "https://feedgate.test",
      principal: null,
    };
    const client: Client = { ids: [], text: "", ended: false, body: undefined as unknown as PassThrough, chunks: [] };
    const reply = {
      raw: new ServerResponse(new IncomingMessage(new Socket())),
      type() {
        return reply;
      },
      header() {
        return reply;
      },
      send(body: PassThrough) {
        client.body = body;
        if (!reading) return reply;
        body.on("data", (chunk: Buffer) => {
          client.chunks.push(chunk);
          client.text += chunk.toString("utf8");
          client.ids = [...client.text.matchAll(/^id: (\d+)$/gm)].map((m) => m[1]!);
        });
        body.on("end", () => (client.ended = true));
        return reply;
      },
    };
    await hub.serve(
      request as unknown as FastifyRequest,
      reply as unknown as FastifyReply,
      { feed: "getFromRepo", params: { user: "alice", repo }, integerIds: false },
      null,
    );
    return client;
  }
  const ids = (events: { id: string }[]) => events.map((e) => e.id);
  const streamsOpen = async () => (await open.get()).values[0]?.value ?? 0;

  test("streams of one feed read its new events once per wake-up, however many they are", async () => {
    const clients = await Promise.all(["10.0.0.1", "10.0.0.2", "10.0.0.3", "10.0.0.4"].map((ip) => stream(ip)));
    await until(() => clients.every((c) => c.text.startsWith("retry:")), "the streams to open");
    reads = 0;
    const sent = [push(), push(), push()];
    await ingest.ingestEvents(sent);
    hub.wake();
    await until(() => clients.every((c) => c.ids.length === 3), "every stream to get the three events");
    for (const client of clients) assert.deepEqual(client.ids, ids(sent));
    assert.equal(reads, 1, "one read of the feed for the four streams");
    // An event of another feed is not sent: the next one these streams get is their feed's.
    await ingest.ingestEvents([push("bob/tools")]);
    hub.wake();
    const next = push();
    await ingest.ingestEvents([next]);
    hub.wake();
    await until(() => clients.every((c) => c.ids.length === 4), "the next event of the feed");
    for (const client of clients) assert.deepEqual(client.ids, [...ids(sent), next.id]);
    for (const client of clients) client.body.destroy();
    await until(async () => (await streamsOpen()) === 0, "the streams to close");
  });

  test("an event is rendered and encoded once for every stream of its feed: each is written a view of the same bytes", async () => {
    const clients = await Promise.all(["10.0.4.1", "10.0.4.2", "10.0.4.3"].map((ip) => stream(ip)));
    await until(() => clients.every((c) => c.text.startsWith("retry:")), "the streams to open");
    const sent = [push(), push()];
    await ingest.ingestEvents(sent);
    hub.wake();
    await until(() => clients.every((c) => c.ids.length === 2), "every stream to get the two events");
    const [first, ...others] = clients.map((c) => c.chunks.at(-1)!);
    for (const chunk of others) {
      assert.ok(
        chunk.buffer === first!.buffer && chunk.byteOffset === first!.byteOffset && chunk.length === first!.length,
        "the same memory, not an encoding per stream",
      );
    }
    for (const client of clients) client.body.destroy();
    await until(async () => (await streamsOpen()) === 0, "the streams to close");
  });

  test("a fan-out to more streams than one turn writes lets the event loop run between its slices", async () => {
    const clients = await Promise.all(
      Array.from({ length: STREAMS_PER_TURN + 1 }, (_, i) => stream(`10.1.${i >> 8}.${i & 255}`)),
    );
    await until(() => clients.every((c) => c.text.startsWith("retry:")), "the streams to open");
    // Each stream notes the turn of the event loop its event was written in.
    const loop = turnCounter();
    const turns = new Set<number>();
    for (const client of clients)
      client.body.on("data", (chunk: Buffer) => chunk.includes("id: ") && turns.add(loop.turn));
    await ingest.ingestEvents([push()]);
    hub.wake();
    await until(() => clients.every((c) => c.ids.length === 1), "every stream to get the event");
    loop.stop();
    assert.ok(turns.size >= 2, `the ${clients.length} streams were written in ${turns.size} turn(s)`);
    for (const client of clients) client.body.destroy();
    await until(async () => (await streamsOpen()) === 0, "the streams to close");
  });

  test("heartbeats to more streams than one turn writes let the event loop run between their slices", async () => {
    const clients = await Promise.all(
      Array.from({ length: STREAMS_PER_TURN + 1 }, (_, i) => stream(`10.2.${i >> 8}.${i & 255}`)),
    );
    await until(() => clients.every((c) => c.text.startsWith("retry:")), "the streams to open");
    // One round, started here rather than by the heartbeat timer (this hub's comes once a minute): a round the timer
    // started could be under way when the count began, and its last slice would share a turn with the next round's first.
    const loop = turnCounter();
    const turns = new Map<Client, number>();
    for (const client of clients) {
      client.body.on(
        "data",
        (chunk: Buffer) => chunk.includes(": heartbeat") && !turns.has(client) && turns.set(client, loop.turn),
      );
    }
    try {
      await hub.heartbeat();
      loop.stop();
      assert.equal(turns.size, clients.length, "a heartbeat on every stream");
      const seen = [...turns.values()];
      assert.ok(
        new Set(seen).size >= 2,
        `the heartbeats were written in more than one turn: turns ${Math.min(...seen)}-${Math.max(...seen)}`,
      );
    } finally {
      // Closed whatever happened: a stream left open would hold every later test's wait for none to be open.
      for (const client of clients) client.body.destroy();
      await until(async () => (await streamsOpen()) === 0, "the streams to close");
    }
  });

  test("when an ingest moves the repositories, anonymous streams of one feed are checked again with one plan, not one each", async () => {
    const clients = await Promise.all(["10.0.5.1", "10.0.5.2", "10.0.5.3"].map((ip) => stream(ip)));
    await until(() => clients.every((c) => c.text.startsWith("retry:")), "the streams to open");
    plans = 0;
    const before = (await s.store.events.version()).access;
    // A new collaborator: who may read what moved, and every stream's feed is planned again.
    await ingest.ingestEvents([
      event(nextId++, "MemberEvent", "alice", "alice/hello", {
        created_at: "2026-01-15T09:00:00Z",
        payload: { action: "added", member: { login: "dave", id: 4242 } },
      }),
    ]);
    assert.notEqual((await s.store.events.version()).access, before, "the ingest moved who may read what");
    const next = push();
    await ingest.ingestEvents([next]);
    hub.wake();
    await until(() => clients.every((c) => c.ids.includes(next.id)), "the next event on every stream");
    assert.equal(plans, 1, "one plan for the three streams");
    for (const client of clients) client.body.destroy();
    await until(async () => (await streamsOpen()) === 0, "the streams to close");
  });

  test("a client that does not read is written no more once it holds 1 MB unsent; the others get every event", async () => {
    const stalled = await stream("10.0.6.1", "hello", undefined, false);
    const reader = await stream("10.0.6.2");
    await until(() => reader.text.startsWith("retry:"), "the stream to open");
    const held = () => stalled.body.writableLength + stalled.body.readableLength;
    // Three ingests of about 800 KB each: the first two go to both streams, the third only to the one that reads.
    const big = () =>
      event(nextId++, "PushEvent", "alice", "alice/hello", {
        created_at: "2026-01-15T09:00:00Z",
        payload: { note: "x".repeat(8000) },
      });
    const sent: string[] = [];
    for (let round = 0; round < 3; round++) {
      const batch = Array.from({ length: 100 }, big);
      sent.push(...ids(batch));
      await ingest.ingestEvents(batch);
      hub.wake();
      await until(() => reader.ids.length === sent.length, "the reading stream to get the batch");
    }
    assert.deepEqual(reader.ids, sent);
    assert.ok(held() < 2 * 1024 * 1024, `the stalled stream holds ${held()} bytes, not every batch`);
    stalled.body.destroy();
    reader.body.destroy();
    await until(async () => (await streamsOpen()) === 0, "the streams to close");
  });

  test("each stream gets what arrived after its own cursor: one resuming after an id is sent the rest, in arrival order", async () => {
    const earlier = [push(), push(), push()];
    await ingest.ingestEvents(earlier);
    // Stored later with a smaller id: arrival order, not id order, decides.
    const later = event(500, "PushEvent", "bob", "alice/hello", { created_at: "2026-01-15T08:00:00Z" });
    await ingest.ingestEvents([later]);
    const resumed = await stream("10.0.1.1", "hello", earlier[0]!.id);
    const fresh = await stream("10.0.1.2");
    await until(() => resumed.ids.length === 3, "the replay");
    assert.deepEqual(resumed.ids, [earlier[1]!.id, earlier[2]!.id, "500"]);
    const next = push();
    await ingest.ingestEvents([next]);
    hub.wake();
    await until(() => resumed.ids.length === 4 && fresh.ids.length === 1, "the next event on both streams");
    assert.deepEqual(fresh.ids, [next.id], "a new stream starts with the next event stored");
    assert.equal(resumed.ids.at(-1), next.id);
    resumed.body.destroy();
    fresh.body.destroy();
    await until(async () => (await streamsOpen()) === 0, "the streams to close");
  });

  test("a client holds at most maxPerUser streams; a closed one frees its slot; anonymous clients are counted by IP", async () => {
    const [first] = [await stream("10.0.2.1"), await stream("10.0.2.1")];
    await assert.rejects(stream("10.0.2.1"), (error: unknown) => error instanceof ApiError && error.statusCode === 429);
    const other = await stream("10.0.2.2");
    assert.equal(await streamsOpen(), 3);
    first!.body.destroy();
    await until(async () => (await streamsOpen()) === 2, "the closed stream to be released");
    const again = await stream("10.0.2.1");
    assert.equal(await streamsOpen(), 3);
    for (const client of [again, other]) client.body.destroy();
  });

  test("close ends every stream saying why, and a stream asked for afterwards is 503", async () => {
    const clients = [await stream("10.0.3.1"), await stream("10.0.3.2")];
    await hub.close();
    await until(() => clients.every((c) => c.ended), "the streams to end");
    for (const client of clients) assert.match(client.text, /^: closed: the server is shutting down$/m);
    await assert.rejects(stream("10.0.3.3"), (error: unknown) => error instanceof ApiError && error.statusCode === 503);
  });
});
