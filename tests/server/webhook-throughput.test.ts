/**
 * How deliveries reach receivers and what /metrics says of them, over real sockets, on both drivers: connections kept
 * open where the receiver allows (counted at the receiver), `--webhook-rate` pacing one hook, and the delivery
 * metrics an operator watches (by result, attempts per delivery, queue depth, the oldest due delivery's age).
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import { startListeningApp, type ListeningApp } from "../helpers/listening-app.js";
import { TestClock } from "../helpers/test-app.js";
import type { HookOwner } from "../../src/server/store/hook-store.js";
import { receiver } from "../helpers/webhook-receiver.js";
import { eventually, sleep } from "../helpers/wait.js";
import { event } from "../helpers/events.js";

let nextId = 800_000;
const push = () =>
  event(String(nextId++), "PushEvent", "alice", "alice/hello", {
    created_at: "2026-01-15T09:00:00Z",
    payload: { push_id: 1, size: 1, ref: "refs/heads/main", head: "abc", before: "000", commits: [] },
  });
const pushes = (n: number) => Array.from({ length: n }, push);

async function helloOf(t: ListeningApp): Promise<HookOwner> {
  return { kind: "repo", repoId: (await t.store.directory.findRepo("alice", "hello"))!.id };
}

const createHook = (t: ListeningApp, owner: HookOwner, url: string) =>
  t.store.hooks.create(
    {
      owner,
      name: "web",
      active: true,
      events: ["push"],
      config: { url, contentType: "json", insecureSsl: "0", sealedSecret: null },
    },
    t.clock.now(),
  );

/** A receiver that counts the TCP connections made to it; `close` answers every request with `Connection: close`. */
async function countingReceiver(
  close = false,
): Promise<{ server: Server; url: string; connections: () => number; requests: () => number }> {
  let connections = 0;
  let requests = 0;
  const server = createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      requests++;
      response.writeHead(200, { "content-type": "text/plain", ...(close ? { connection: "close" } : {}) }).end("ok");
    });
  });
  server.on("connection", () => connections++);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    server,
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}/hook`,
    connections: () => connections,
    requests: () => requests,
  };
}

const closeServer = (server: Server) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

describe("connections to receivers", () => {
  let t: ListeningApp;
  before(async () => {
    t = await startListeningApp();
  });
  after(() => t.close());

  test("a receiver that keeps connections open gets every delivery on one; one that says Connection: close gets a new one each", async () => {
    const hello = await helloOf(t);
    for (const [close, expected] of [
      [false, 1],
      [true, 5],
    ] as const) {
      const r = await countingReceiver(close);
      const hook = await createHook(t, hello, r.url);
      try {
        await t.ingest.ingestEvents(pushes(5));
        await eventually(r.requests, (n) => n === 5);
        const records = await eventually(
          () => t.store.hooks.deliveries(hook.id, 10, null),
          (rows) => rows.length === 5,
        );
        assert.ok(
          records.every((d) => d.statusCode === 200),
          "all delivered",
        );
        assert.equal(r.connections(), expected, close ? "Connection: close is honoured" : "one connection, kept open");
      } finally {
        await t.store.hooks.delete(hello, hook.id);
        await closeServer(r.server);
      }
    }
  });

  test("sixteen at once, each listening for the server's stop, raise no listener-leak warning", async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
    process.on("warning", onWarning);
    // A receiver that holds every request until sixteen are open at once.
    const held: (() => void)[] = [];
    let answered = 0;
    const server = createServer((request, response) => {
      request.resume();
      request.on("end", () => {
        held.push(() => response.writeHead(204).end(() => answered++));
        if (held.length >= 16) for (const answer of held.splice(0)) answer();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/hook`;
      const hello = await helloOf(t);
      for (let i = 0; i < 16; i++) await createHook(t, hello, url);
      await t.ingest.ingestEvents([push()]);
      await eventually(
        () => answered,
        (n) => n === 16,
      );
      await sleep(50); // a warning is emitted on the next tick
      assert.deepEqual(
        warnings.filter((w) => w.startsWith("MaxListenersExceededWarning")),
        [],
      );
    } finally {
      process.off("warning", onWarning);
      await closeServer(server);
    }
  });
});

