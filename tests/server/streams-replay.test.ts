/**
 * A resumed stream's replay is bounded (`--stream-replay-max`): within the bound it replays what its client missed;
 * past it, one `gap` event says where to read the missed events, and the stream goes on live. Over real sockets, with
 * the `eventsource` package (as clients use) and the SDK, on the driver this run tests (SQLite, or PostgreSQL in the
 * driver matrix run).
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { EventSource } from "eventsource";
import { Client, StreamGapError, type StreamGap } from "../../src/client/index.js";
import { startListeningApp, type ListeningApp } from "../helpers/listening-app.js";
import { minute } from "../helpers/client-world.js";
import { event } from "../helpers/events.js";
import { until } from "../helpers/wait.js";
import { openRawStream } from "../helpers/sse.js";

const REPLAY_MAX = 3;
let nextId = 900_000;
const push = (repo: string) => event(nextId--, "PushEvent", "alice", repo, { created_at: minute(80) });

/** A metric's value in the app's /metrics text. */
async function metric(t: ListeningApp, name: string): Promise<number> {
  const text = await (await fetch(`${t.url}/metrics`)).text();
  return Number(new RegExp(`^${name} (\\S+)$`, "m").exec(text)?.[1]);
}

interface Received {
  /** Feed events by id, and `gap` for each gap event, in the order they came. */
  order: string[];
  gaps: StreamGap[];
  /** Resolves once an event with this id has come. */
  seen(id: string): Promise<void>;
}

/** An EventSource on `path` that resumes after `lastEventId` (the header its first request carries, as a reconnection's). */
function resume(t: ListeningApp, path: string, lastEventId: string): { source: EventSource; received: Received } {
  const source = new EventSource(`${t.url}${path}`, {
    fetch: (input, init) =>
      fetch(input, {
        ...init,
        headers: { "Last-Event-ID": lastEventId, ...(init?.headers as Record<string, string>) },
      }),
  });
  const order: string[] = [];
  const gaps: StreamGap[] = [];
  const waiting = new Map<string, () => void>();
  source.addEventListener("PushEvent", (message) => {
    order.push(message.lastEventId);
    waiting.get(message.lastEventId)?.();
  });
  source.addEventListener("gap", (message) => {
    order.push("gap");
    gaps.push(JSON.parse(message.data) as StreamGap);
  });
  const seen = (id: string) =>
    order.includes(id) ? Promise.resolve() : new Promise<void>((resolve) => waiting.set(id, resolve));
  return { source, received: { order, gaps, seen } };
}

