/**
 * Live streams of the feeds (Server-Sent Events) over real sockets and a real store (SQLite, or PostgreSQL in the
 * driver matrix run): with a raw socket, which sees every byte, and with the `eventsource` package, as clients use.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { EventSource } from "eventsource";
import { startListeningApp, type ListeningApp } from "../helpers/listening-app.js";
import { ALICE, ALICE_PUBLIC_TOKEN, ALICE_TOKEN, BOB_TOKEN, minute } from "../helpers/client-world.js";
import { event, issueEvent } from "../helpers/events.js";
import { openRawStream, within, type RawStream } from "../helpers/sse.js";
import { basic } from "../helpers/test-app.js";
import { until } from "../helpers/wait.js";
import { buildApp } from "../../src/server/app.js";
import { loadConfig } from "../../src/server/config.js";
import { openStore } from "../helpers/store-drivers.js";

let nextId = 700_000;
/** A public push to `repo` with a fresh id; ids go down, so that id order and arrival order differ. */
const push = (repo: string, extra: Record<string, unknown> = {}) =>
  event(nextId--, "PushEvent", "alice", repo, { created_at: minute(60), ...extra });

/** The feed's JSON text of each event, by id, exactly as a page serves it. */
async function asServed(
  t: ListeningApp,
  path: string,
  headers: Record<string, string> = {},
): Promise<Map<string, string>> {
  const page = await fetch(`${t.url}${path}${path.includes("?") ? "&" : "?"}per_page=100`, { headers });
  const items = (await page.json()) as { id: string }[];
  return new Map(items.map((item) => [item.id, JSON.stringify(item)]));
}

/** Opened streams are closed after each test group, whatever it asserted. */
const opened: RawStream[] = [];
async function stream(t: ListeningApp, path: string, headers: Record<string, string> = {}): Promise<RawStream> {
  const s = await openRawStream(t.url, path, headers);
  opened.push(s);
  return s;
}
const closeAll = () => {
  for (const s of opened.splice(0)) s.close();
};

async function openStreams(t: ListeningApp): Promise<number> {
  const text = await (await fetch(`${t.url}/metrics`)).text();
  return Number(/^feedgate_streams_open (\S+)$/m.exec(text)![1]);
}

/** Polls the metric until it reads `count` (the server notices a closed socket asynchronously). */
async function untilOpenStreams(t: ListeningApp, count: number): Promise<void> {
  await until(async () => (await openStreams(t)) === count, `open streams to reach ${count}`, { ms: 2000, every: 20 });
}

