/**
 * `client.events.stream`: a feed's live events as an async iterator over a real server, through a TCP proxy that the
 * tests cut to prove that the iterator reconnects with Last-Event-ID and loses nothing.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { Client, HttpError, StreamUnavailableError } from "../../src/client/index.js";
import { startListeningApp, type ListeningApp } from "../helpers/listening-app.js";
import { TcpProxy } from "../helpers/tcp-proxy.js";
import { ALICE_TOKEN, minute } from "../helpers/client-world.js";
import { event } from "../helpers/events.js";

let nextId = 800_000;
const push = (repo: string, extra: Record<string, unknown> = {}) =>
  event(nextId--, "PushEvent", "alice", repo, { created_at: minute(70), ...extra });

describe("client.events.stream", () => {
  let t: ListeningApp;
  let proxy: TcpProxy;
  let client: Client;
  before(async () => {
    t = await startListeningApp();
    const { port } = new URL(t.url);
    proxy = new TcpProxy({ host: "127.0.0.1", port: Number(port) });
    client = new Client({
      baseUrl: `http://127.0.0.1:${await proxy.start()}`,
      version: "3.0.0",
      auth: { type: "oauth", token: ALICE_TOKEN },
    });
  });
  after(async () => {
    await proxy.close();
    await t.close();
  });

  test("yields new events in arrival order, and after a cut connection resumes where it stopped", async () => {
    const stop = new AbortController();
    const events = client.events.stream(
      client.events.getFromRepo,
      { user: "alice", repo: "secret" },
      { signal: stop.signal },
    );
    const sent = [push("alice/secret", { public: false }), push("alice/secret", { public: false })];
    const first = events.next(); // opens the stream; the event is stored once it is open (the server's metric says so)
    for (
      let open = false;
      !open;
      open = /^feedgate_streams_open 1$/m.test(await (await fetch(`${t.url}/metrics`)).text())
    );
    await t.ingest.ingestEvents([sent[0]]);
    assert.equal((await first).value?.id, sent[0]!.id);
    proxy.cut();
    // Stored while the connection is down: the reconnection's Last-Event-ID replay brings it.
    await t.ingest.ingestEvents([sent[1]]);
    proxy.restore();
    const second = await events.next();
    assert.equal(second.value?.id, sent[1]!.id);
    assert.equal(second.value?.repo.name, "alice/secret");
    stop.abort();
    assert.deepEqual(await events.next(), { done: true, value: undefined });
  });

  test("starts after options.lastEventId, and breaking out of the loop closes the stream", async () => {
    const [a, b] = [push("bob/tools"), push("bob/tools")];
    await t.ingest.ingestEvents([a]);
    await t.ingest.ingestEvents([b]);
    for await (const item of client.events.stream(
      client.events.getFromRepo,
      { user: "bob", repo: "tools" },
      { lastEventId: a.id },
    )) {
      assert.equal(item.id, b.id);
      break;
    }
  });

  test("throws HttpError for a feed the caller cannot see", async () => {
    const anonymous = new Client({ baseUrl: t.url, version: "3.0.0" });
    await assert.rejects(
      anonymous.events.stream(anonymous.events.getFromRepo, { user: "alice", repo: "secret" }).next(),
      (error: unknown) => error instanceof HttpError && error.status === 404,
    );
  });

  test("throws StreamUnavailableError when the server answers with a page", async () => {
    const off = await startListeningApp({ maxStreamsPerUser: 0 });
    try {
      const plain = new Client({ baseUrl: off.url, version: "3.0.0" });
      await assert.rejects(plain.events.stream(plain.events.get).next(), StreamUnavailableError);
    } finally {
      await off.close();
    }
  });
});
