/**
 * A large ingest reaches a stream whole: written a chunk at a time, faster than any socket takes it, it used to pile
 * up past the stream's limit and end it ("reads too slowly") even for a reader keeping up. Now the hub waits for the
 * client to take what it was sent.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { request as httpRequest } from "node:http";
import { startListeningApp, type ListeningApp } from "../helpers/listening-app.js";
import { eventually, sleep } from "../helpers/wait.js";

describe("streams and large ingests", () => {
  let t: ListeningApp;
  before(async () => {
    t = await startListeningApp();
  });
  after(() => t.close());

  test("one ingest of 1,200 events of 3 KB each reaches an open stream whole, in order, the stream still open", async () => {
    const count = 1200;
    const ids: string[] = [];
    let closed = false;
    let stream: ReturnType<typeof httpRequest> | undefined;
    let allArrived: () => void = () => undefined;
    const arrived = new Promise<void>((resolve) => {
      allArrived = resolve;
    });
    const opened = new Promise<void>((resolve, reject) => {
      const req = (stream = httpRequest(`${t.url}/events`, { headers: { accept: "text/event-stream" } }, (res) => {
        assert.equal(res.statusCode, 200);
        res.setEncoding("utf8");
        let partial = "";
        res.on("data", (text: string) => {
          const frames = (partial + text).split("\n\n");
          partial = frames.pop()!;
          for (const frame of frames) {
            const id = /^id: (\d+)$/m.exec(frame)?.[1];
            if (id && ids.push(id) === count) allArrived();
          }
        });
        res.on("close", () => {
          closed = true;
        });
        resolve();
      }));
      req.on("error", reject);
      req.end();
    });
    await opened;
    const events = Array.from({ length: count }, (_, i) => ({
      id: String(500_000 + i),
      type: "PushEvent",
      actor: { login: "alice" },
      repo: { name: "alice/hello" },
      public: true,
      created_at: "2026-01-15T10:00:00Z",
      payload: { head: `h${i}`, filler: "x".repeat(3000) },
    }));
    await t.ingest.ingestEvents(events);
    await Promise.race([arrived, sleep(20_000)]);
    assert.equal(
      ids.length,
      count,
      `${ids.length} of ${count} events arrived${closed ? "; the stream was closed" : ""}`,
    );
    assert.deepEqual(
      ids,
      events.map((e) => e.id),
      "in arrival order",
    );
    assert.equal(closed, false);
    stream!.destroy();
  });

  test("HEAD with Accept: text/event-stream gets the page's headers, not a stream holding a slot", async () => {
    const head = await fetch(`${t.url}/events`, { method: "HEAD", headers: { accept: "text/event-stream" } });
    assert.equal(head.status, 200);
    assert.match(String(head.headers.get("content-type")), /^application\/json/);
    // The first test's stream, destroyed by its client, is released as its socket closes.
    const metrics = await eventually(
      async () => (await fetch(`${t.url}/metrics`)).text(),
      (text) => /^feedgate_streams_open 0$/m.test(text),
      { ms: 1000 },
    );
    assert.match(metrics, /^feedgate_streams_open 0$/m);
  });
});