describe("--webhook-rate", () => {
  let t: ListeningApp;
  before(async () => {
    t = await startListeningApp({ webhookRate: "5" }, new TestClock(undefined, true)); // pacing is reckoned on the clock, which runs
  });
  after(() => t.close());

  test("one hook gets at most the rate (5 a second: 200 ms apart), while another hook is not held back by it", async () => {
    const hello = await helloOf(t);
    const arrivals: number[] = [];
    const paced = receiver(() => {
      arrivals.push(Date.now());
      return 200;
    });
    const url = await paced.listen();
    const hook = await createHook(t, hello, url);
    try {
      const started = Date.now();
      await t.ingest.ingestEvents(pushes(6));
      await paced.until(6);
      const gaps = arrivals.slice(1).map((at, i) => at - arrivals[i]!);
      assert.ok(
        gaps.every((gap) => gap >= 150),
        `gaps of about 200 ms, got ${gaps.join(", ")}`,
      );
      assert.ok(Date.now() - started >= 900, "six deliveries at 5 a second take a second");
      const records = await eventually(
        () => t.store.hooks.deliveries(hook.id, 10, null),
        (rows) => rows.length === 6,
      );
      assert.equal(records.length, 6, "held back, not attempted: one record each");
    } finally {
      await t.store.hooks.delete(hello, hook.id);
      await paced.close();
    }
  });
});

describe("delivery metrics", () => {
  let t: ListeningApp;
  before(async () => {
    t = await startListeningApp({ webhookMaxAttempts: "2" });
  });
  after(() => t.close());

  const scrape = async () => (await t.app.inject({ url: "/metrics" })).body;
  const value = (text: string, series: string) => {
    const line = text.split("\n").find((l) => l.startsWith(`${series} `));
    return line === undefined ? undefined : Number(line.slice(series.length + 1));
  };

  test("deliveries by result, attempts per delivery, queue depth and the age of the oldest due delivery", async () => {
    const before = await scrape();
    assert.equal(
      value(before, 'feedgate_webhook_deliveries_total{result="delivered"}'),
      0,
      "series exist from the start",
    );
    assert.equal(value(before, 'feedgate_webhook_deliveries_total{result="failed"}'), 0);
    assert.equal(value(before, "feedgate_webhook_queue_depth"), 0);
    assert.equal(value(before, "feedgate_webhook_oldest_due_seconds"), 0);
    assert.equal(value(before, "feedgate_webhook_hooks_disabled_total"), 0);

    const hello = await helloOf(t);
    const ok = receiver();
    const okHook = await createHook(t, hello, await ok.listen());
    const failing = receiver(() => 500);
    const failingHook = await createHook(t, hello, await failing.listen());
    // A receiver that takes the request and never answers: its delivery stays in flight, due, in the queue.
    const hanging = createServer(() => {});
    await new Promise<void>((resolve) => hanging.listen(0, "127.0.0.1", resolve));
    let hangingHook: { id: number } | undefined;
    try {
      await t.ingest.ingestEvents(pushes(2));
      await ok.until(2);
      // Each failed delivery's retry falls due as the clock moves (once its attempt is recorded, the retry's time
      // reckoned): its second and last attempt. The second event waits behind the first, in order.
      const recorded = (n: number) =>
        eventually(
          () => t.store.hooks.deliveries(failingHook.id, 10, null),
          (rows) => rows.length >= n,
        );
      await recorded(1);
      t.clock.advance("2s");
      await recorded(3);
      t.clock.advance("2s");
      await recorded(4);
      const text = await eventually(
        scrape,
        (s) => value(s, 'feedgate_webhook_deliveries_total{result="failed"}') === 2,
      );
      assert.equal(value(text, 'feedgate_webhook_deliveries_total{result="delivered"}'), 2);
      assert.equal(
        value(text, 'feedgate_webhook_deliveries_total{result="failed"}'),
        2,
        "each event's, given up after 2 attempts",
      );
      assert.equal(value(text, "feedgate_webhook_delivery_attempts_count"), 4);
      assert.equal(value(text, "feedgate_webhook_delivery_attempts_sum"), 6, "1 + 1 delivered, 2 + 2 failed");
      assert.equal(value(text, 'feedgate_webhook_delivery_attempts_bucket{le="1"}'), 2);
      await t.store.hooks.delete(hello, failingHook.id);

      hangingHook = await createHook(t, hello, `http://127.0.0.1:${(hanging.address() as { port: number }).port}/hook`);
      await t.store.hooks.update(hello, okHook.id, { active: false }, t.clock.now());
      await t.ingest.ingestEvents(pushes(1));
      await sleep(200); // claimed and on the wire
      t.clock.advance("30s");
      const waiting = await scrape();
      assert.equal(value(waiting, "feedgate_webhook_queue_depth"), 1);
      assert.equal(value(waiting, "feedgate_webhook_oldest_due_seconds"), 30);
    } finally {
      if (hangingHook) await t.store.hooks.delete(hello, hangingHook.id);
      await t.store.hooks.delete(hello, okHook.id);
      hanging.closeAllConnections();
      hanging.close();
      await ok.close();
      await failing.close();
    }
  });
});
