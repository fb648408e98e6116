/**
 * The issue's "done when": two feedgate processes on one PostgreSQL database and one Redis behave as one
 * service. Whatever one instance writes or counts, the other sees at once: authorizations, deletions, rate-limit
 * windows, failed-login lockouts and imported events. Both answer their probes and stop cleanly on SIGTERM.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { feedgate, runCli, runFeedgate, type CliRun } from "../helpers/cli.js";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { Redis } from "ioredis";
import { migrations } from "../../src/server/store/migrations/index.js";
import { PostgresStore } from "../../src/server/store/postgres/postgres-store.js";
import { ids, ndjson } from "../helpers/ingest-fixtures.js";
import { event } from "../helpers/events.js";
import {
  createTestDatabase,
  REDIS_URL,
  redisPrefix,
  skipUnlessPostgres,
  skipUnlessRedis,
  type TestDatabase,
} from "../helpers/services.js";
import { basic } from "../helpers/test-app.js";
import { eventually } from "../helpers/wait.js";

const skip = (await skipUnlessPostgres()) || (await skipUnlessRedis());

type Feedgate = CliRun;

const run = (args: string[]) => runFeedgate(args);

async function listeningUrl(server: Feedgate): Promise<string> {
  let exited = false;
  void server.done.then(() => (exited = true));
  const match = await eventually(
    () => /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(server.stdout),
    (found) => found !== null || exited,
    { ms: 30_000, every: 50 },
  );
  if (match) return match[1]!;
  throw new Error(`feedgate did not start:\n${server.stdout}\n${server.stderr}`);
}

const PASSWORDS: Record<string, string> = {
  alice: "alice-password",
  bob: "bob-password",
  carol: "carol-password",
  admin: "admin-password",
};
const as = (login: string) => ({ authorization: basic(login, PASSWORDS[login]!) });

describe("two feedgate instances on one PostgreSQL database and one Redis", { skip }, () => {
  let database: TestDatabase;
  const prefix = redisPrefix();
  const dir = mkdtempSync(join(tmpdir(), "feedgate-two-"));

  before(async () => {
    database = await createTestDatabase();
  });

  after(async () => {
    await database?.drop();
    const redis = new Redis(REDIS_URL);
    for (const key of await redis.keys(`${prefix}*`)) await redis.del(key);
    await redis.quit();
    rmSync(dir, { recursive: true, force: true });
  });

  test("five stores opening one fresh database at once all migrate it: the advisory lock serializes them", async () => {
    // In process the five really overlap (two spawned CLIs may not); without the lock most of them fail with
    // "relation already exists" or a duplicate schema_migrations key.
    const fresh = await createTestDatabase();
    try {
      const opened = await Promise.allSettled(Array.from({ length: 5 }, () => PostgresStore.open(fresh.url)));
      for (const result of opened) if (result.status === "fulfilled") await result.value.close();
      assert.deepEqual(
        opened.map((r) => (r.status === "rejected" ? String(r.reason) : "ok")),
        ["ok", "ok", "ok", "ok", "ok"],
      );
    } finally {
      await fresh.drop();
    }
  });

  test("feedgate migrate run twice at once on a fresh database: both succeed, each migration applied once", async () => {
    const [first, second] = await Promise.all([
      run(["migrate", "--db", database.url]),
      run(["migrate", "--db", database.url]),
    ]);
    for (const result of [first, second]) {
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout, /: (created the schema \(\d+ migrations\)|already up to date \(version \d+\))\n$/);
    }
    // The advisory lock lets one of them create the schema; the other finds it done.
    assert.ok(!(/created/.test(first.stdout) && /created/.test(second.stdout)), first.stdout + second.stdout);
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ id: number }>("SELECT id FROM schema_migrations ORDER BY id");
      assert.deepEqual(
        rows.map((r) => r.id),
        migrations.map((m) => m.id),
      );
    } finally {
      await client.end();
    }
  });

  describe("instances A and B", () => {
    let a: Feedgate;
    let b: Feedgate;
    let A: string;
    let B: string;
    const get = (base: string, path: string, headers: Record<string, string> = {}) =>
      fetch(`${base}${path}`, { headers });

    before(async () => {
      // Accounts through the CLI (in this process), as an operator would, straight into the shared database.
      const added = await Promise.all(
        Object.entries(PASSWORDS).map(([login, password]) =>
          runCli([
            "user",
            "add",
            login,
            "--password",
            password,
            ...(login === "admin" ? ["--site-admin"] : []),
            "--db",
            database.url,
          ]),
        ),
      );
      for (const result of added) assert.equal(result.code, 0, result.stderr);

      // Behind one load balancer both instances answer for one public URL.
      const serve = () =>
        feedgate([
          "serve",
          "--port",
          "0",
          "--db",
          database.url,
          "--redis",
          REDIS_URL,
          "--redis-prefix",
          prefix,
          "--base-url",
          "https://feedgate.example",
          "--login-max-attempts",
          "3",
          "--rate-limit-anonymous",
          "1000",
          "--log-level",
          "info",
        ]);
      a = serve();
      b = serve();
      [A, B] = await Promise.all([listeningUrl(a), listeningUrl(b)]);
      assert.notEqual(A, B);
    });

    after(() => {
      // Only if a test failed before the SIGTERM test ran.
      for (const server of [a, b])
        if (server && server.child.exitCode === null && server.child.signalCode === null) server.child.kill("SIGKILL");
    });

    test("/healthz and /readyz answer 200 on both, with the database and Redis ready", async () => {
      for (const base of [A, B]) {
        const health = await get(base, "/healthz");
        assert.equal(health.status, 200);
        assert.deepEqual(await health.json(), { status: "ok" });
        const ready = await get(base, "/readyz");
        assert.equal(ready.status, 200);
        assert.deepEqual(await ready.json(), { status: "ok", checks: { database: "ok", counters: "ok" } });
      }
    });

    test("an authorization created on A is read on B; deleted on B, its token is refused on A at once", async () => {
      const created = await fetch(`${A}/authorizations`, {
        method: "POST",
        headers: { ...as("alice"), "content-type": "application/json" },
        body: JSON.stringify({ scopes: ["repo"], note: "two instances" }),
      });
      assert.equal(created.status, 201);
      const authorization = (await created.json()) as { id: string; token: string; note: string; scopes: string[] };
      assert.match(authorization.token, /^fgp_/);

      const read = await get(B, `/authorizations/${authorization.id}`, as("alice"));
      assert.equal(read.status, 200);
      assert.deepEqual(await read.json(), { ...authorization, token: "" });

      const withToken = { authorization: `token ${authorization.token}` };
      const onB = await get(B, "/users/alice/events", withToken);
      assert.equal(onB.status, 200);
      assert.equal(onB.headers.get("x-oauth-scopes"), "repo");
      assert.equal((await get(A, "/users/alice/events", withToken)).status, 200);

      const deleted = await fetch(`${B}/authorizations/${authorization.id}`, {
        method: "DELETE",
        headers: as("alice"),
      });
      assert.equal(deleted.status, 204);
      const refused = await get(A, "/users/alice/events", withToken);
      assert.equal(refused.status, 401);
      assert.equal(((await refused.json()) as { message: string }).message, "Bad credentials");
      assert.equal((await get(A, `/authorizations/${authorization.id}`, as("alice"))).status, 404);
    });

    test("X-RateLimit-Remaining falls by one per request, whichever instance answers; a 304 on the other costs nothing", async () => {
      const created = await fetch(`${A}/authorizations`, {
        method: "POST",
        headers: { ...as("carol"), "content-type": "application/json" },
        body: JSON.stringify({ note: "rate" }),
      });
      const withToken = { authorization: `token ${((await created.json()) as { token: string }).token}` };
      const seen: { remaining: number; reset: number; limit: string | null }[] = [];
      let etag = "";
      for (let i = 0; i < 8; i++) {
        const res = await get(i % 2 ? B : A, "/users/carol/events", withToken);
        assert.equal(res.status, 200);
        etag = res.headers.get("etag")!;
        seen.push({
          remaining: Number(res.headers.get("x-ratelimit-remaining")),
          reset: Number(res.headers.get("x-ratelimit-reset")),
          limit: res.headers.get("x-ratelimit-limit"),
        });
      }
      for (let i = 1; i < seen.length; i++) {
        assert.equal(
          seen[i]!.remaining,
          seen[i - 1]!.remaining - 1,
          `request ${i} on ${i % 2 ? "B" : "A"}: ${JSON.stringify(seen)}`,
        );
        // One window in Redis: both instances report its end (each from its own clock, so to the second).
        assert.ok(Math.abs(seen[i]!.reset - seen[0]!.reset) <= 1, JSON.stringify(seen));
        assert.equal(seen[i]!.limit, "5000");
      }
      assert.ok(seen[0]!.remaining < 5000);

      // The ETag A gave is valid on B (both hash the same rows); the refunded hit is refunded in the shared window.
      const notModified = await get(B, "/users/carol/events", { ...withToken, "if-none-match": etag });
      assert.equal(notModified.status, 304);
      assert.equal(Number(notModified.headers.get("x-ratelimit-remaining")), seen.at(-1)!.remaining);
      const next = await get(A, "/users/carol/events", withToken);
      assert.equal(Number(next.headers.get("x-ratelimit-remaining")), seen.at(-1)!.remaining - 1);
    });

    test("failed logins count across instances: two on A and one on B lock the account on both", async () => {
      const wrong = { authorization: basic("bob", "wrong-password") };
      for (const base of [A, A, B]) assert.equal((await get(base, "/authorizations", wrong)).status, 401);
      for (const base of [A, B]) {
        const locked = await get(base, "/authorizations", as("bob"));
        assert.equal(locked.status, 403, base);
        assert.match(
          ((await locked.json()) as { message: string }).message,
          /Maximum number of login attempts exceeded/,
        );
      }
      // The lock is bob's alone.
      for (const base of [A, B]) assert.equal((await get(base, "/authorizations", as("alice"))).status, 200);
    });

    test("events imported through A (admin HTTP ingest) are served by B", async () => {
      const events = [
        event("3001", "PushEvent", "alice", "acme/widgets", {
          public: true,
          payload: {},
          created_at: "2021-07-21T10:00:01Z",
        }),
        event("3002", "IssuesEvent", "carol", "acme/widgets", {
          public: true,
          payload: {},
          created_at: "2021-07-21T10:00:02Z",
        }),
        event("3003", "WatchEvent", "bob", "acme/widgets", {
          public: true,
          payload: {},
          created_at: "2021-07-21T10:00:03Z",
        }),
      ];
      // B has the public feed in its page cache before the ingest; A's ingest must make B read it afresh.
      assert.ok(!ids(await (await get(B, "/events")).text()).includes("3001"));
      const ingested = await fetch(`${A}/admin/events`, {
        method: "POST",
        headers: { ...as("admin"), "content-type": "application/x-ndjson" },
        body: ndjson(events),
      });
      assert.equal(ingested.status, 200, await ingested.clone().text());
      assert.deepEqual(await ingested.json(), {
        events_added: 3,
        events_skipped: 0,
        issue_events_added: 0,
        issue_events_skipped: 0,
      });

      const served = await get(B, "/repos/acme/widgets/events");
      assert.equal(served.status, 200);
      assert.deepEqual(ids(await served.text()), ["3003", "3002", "3001"]);
      assert.deepEqual(ids(await (await get(B, "/users/bob/events")).text()), ["3003"]);
      assert.deepEqual(ids(await (await get(B, "/events")).text()).slice(0, 3), ["3003", "3002", "3001"]);
    });

    test("events imported with `feedgate import --db` while both run are served by both", async () => {
      // Both instances have the public feed in their page caches before the import.
      for (const base of [A, B]) assert.ok(!ids(await (await get(base, "/events")).text()).includes("4001"), base);
      const file = join(dir, "hour.ndjson");
      writeFileSync(
        file,
        `${ndjson([
          event("4001", "PushEvent", "dave", "dave/tools", {
            public: true,
            payload: {},
            created_at: "2021-07-21T11:00:01Z",
          }),
          event("4002", "CreateEvent", "dave", "dave/tools", {
            public: true,
            payload: {},
            created_at: "2021-07-21T11:00:02Z",
          }),
        ])}\n`,
      );
      const imported = await runCli(["import", file, "--db", database.url]);
      assert.equal(imported.code, 0, imported.stderr);
      assert.match(imported.stdout, /2 events added/);
      for (const base of [A, B]) {
        const served = await get(base, "/repos/dave/tools/events");
        assert.equal(served.status, 200, base);
        assert.deepEqual(ids(await served.text()), ["4002", "4001"], base);
        assert.deepEqual(ids(await (await get(base, "/events")).text()).slice(0, 2), ["4002", "4001"], base);
      }
    });

    test("SIGTERM stops both cleanly, with exit code 0", async () => {
      a.child.kill("SIGTERM");
      b.child.kill("SIGTERM");
      for (const [name, server] of [
        ["A", a],
        ["B", b],
      ] as const) {
        const exit = await server.done;
        assert.deepEqual([exit.code, exit.signal], [0, null], `${name}: ${exit.stderr}`);
        assert.match(exit.stdout, /shutting down/);
      }
    });
  });
});