describe("live streams of the feeds", () => {
  let t: ListeningApp;
  before(async () => {
    t = await startListeningApp({ maxStreamsPerUser: 3, streamHeartbeat: "200ms" });
  });
  after(async () => {
    closeAll();
    await t.close();
  });

  test("sends each new event in arrival order with its id, type and the feed's JSON, on a raw socket", async () => {
    const s = await stream(t, "/repos/alice/hello/events");
    assert.equal(s.status, 200);
    assert.match(s.headers["content-type"]!, /^text\/event-stream/);
    assert.equal(s.headers["cache-control"], "no-cache");
    assert.equal(s.headers.etag, undefined);
    const [first, second, third] = [push("alice/hello"), push("alice/hello"), push("alice/hello")];
    await t.ingest.ingestEvents([first]);
    await t.ingest.ingestEvents([second, third]);
    const served = await asServed(t, "/repos/alice/hello/events");
    for (const sent of [first, second, third]) {
      const frame = await s.next();
      assert.equal(frame.id, sent.id);
      assert.equal(frame.event, "PushEvent");
      assert.equal(frame.data, served.get(sent.id));
    }
    closeAll();
  });

  test("an action's events stream as ingested ones do, in arrival order, and so does its issue event", async () => {
    const events = await stream(t, "/repos/alice/hello/events");
    const issueEvents = await stream(t, "/repos/alice/hello/issues/events");
    const act = async (method: string, path: string, body: object) => {
      const res = await fetch(`${t.url}${path}`, {
        method,
        headers: { authorization: `token ${ALICE_TOKEN}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      const text = await res.text();
      assert.ok(res.ok, `${method} ${path}: ${res.status} ${text}`);
      return JSON.parse(text) as { number: number };
    };
    const [before, after] = [push("alice/hello"), push("alice/hello")];
    await t.ingest.ingestEvents([before]);
    const issue = await act("POST", "/repos/alice/hello/issues", { title: "Streamed" });
    await act("POST", `/repos/alice/hello/issues/${issue.number}/comments`, { body: "Streamed too" });
    await act("PATCH", `/repos/alice/hello/issues/${issue.number}`, { state: "closed" });
    await t.ingest.ingestEvents([after]);

    const frames = [];
    for (let i = 0; i < 5; i++) frames.push(await within(5000, events.next(), `the repository feed's frame ${i + 1}`));
    const served = await asServed(t, "/repos/alice/hello/events");
    assert.deepEqual(
      frames.map((f) => [f.event, f.event === "PushEvent" ? f.id : JSON.parse(f.data!).payload.action]),
      [
        ["PushEvent", before.id],
        ["IssuesEvent", "opened"],
        ["IssueCommentEvent", "created"],
        ["IssuesEvent", "closed"],
        ["PushEvent", after.id],
      ],
    );
    for (const frame of frames)
      assert.equal(frame.data, served.get(frame.id!), `frame ${frame.id} as its page serves it`);
    const made = frames.slice(1, 4).map((f) => BigInt(f.id!));
    assert.ok(made[0]! < made[1]! && made[1]! < made[2]!, "a made event's id follows the one made before it");

    const closed = await within(5000, issueEvents.next(), "the issue event's frame");
    assert.equal(closed.event, "closed");
    const closedBody = JSON.parse(closed.data!) as { event: string; issue: { number: number } };
    assert.deepEqual([closedBody.event, closedBody.issue.number], ["closed", issue.number]);
    closeAll();
  });

  test("replays what was stored after Last-Event-ID (or ?since=), then goes on live", async () => {
    const [a, b, c, d] = [push("bob/tools"), push("bob/tools"), push("bob/tools"), push("bob/tools")];
    await t.ingest.ingestEvents([a]);
    await t.ingest.ingestEvents([b, c]);
    const resumed = await stream(t, "/repos/bob/tools/events", { "Last-Event-ID": a.id });
    const since = await stream(t, `/api/v3/repos/bob/tools/events?since=${b.id}`);
    assert.deepEqual([(await resumed.next()).id, (await resumed.next()).id], [b.id, c.id]);
    assert.equal((await since.next()).id, c.id);
    await t.ingest.ingestEvents([d]);
    assert.equal((await resumed.next()).id, d.id);
    const live = await since.next();
    assert.equal(live.id, d.id);
    // The /api/v3 layout's URLs keep their prefix in completed envelopes, as its pages do.
    assert.match(JSON.parse(live.data!).repo.url, /\/api\/v3\/repos\/bob\/tools$/);
    closeAll();
  });

  test("id-based paths and issue-event feeds stream too", async () => {
    const repo = (await (await fetch(`${t.url}/repos/alice/hello`)).json()) as { id: number };
    const s = await stream(t, `/repositories/${repo.id}/issues/events`);
    await t.ingest.seedWorld(
      {
        issue_events: [
          issueEvent("alice/hello", "88", "closed", "bob", {
            created_at: "2026-01-14T02:00:00Z",
            issue: { title: "x", number: 9, state: "closed" },
          }),
        ],
      },
      { baseDir: undefined },
    );
    const frame = await s.next();
    assert.deepEqual([frame.id, frame.event, JSON.parse(frame.data!).event], ["88", "closed", "closed"]);
    closeAll();
  });

  test("a feed the caller cannot see is 404, as the feed is; bad resume points are 400 and 422", async () => {
    const hidden = await stream(t, "/repos/alice/secret/events");
    assert.equal(hidden.status, 404);
    assert.equal(JSON.parse(await hidden.body()).message, "Not Found");
    const dashboard = await stream(t, "/users/alice/events/orgs/acme", { Authorization: `token ${BOB_TOKEN}` });
    assert.equal(dashboard.status, 404);
    const malformed = await stream(t, "/events", { "Last-Event-ID": "not-an-id" });
    assert.equal(malformed.status, 400);
    assert.match(JSON.parse(await malformed.body()).message, /Last-Event-ID must be the id of an event/);
    const unknown = await stream(t, "/events?since=123456789012");
    assert.equal(unknown.status, 422);
    const body = JSON.parse(await unknown.body());
    assert.equal(body.message, "Validation Failed");
    assert.equal(body.errors[0].code, "invalid");
    closeAll();
  });

  test("opening a stream costs one request of rate limit, however many events it carries", async () => {
    const headers = { Authorization: `token ${BOB_TOKEN}` };
    const s = await stream(t, "/repos/acme/site/events", headers);
    const remaining = Number(s.headers["x-ratelimit-remaining"]);
    await t.ingest.ingestEvents([push("acme/site"), push("acme/site")]);
    await s.next();
    await s.next();
    const status = (await (await fetch(`${t.url}/rate_limit`, { headers })).json()) as { rate: { remaining: number } };
    assert.equal(status.rate.remaining, remaining);
    closeAll();
  });

  test("refuses a stream beyond --max-streams-per-user with 429, and counts again once one closes", async () => {
    const headers = { Authorization: `token ${ALICE_TOKEN}` };
    const held = [
      await stream(t, "/events", headers),
      await stream(t, "/events", headers),
      await stream(t, "/users/alice/events", headers),
    ];
    assert.deepEqual(
      held.map((s) => s.status),
      [200, 200, 200],
    );
    const refused = await stream(t, "/events", headers);
    assert.equal(refused.status, 429);
    assert.match(JSON.parse(await refused.body()).message, /Too many open streams: at most 3 per user/);
    // Another user is not affected.
    assert.equal((await stream(t, "/events", { Authorization: `token ${BOB_TOKEN}` })).status, 200);
    held[0]!.close();
    await untilOpenStreams(t, 3);
    assert.equal((await stream(t, "/events", headers)).status, 200);
    closeAll();
  });

  test("closes a stream within a second of its token's deletion, through another request", async () => {
    const user = (await t.store.users.findByLogin("alice"))!;
    const { token, id } = await t.createToken(user, ["repo"]);
    const s = await stream(t, "/repos/alice/secret/events", { Authorization: `token ${token}` });
    assert.equal(s.status, 200);
    const deleted = await fetch(`${t.url}/authorizations/${id}`, {
      method: "DELETE",
      headers: { Authorization: basic(ALICE.login, ALICE.password) },
    });
    assert.equal(deleted.status, 204);
    await within(1000, s.ended, "the stream's end");
    assert.ok(
      s.comments.some((c) => /credentials no longer authenticate/.test(c)),
      s.comments.join("|"),
    );
  });

  test("closes a stream within a second when its user loses access, even written by another connection", async () => {
    await t.ingest.seedWorld(
      { repos: [{ full_name: "alice/secret", collaborators: ["bob"] }] },
      { baseDir: undefined },
    );
    const s = await stream(t, "/repos/alice/secret/events", { Authorization: `token ${BOB_TOKEN}` });
    assert.equal(s.status, 200);
    await t.store.ingest.apply(
      {
        accounts: [],
        memberships: [],
        repos: [],
        follows: [],
        watches: [],
        tokens: [],
        events: [],
        issueEvents: [],
        collaborators: [{ source: "test", repo: "alice/secret", user: "bob", remove: true }],
      },
      new Date(),
    );
    await within(1000, s.ended, "the stream's end");
  });

  test("sends a heartbeat comment on quiet streams", async () => {
    const s = await stream(t, "/events");
    await within(
      2000,
      new Promise<void>((resolve) => {
        const check = () => (s.comments.includes("heartbeat") ? resolve() : setTimeout(check, 20));
        check();
      }),
      "a heartbeat",
    );
    closeAll();
  });

  test("a client that goes away releases its stream", async () => {
    await untilOpenStreams(t, 0);
    const s = await stream(t, "/events");
    assert.equal(await openStreams(t), 1);
    s.close();
    await untilOpenStreams(t, 0);
  });
});

describe("live streams with the eventsource package", () => {
  let t: ListeningApp;
  before(async () => {
    t = await startListeningApp();
  });
  after(() => t.close());

  test("with the eventsource package, private events reach only those who may see them", async () => {
    const withToken = (token: string) => ({
      fetch: (input: string | URL | Request, init?: RequestInit) =>
        fetch(input, {
          ...init,
          headers: { ...(init?.headers as Record<string, string>), Authorization: `token ${token}` },
        }),
    });
    const sources = [
      new EventSource(`${t.url}/users/alice/events`, withToken(ALICE_TOKEN)),
      new EventSource(`${t.url}/users/alice/events`, withToken(ALICE_PUBLIC_TOKEN)),
      new EventSource(`${t.url}/users/alice/events`),
    ];
    try {
      const received = sources.map((source) => {
        const ids: string[] = [];
        let done!: () => void;
        const finished = new Promise<void>((resolve) => (done = resolve));
        source.addEventListener("PushEvent", (message) => {
          ids.push(message.lastEventId);
          if (JSON.parse(message.data).public === true && message.lastEventId === marker.id) done();
        });
        return { ids, finished };
      });
      await Promise.all(sources.map((source) => new Promise((resolve) => (source.onopen = resolve))));
      const secret = push("alice/secret", { public: false });
      const marker = push("alice/hello");
      await t.ingest.ingestEvents([secret]);
      await t.ingest.ingestEvents([marker]);
      await Promise.all(received.map((r) => r.finished));
      assert.deepEqual(
        received.map((r) => r.ids),
        [[secret.id, marker.id], [marker.id], [marker.id]],
      );
    } finally {
      for (const source of sources) source.close();
      // Node's fetch (undici) opens a spare connection as an aborted stream's goes, and sends nothing on it: the
      // server would wait for it until the keep-alive timeout. The streams themselves are gone (asserted below).
      await untilOpenStreams(t, 0);
      t.app.server.closeAllConnections();
    }
  });
});

describe("streams and the server's life", () => {
  test("the server's shutdown ends open streams promptly", async () => {
    const t = await startListeningApp();
    try {
      const streams = [await openRawStream(t.url, "/events"), await openRawStream(t.url, "/repos/alice/hello/events")];
      const started = Date.now();
      await within(2000, t.app.close(), "the app's close");
      await Promise.all(streams.map((s) => within(1000, s.ended, "a stream's end")));
      assert.ok(Date.now() - started < 2000);
    } finally {
      await t.close();
    }
  });

  test("with --max-streams-per-user 0 streams are off and the feed answers its JSON page", async () => {
    const t = await startListeningApp({ maxStreamsPerUser: 0 });
    try {
      const s = await openRawStream(t.url, "/events");
      assert.equal(s.status, 200);
      assert.match(s.headers["content-type"]!, /^application\/json/);
      s.close();
    } finally {
      await t.close();
    }
  });
});

describe("streams across instances on one database", () => {
  // How soon is the bench's to measure (a second on a quiet machine); this proves it arrives, each time, unasked.
  test("an event ingested through instance A reaches a stream on instance B, each in turn", async () => {
    const a = await startListeningApp();
    // Instance B: its own app and its own connections to A's database (the same SQLite file, or PostgreSQL database).
    const store = await openStore(a.dbPath);
    const b = await buildApp({
      config: loadConfig({ db: a.dbPath, logLevel: "silent", rateLimitAnonymous: 1000 }, {}),
      store,
    });
    try {
      const bUrl = await b.listen({ port: 0, host: "127.0.0.1" });
      const s = await openRawStream(bUrl, "/repos/alice/hello/events");
      assert.equal(s.status, 200);
      for (const n of [1, 2, 3]) {
        const sent = push("alice/hello");
        const admin = await a.createUser(`admin${n}`, "pw", { siteAdmin: true });
        assert.ok(admin);
        const answer = await fetch(`${a.url}/admin/events`, {
          method: "POST",
          body: JSON.stringify(sent),
          headers: { Authorization: basic(`admin${n}`, "pw"), "Content-Type": "application/x-ndjson" },
        });
        assert.equal(answer.status, 200, await answer.text());
        const frame = await within(10_000, s.next(), "delivery on instance B");
        assert.equal(frame.id, sent.id);
      }
      s.close();
    } finally {
      await b.close();
      await store.close();
      await a.close();
    }
  });
});