describe("bounded replay of resumed streams", () => {
  let t: ListeningApp;
  before(async () => {
    t = await startListeningApp({ streamReplayMax: String(REPLAY_MAX) });
  });
  after(async () => {
    await until(async () => (await metric(t, "feedgate_streams_open")) === 0, "streams to close", {
      ms: 2000,
      every: 20,
    });
    t.app.server.closeAllConnections();
    await t.close();
  });

  test("within --stream-replay-max, a resumed stream replays what it missed and no gap", async () => {
    const from = push("bob/tools");
    const missed = [push("bob/tools"), push("bob/tools"), push("bob/tools")];
    await t.ingest.ingestEvents([from]);
    // Other feeds' events in between do not count: the bound is on what this feed's client would be sent.
    await t.ingest.ingestEvents(Array.from({ length: 10 }, () => push("alice/hello")));
    await t.ingest.ingestEvents(missed);
    const resumedBefore = await metric(t, "feedgate_streams_resumed_total");
    const { source, received } = resume(t, "/repos/bob/tools/events", from.id);
    try {
      await received.seen(missed[2]!.id);
      const live = push("bob/tools");
      await t.ingest.ingestEvents([live]);
      await received.seen(live.id);
      assert.deepEqual(
        received.order,
        [...missed, live].map((e) => e.id),
      );
      assert.equal(await metric(t, "feedgate_streams_resumed_total"), resumedBefore + 1);
    } finally {
      source.close();
    }
  });

  test("past it, one gap event names the feed to re-read and the id resumed after, then the stream goes on live", async () => {
    const from = push("alice/hello");
    const missed = Array.from({ length: REPLAY_MAX + 1 }, () => push("alice/hello"));
    await t.ingest.ingestEvents([from]);
    await t.ingest.ingestEvents(missed);
    const gapsBefore = await metric(t, "feedgate_stream_gaps_total");
    const { source, received } = resume(t, "/api/v3/repos/alice/hello/events?since=1", from.id);
    try {
      await until(async () => received.gaps.length === 1, "the gap event", { ms: 2000, every: 10 });
      const live = push("alice/hello");
      await t.ingest.ingestEvents([live]);
      await received.seen(live.id);
      // None of the missed events: the gap, then what was stored after it.
      assert.deepEqual(received.order, ["gap", live.id]);
      const [gap] = received.gaps;
      assert.equal(gap!.last_event_id, from.id);
      assert.equal(gap!.replay_max, REPLAY_MAX);
      // The feed's own URL, in the layout the client used, without the stream's query.
      assert.equal(gap!.feed_url, `${t.url}/api/v3/repos/alice/hello/events`);
      assert.match(gap!.message, new RegExp(`more than ${REPLAY_MAX} events were stored after ${from.id}`));
      assert.equal(await metric(t, "feedgate_stream_gaps_total"), gapsBefore + 1);
      // What the gap skipped is on the feed's pages.
      const page = (await (await fetch(`${gap!.feed_url}?per_page=100`)).json()) as { id: string }[];
      for (const e of missed)
        assert.ok(
          page.some((item) => item.id === e.id),
          e.id,
        );
    } finally {
      source.close();
    }
  });

  test("on the wire: the gap frame has no id, so a reconnection before the next event is told of the gap again", async () => {
    const from = push("alice/hello");
    await t.ingest.ingestEvents([from]);
    await t.ingest.ingestEvents(Array.from({ length: REPLAY_MAX + 1 }, () => push("alice/hello")));
    for (let attempt = 0; attempt < 2; attempt++) {
      const s = await openRawStream(t.url, "/repos/alice/hello/events", { "Last-Event-ID": from.id });
      try {
        const frame = await s.next();
        assert.deepEqual([frame.event, frame.id], ["gap", undefined]);
        assert.equal(JSON.parse(frame.data!).last_event_id, from.id);
      } finally {
        s.close();
      }
    }
  });

  test("the SDK calls onGap and goes on; without onGap the iteration ends with StreamGapError", async () => {
    const client = new Client({ baseUrl: t.url, version: "3.0.0" });
    const from = push("alice/hello");
    await t.ingest.ingestEvents([from]);
    await t.ingest.ingestEvents(Array.from({ length: REPLAY_MAX + 2 }, () => push("alice/hello")));

    await assert.rejects(
      client.events
        .stream(client.events.getFromRepo, { user: "alice", repo: "hello" }, { lastEventId: from.id })
        .next(),
      (error: unknown) =>
        error instanceof StreamGapError && error.gap.last_event_id === from.id && error.code === "ESTREAMGAP",
    );

    const gaps: StreamGap[] = [];
    const stop = new AbortController();
    const events = client.events.stream(
      client.events.getFromRepo,
      { user: "alice", repo: "hello" },
      { lastEventId: from.id, signal: stop.signal, onGap: (gap) => gaps.push(gap) },
    );
    const next = events.next();
    await until(async () => gaps.length === 1, "onGap", { ms: 2000, every: 10 });
    const live = push("alice/hello");
    await t.ingest.ingestEvents([live]);
    assert.equal((await next).value?.id, live.id);
    assert.equal(gaps[0]!.feed_url, `${t.url}/repos/alice/hello/events`);
    stop.abort();
    await events.return();
  });
});
