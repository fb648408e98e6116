/**
 * Repeated answers (src/server/repeats/): a feed request repeated exactly is answered again without Fastify's
 * pipeline, and only while nothing the answer depends on has changed. Over real sockets (app.inject() never reaches
 * the server's listener). Each test shows one dependency taking effect on the very next request; the last compares a
 * server that repeats with one that never does, request for request, through random writes, clock moves and polls.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import Database from "better-sqlite3";
import pg from "pg";
import { startListeningApp, type ListeningApp } from "../helpers/listening-app.js";
import { TestClock, basic } from "../helpers/test-app.js";
import { ALICE, ALICE_PUBLIC_TOKEN, ALICE_TOKEN, BOB_TOKEN } from "../helpers/client-world.js";
import { event } from "../helpers/events.js";
import { emptyBatch } from "../../src/server/services/event-envelope.js";

const HELLO = "/repos/alice/hello/events";

/** Runs one SQL statement on the test's database (a SQLite file, or PostgreSQL in the driver matrix), around the app. */
async function execute(db: string, sql: string): Promise<void> {
  if (/^postgres(ql)?:/.test(db)) {
    const client = new pg.Client({ connectionString: db });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
    return;
  }
  const sqlite = new Database(db);
  try {
    sqlite.prepare(sql).run();
  } finally {
    sqlite.close();
  }
}

async function repeatedCount(t: ListeningApp): Promise<number> {
  const text = await (await fetch(`${t.url}/metrics`)).text();
  return Number(/^feedgate_repeated_answers_total (\d+)$/m.exec(text)![1]);
}

function get(t: ListeningApp, path: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${t.url}${path}`, { headers });
}

const token = (value: string) => ({ authorization: `token ${value}` });

/** The headers a repeated answer makes afresh; everything else must be the same bytes. */
const PER_REQUEST = new Set([
  "x-github-request-id",
  "x-ratelimit-remaining",
  "x-ratelimit-used",
  "date",
  "keep-alive",
  "connection",
]);
const lasting = (response: Response) => [...response.headers].filter(([name]) => !PER_REQUEST.has(name));

describe("repeated answers", () => {
  let t: ListeningApp;
  before(async () => {
    t = await startListeningApp({ testControls: true });
  });
  after(async () => t.close());

  test("a poll repeated exactly gets the same answer again, a request id of its own and its rate limit charged", async () => {
    const first = await get(t, HELLO, token(ALICE_TOKEN));
    const firstBody = await first.text();
    assert.equal(first.status, 200);
    const before = await repeatedCount(t);
    const again = await get(t, HELLO, token(ALICE_TOKEN));
    assert.equal(await repeatedCount(t), before + 1, "answered again");
    assert.equal(again.status, 200);
    assert.equal(await again.text(), firstBody);
    assert.deepEqual(lasting(again), lasting(first));
    assert.notEqual(again.headers.get("x-github-request-id"), first.headers.get("x-github-request-id"));
    assert.equal(
      Number(again.headers.get("x-ratelimit-remaining")),
      Number(first.headers.get("x-ratelimit-remaining")) - 1,
    );
    assert.equal(Number(again.headers.get("x-ratelimit-used")), Number(first.headers.get("x-ratelimit-used")) + 1);

    // A 304 is free, repeated or not.
    const etag = { ...token(ALICE_TOKEN), "if-none-match": first.headers.get("etag")! };
    const notModified = await get(t, HELLO, etag);
    assert.equal(notModified.status, 304);
    const repeated304 = await get(t, HELLO, etag);
    assert.equal(repeated304.status, 304);
    assert.equal(await repeatedCount(t), before + 2);
    assert.deepEqual(lasting(repeated304), lasting(notModified));
    assert.equal(repeated304.headers.get("x-ratelimit-remaining"), notModified.headers.get("x-ratelimit-remaining"));
    assert.equal(
      repeated304.headers.get("date"),
      new Date(t.clock.now().toUTCString()).toUTCString(),
      "the test clock's Date",
    );
  });

  test("a new event on the feed is in the very next answer", async () => {
    const first = await get(t, HELLO);
    await get(t, HELLO);
    const etag = first.headers.get("etag")!;
    await t.ingest.ingestEvents([
      event("9001", "WatchEvent", "bob", "alice/hello", { created_at: "2026-01-15T09:00:00Z" }),
    ]);
    const after = await get(t, HELLO, { "if-none-match": etag });
    assert.equal(after.status, 200);
    assert.equal(((await after.json()) as { id: string }[])[0]!.id, "9001");
  });

  test("polls that come while a changed answer is made again wait for it: the pipeline runs once for them all", async () => {
    // With PostgreSQL each poll's pipeline waits on the database, so the sixteen overlap and, without the wait,
    // each made the answer again (0 of 16 repeated); SQLite's pipeline mostly runs in one turn of the event loop.
    const path = `${HELLO}?per_page=5`;
    await get(t, path);
    await get(t, path);
    await t.ingest.ingestEvents([
      event("9002", "WatchEvent", "carol", "alice/hello", { created_at: "2026-01-15T09:30:00Z" }),
    ]);
    const before = await repeatedCount(t);
    const polls = await Promise.all(Array.from({ length: 16 }, () => get(t, path)));
    const bodies = await Promise.all(polls.map(async (poll) => ((await poll.json()) as { id: string }[])[0]!.id));
    assert.deepEqual(new Set(polls.map((poll) => poll.status)), new Set([200]));
    assert.deepEqual(new Set(bodies), new Set(["9002"]), "every poll sees the new event");
    assert.equal(new Set(polls.map((poll) => poll.headers.get("x-github-request-id"))).size, 16);
    assert.equal(await repeatedCount(t), before + 15, "one poll made the answer again, fifteen were given it");
  });

  test("a revoked token is refused on the next request", async () => {
    const created = (await (
      await fetch(`${t.url}/authorizations`, {
        method: "POST",
        headers: { authorization: basic(ALICE.login, ALICE.password), "content-type": "application/json" },
        body: JSON.stringify({ note: "revoked by a test", scopes: ["repo"] }),
      })
    ).json()) as { token: string };
    for (let i = 0; i < 2; i++) assert.equal((await get(t, HELLO, token(created.token))).status, 200);
    const revoked = await fetch(`${t.url}/credentials/revoke`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ credentials: [created.token] }),
    });
    assert.equal(revoked.status, 202);
    assert.equal((await get(t, HELLO, token(created.token))).status, 401);
  });

  test("an expiring token is refused from its expiry on, by the server's clock", async () => {
    const expiresAt = new Date(t.clock.now().getTime() + 3_600_000).toISOString();
    const created = (await (
      await fetch(`${t.url}/authorizations`, {
        method: "POST",
        headers: { authorization: basic(ALICE.login, ALICE.password), "content-type": "application/json" },
        body: JSON.stringify({ note: "expiring", expires_at: expiresAt }),
      })
    ).json()) as { token: string };
    for (let i = 0; i < 2; i++) assert.equal((await get(t, HELLO, token(created.token))).status, 200);
    const before = await repeatedCount(t);
    t.clock.advance("1h");
    assert.equal((await get(t, HELLO, token(created.token))).status, 401);
    assert.equal(await repeatedCount(t), before);
  });

  test("a follow changes the received feed's next answer", async () => {
    const path = "/users/alice/received_events";
    const first = (await (await get(t, path, token(ALICE_TOKEN))).json()) as { id: string }[];
    await get(t, path, token(ALICE_TOKEN));
    assert.ok(!first.some((e) => e.id === "4001"));
    const follow = emptyBatch();
    follow.follows.push({ source: "test", follower: "alice", followee: "olga" });
    await t.store.ingest.apply(follow, t.clock.now());
    const after = (await (await get(t, path, token(ALICE_TOKEN))).json()) as { id: string }[];
    assert.ok(
      after.some((e) => e.id === "4001"),
      "olga's event, received through the new follow",
    );
  });

  test("follows changed around the ingest (raising only the received feed's own number) change the next answer", async () => {
    // Every ingest also raises the store's version; a write elsewhere (SQL of an operator's, another program's) may
    // raise only received_versions, by its trigger, and the received feed's answer depends on that number too.
    const path = "/users/alice/received_events?per_page=100";
    const before = (await (await get(t, path, token(ALICE_TOKEN))).json()) as { id: string }[];
    await get(t, path, token(ALICE_TOKEN));
    assert.ok(
      before.some((e) => e.id === "2001"),
      "bob's fork, received through alice's follow of bob",
    );
    await execute(t.dbPath, "DELETE FROM follows WHERE follower_id = (SELECT id FROM users WHERE login = 'alice')");
    const after = (await (await get(t, path, token(ALICE_TOKEN))).json()) as { id: string }[];
    assert.ok(!after.some((e) => e.id === "2001"), "alice follows nobody now");
  });

  test("a fault set for the feed answers instead, and the answer is repeated again once it is cleared", async () => {
    await get(t, HELLO, token(BOB_TOKEN));
    await get(t, HELLO, token(BOB_TOKEN));
    const set = await fetch(`${t.url}/_feedgate/faults`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ preset: "unavailable", path: HELLO }),
    });
    assert.equal(set.status, 201);
    assert.equal((await get(t, HELLO, token(BOB_TOKEN))).status, 502);
    assert.equal((await fetch(`${t.url}/_feedgate/faults`, { method: "DELETE" })).status, 204);
    const before = await repeatedCount(t);
    assert.equal((await get(t, HELLO, token(BOB_TOKEN))).status, 200);
    assert.equal((await get(t, HELLO, token(BOB_TOKEN))).status, 200);
    assert.ok((await repeatedCount(t)) > before);
  });
});

describe("repeated answers within limits", () => {
  test("a caller over the rate limit is refused as ever", async () => {
    const t = await startListeningApp({ rateLimitAuthenticated: 3 });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await get(t, HELLO, token(ALICE_TOKEN))).status);
      assert.deepEqual(statuses, [200, 200, 200, 403]);
    } finally {
      await t.close();
    }
  });

  test("under the age cap, a page is answered again only while the cap names the same minute", async () => {
    // The world's pushes on alice/hello are a minute apart from 2026-01-14T00:00Z; the clock stands at 2026-01-15T10:00Z.
    const t = await startListeningApp({ feedMaxAge: "2000m" });
    try {
      const ids = async () =>
        ((await (await get(t, `${HELLO}?per_page=100`)).json()) as { id: string }[]).map((e) => e.id);
      const first = await ids();
      assert.deepEqual(await ids(), first);
      t.clock.advance("5m");
      const later = await ids();
      assert.equal(later.length, first.length - 5, "five more minutes of pushes aged out");
      t.clock.set(new Date("2026-01-15T10:00:00Z"));
      assert.deepEqual(await ids(), first, "back in time, the older page again");
    } finally {
      await t.close();
    }
  });
});

/** What one step of the comparison does to both servers. */
type Step =
  | { kind: "get"; path: string; credential: string | null; conditional: boolean }
  | { kind: "event"; repo: string; actor: string }
  | { kind: "follow"; followee: string }
  | { kind: "clock"; minutes: number }
  | { kind: "revoke" };

// GitHub Enterprise's layout too: Fastify rewrites its URL, and the answer's links carry /api/v3.
const PATHS = [
  HELLO,
  "/events",
  "/users/alice/received_events",
  "/repos/alice/secret/events",
  `${HELLO}?per_page=5&page=2`,
  "/users/alice/events",
  "/orgs/acme/events",
  `/api/v3${HELLO}?per_page=5&page=2`,
];
const stepArb: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record({
      kind: fc.constant("get" as const),
      path: fc.constantFrom(...PATHS),
      credential: fc.constantFrom(null, ALICE_TOKEN, ALICE_PUBLIC_TOKEN, BOB_TOKEN),
      conditional: fc.boolean(),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("event" as const),
      repo: fc.constantFrom("alice/hello", "alice/secret", "bob/tools", "acme/site"),
      actor: fc.constantFrom("alice", "bob", "olga"),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant("follow" as const), followee: fc.constantFrom("olga", "zoe") }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant("clock" as const), minutes: fc.integer({ min: 1, max: 90 }) }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: "revoke" as const }) },
);

describe("a server that repeats answers and one that never does", () => {
  let repeating: ListeningApp;
  let plain: ListeningApp;
  before(async () => {
    // The age cap makes the clock matter to pages (expiring tokens are covered above); one base URL makes the two
    // servers' pages the same bytes, whatever their ports.
    const config = { feedMaxAge: "2000m", rateLimitAuthenticated: 100_000, baseUrl: "https://feedgate.example" };
    repeating = await startListeningApp(config, new TestClock());
    plain = await startListeningApp(config, new TestClock(), undefined, false);
  });
  after(async () => {
    await repeating.close();
    await plain.close();
  });

  test("answer every request alike, status, headers and body, through writes, clock moves and revocations", async () => {
    let nextId = 20_000;
    const etags = new Map<string, string>();
    const revoked = new Set<string>();
    const start = await repeatedCount(repeating);
    await fc.assert(
      fc.asyncProperty(fc.array(stepArb, { minLength: 5, maxLength: 25 }), async (steps) => {
        for (const step of steps) {
          switch (step.kind) {
            case "get": {
              const key = `${step.path} ${step.credential}`;
              const headers: Record<string, string> = step.credential ? token(step.credential) : {};
              if (step.conditional && etags.has(key)) headers["if-none-match"] = etags.get(key)!;
              // Twice each, so that the repeating server has an answer to repeat.
              for (let i = 0; i < 2; i++) {
                const [a, b]: [Response, Response] = await Promise.all([
                  get(repeating, step.path, headers),
                  get(plain, step.path, headers),
                ]);
                const what: string = `GET ${step.path} (${step.credential ? "token" : "anonymous"}${headers["if-none-match"] ? ", conditional" : ""})`;
                assert.equal(a.status, b.status, what);
                assert.deepEqual(
                  [...a.headers].filter(([n]) => n !== "x-github-request-id"),
                  [...b.headers].filter(([n]) => n !== "x-github-request-id"),
                  what,
                );
                assert.equal(await a.text(), await b.text(), what);
                if (a.headers.has("etag")) etags.set(key, a.headers.get("etag")!);
              }
              break;
            }
            case "event": {
              const e = event(String(nextId++), "PushEvent", step.actor, step.repo, {
                created_at: repeating.clock
                  .now()
                  .toISOString()
                  .replace(/\.\d+Z$/, "Z"),
                public: step.repo !== "alice/secret",
              });
              await repeating.ingest.ingestEvents([e]);
              await plain.ingest.ingestEvents([e]);
              break;
            }
            case "follow": {
              const batch = emptyBatch();
              batch.follows.push({ source: "compare", follower: "alice", followee: step.followee });
              await repeating.store.ingest.apply(batch, repeating.clock.now());
              await plain.store.ingest.apply(batch, plain.clock.now());
              break;
            }
            case "clock":
              repeating.clock.advance(step.minutes * 60_000);
              plain.clock.advance(step.minutes * 60_000);
              break;
            case "revoke": {
              if (revoked.has(BOB_TOKEN)) break;
              revoked.add(BOB_TOKEN);
              for (const server of [repeating, plain]) {
                const answer = await fetch(`${server.url}/credentials/revoke`, {
                  method: "POST",
                  headers: { "content-type": "application/json" },
                  body: JSON.stringify({ credentials: [BOB_TOKEN] }),
                });
                assert.equal(answer.status, 202);
              }
              break;
            }
          }
        }
      }),
      { numRuns: 15 },
    );
    assert.ok((await repeatedCount(repeating)) > start + 50, "the comparison did repeat answers");
    assert.equal(await repeatedCount(plain), 0);
  });
});
