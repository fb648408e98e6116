/**
 * Reads from real hot standbys (`--db-replica`): a primary and a streaming standby made for this file
 * (helpers/pg-cluster.ts), feedgate serving over real sockets. The standby's replay is paused to make it lag on
 * purpose, so that each test can tell which server answered: what a caller wrote is read back at once whatever the
 * standby has replayed, other callers read the standby, a standby that lags past the limit or stops is left out
 * without a failed request, instances sharing Redis keep each caller's writes visible to it on every one, and a
 * standby reached through PgBouncer (helpers/pgbouncer.ts) serves reads as any other.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { Redis } from "ioredis";
import { startServer, type RunningServer } from "../../src/server/main.js";
import { loadConfig, type ConfigInput } from "../../src/server/config.js";
import { hashPassword } from "../../src/server/services/credentials.js";
import { AuthorizationService } from "../../src/server/services/authorizations.js";
import { TEST_PASSWORD_COST } from "../helpers/password-cost.js";
import { ClusterSet, skipUnlessClusters, type Cluster } from "../helpers/pg-cluster.js";
import { PgBouncer, skipUnlessPgBouncer } from "../helpers/pgbouncer.js";
import { standbyPoolerNotes } from "../../src/server/startup-notes.js";
import { REDIS_URL, redisPrefix, skipUnlessRedis } from "../helpers/services.js";
import { eventually } from "../helpers/wait.js";

const skip = (await skipUnlessClusters()) || (await skipUnlessRedis());
const noPgBouncer = await skipUnlessPgBouncer();

const settings = (primary: Cluster, standby: Cluster, more: ConfigInput = {}) =>
  loadConfig(
    {
      db: primary.url,
      dbReplica: standby.url,
      replicaMaxLag: "2s",
      host: "127.0.0.1",
      port: 0,
      logLevel: "silent",
      passwordCost: TEST_PASSWORD_COST,
      trustProxy: "true",
      ...more,
    },
    {},
  );

/** Reads by server, from `/metrics`. */
async function readsBy(server: RunningServer): Promise<Record<string, number>> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  const reads: Record<string, number> = {};
  for (const [, name, value] of text.matchAll(/^feedgate_db_reads_total\{server="([^"]+)"\} (\d+)$/gm)) {
    reads[name!] = Number(value);
  }
  return reads;
}

async function excluded(server: RunningServer): Promise<number> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  return Number(/^feedgate_db_standby_excluded\{standby="standby 1"\} (\d+)$/m.exec(text)?.[1]);
}

const pause = (standby: Cluster) => standby.query("SELECT pg_wal_replay_pause()");
const resume = (standby: Cluster) => standby.query("SELECT pg_wal_replay_resume()");

/** Waits until the standby has replayed everything the primary has written. */
async function caughtUp(primary: Cluster, standby: Cluster): Promise<void> {
  const lsn = (await primary.query<{ lsn: string }>("SELECT pg_current_wal_lsn()::text AS lsn"))[0]!.lsn;
  await eventually(
    async () => (await standby.query<{ ok: boolean }>(`SELECT pg_last_wal_replay_lsn() >= '${lsn}' AS ok`))[0]!.ok,
    (ok) => ok,
    { ms: 10_000, every: 20 },
  );
}

describe("hot standbys serving reads", { skip }, () => {
  const clusters = new ClusterSet();
  let primary: Cluster;
  let standby: Cluster;
  let server: RunningServer;
  let token: string;

  /** A request from one client address (through --trust-proxy), with or without the token. */
  const call = (path: string, init: { from: string; token?: string; method?: string; body?: unknown }) =>
    fetch(`${server.url}${path}`, {
      method: init.method ?? "GET",
      headers: {
        "x-forwarded-for": init.from,
        ...(init.token ? { authorization: `token ${init.token}` } : {}),
        ...(init.body ? { "content-type": "application/json" } : {}),
      },
      ...(init.body ? { body: JSON.stringify(init.body) } : {}),
    });

  before(async () => {
    primary = await clusters.primary();
    standby = await clusters.standby(primary);
    server = await startServer(settings(primary, standby));
    const user = await server.store.users.create({
      login: "octo",
      passwordHash: await hashPassword("octo-password"),
      otpSecret: null,
      siteAdmin: false,
    });
    ({ token } = await new AuthorizationService(server.store, () => new Date()).issue(user, {
      scopes: ["repo"],
      note: "standbys",
      noteUrl: null,
      fingerprint: null,
    }));
    const made = await call("/user/repos", { from: "10.0.0.1", token, method: "POST", body: { name: "tools" } });
    assert.equal(made.status, 201);
    await caughtUp(primary, standby);
  });

  after(async () => {
    await server?.stop();
    await clusters.destroy();
  });

  test("a server that is a primary is refused as a standby at start, in one line; SQLite takes none", async () => {
    await assert.rejects(startServer(settings(primary, primary)), (error: Error) => {
      assert.equal(error.name, "StartupError");
      assert.match(error.message, /^postgres:\/\/postgres@127\.0\.0\.1:\d+\/postgres is a primary, not a hot standby/);
      assert.doesNotMatch(error.message, /\n/);
      return true;
    });
    await assert.rejects(startServer(settings(primary, standby, { db: ":memory:" })), /needs a postgres:\/\/ --db/);
  });

  test("a standby behind PgBouncer serves reads: sent no statement_timeout, it runs under the pooler's", {
    skip: noPgBouncer,
  }, async () => {
    const bouncer = await PgBouncer.start(standby.url, { connectQuery: "SET statement_timeout = 15000" });
    const pooled = await startServer(
      settings(primary, standby, { dbReplica: bouncer.url(), dbStatementTimeout: "20s" }),
    );
    try {
      const [report] = pooled.store.standbys!().standbys;
      assert.equal(report!.pooledStatementTimeoutMs, 15_000, "the pooler's connect_query set it");
      assert.deepEqual(
        standbyPoolerNotes(20_000, [report!]).map((note) => note.msg),
        [
          "statements through standby 1's pooler (--db-replica) run with statement_timeout 15s, not --db-statement-timeout's 20s: " +
            "a pooler in transaction mode takes it from its own configuration (PgBouncer: connect_query in the database's line; docs/scale-out.md#pgbouncer)",
        ],
      );
      const before = await readsBy(pooled);
      const feed = await fetch(`${pooled.url}/repos/octo/tools/events`, { headers: { "x-forwarded-for": "10.0.2.1" } });
      assert.equal(feed.status, 200);
      assert.ok(((await feed.json()) as unknown[]).length > 0, "the feed has the repository's events");
      const after = await readsBy(pooled);
      assert.ok(after["standby 1"]! > (before["standby 1"] ?? 0), "the read went to the standby, through PgBouncer");
      assert.equal(after.primary ?? 0, before.primary ?? 0);
    } finally {
      await pooled.stop();
      await bouncer.destroy();
    }
  });

  test("other callers read the standby; a caller's own write is read back at once while the standby lags", async () => {
    const before = await readsBy(server);
    assert.equal((await call("/repos/octo/tools/issues", { from: "10.0.0.2" })).status, 200);
    const afterRead = await readsBy(server);
    assert.ok(afterRead["standby 1"]! > (before["standby 1"] ?? 0), "an anonymous read went to the standby");

    await pause(standby);
    try {
      const opened = await call("/repos/octo/tools/issues", {
        from: "10.0.0.1",
        token,
        method: "POST",
        body: { title: "Seen at once" },
      });
      assert.equal(opened.status, 201);
      const { number } = (await opened.json()) as { number: number };
      // The standby has not replayed the issue: the writer's reads go to the primary.
      const mine = await call(`/repos/octo/tools/issues/${number}`, { from: "10.0.0.1", token });
      assert.equal(mine.status, 200);
      assert.equal(((await mine.json()) as { title: string }).title, "Seen at once");
      // The same address without the token (the browser of the person who wrote) too.
      assert.equal((await call(`/repos/octo/tools/issues/${number}`, { from: "10.0.0.1" })).status, 200);
      // Its feed shows the event, and answers the same ETag again: never an older one from the standby.
      const feed = await call("/repos/octo/tools/events", { from: "10.0.0.1", token });
      const etag = feed.headers.get("etag")!;
      assert.equal(((await feed.json()) as { type: string }[])[0]!.type, "IssuesEvent");
      const again = await call("/repos/octo/tools/events", { from: "10.0.0.3" });
      assert.equal(again.headers.get("etag"), etag, "another caller on this instance is not served an older page");
    } finally {
      await resume(standby);
    }
  });

  test("a standby further behind than --replica-max-lag is left out until it catches up", async () => {
    await pause(standby);
    try {
      await call("/repos/octo/tools/issues", { from: "10.0.0.1", token, method: "POST", body: { title: "Lagging" } });
      // The standby's last replayed transaction ages past 2 s while the primary has more.
      await eventually(
        () => excluded(server),
        (n) => n === 1,
        { ms: 10_000, every: 100 },
      );
      const before = await readsBy(server);
      assert.equal((await call("/repos/octo/tools/issues", { from: "10.0.0.4" })).status, 200);
      const after = await readsBy(server);
      assert.equal(after["standby 1"], before["standby 1"], "no read went to the lagging standby");
      assert.ok(after.primary! > before.primary!);
    } finally {
      await resume(standby);
    }
    await caughtUp(primary, standby);
    await eventually(
      () => excluded(server),
      (n) => n === 0,
      { ms: 10_000, every: 100 },
    );
  });

  test("a standby that stops costs no request: reads go to the primary, and back once it returns", async () => {
    await standby.stop();
    try {
      const statuses = [];
      for (let i = 0; i < 10; i++)
        statuses.push((await call("/repos/octo/tools/issues", { from: `10.0.1.${i}` })).status);
      assert.deepEqual(statuses, Array(10).fill(200));
      await eventually(
        () => excluded(server),
        (n) => n === 1,
        { ms: 10_000, every: 100 },
      );
    } finally {
      await standby.start();
    }
    await eventually(
      () => excluded(server),
      (n) => n === 0,
      { ms: 15_000, every: 100 },
    );
    const before = await readsBy(server);
    await call("/repos/octo/tools/issues", { from: "10.0.0.5" });
    assert.ok((await readsBy(server))["standby 1"]! > before["standby 1"]!);
  });

  test("two instances sharing Redis: a write through one is read back through the other while the standby lags", async () => {
    const prefix = redisPrefix();
    const shared = { redis: REDIS_URL, redisPrefix: prefix };
    const one = await startServer(settings(primary, standby, shared));
    const two = await startServer(settings(primary, standby, { ...shared, replicaMaxLag: "1h" }));
    await pause(standby);
    try {
      const opened = await fetch(`${one.url}/repos/octo/tools/issues`, {
        method: "POST",
        headers: { authorization: `token ${token}`, "content-type": "application/json", "x-forwarded-for": "10.0.2.1" },
        body: JSON.stringify({ title: "Through one" }),
      });
      assert.equal(opened.status, 201);
      const { number } = (await opened.json()) as { number: number };
      // A caller who wrote nothing reads the paused standby through the second instance, which has not seen the
      // write: the issue is not there yet (so the answer below depends on the shared floor).
      const other = await fetch(`${two.url}/repos/octo/tools/issues/${number}`, {
        headers: { "x-forwarded-for": "10.0.2.2" },
      });
      assert.equal(other.status, 404);
      const read = await fetch(`${two.url}/repos/octo/tools/issues/${number}`, {
        headers: { authorization: `token ${token}`, "x-forwarded-for": "10.0.2.1" },
      });
      assert.equal(read.status, 200, "the second instance read the primary, where the write is");
      // Having seen the newer version there, the second instance serves nobody the standby's older one.
      const later = await fetch(`${two.url}/repos/octo/tools/issues/${number}`, {
        headers: { "x-forwarded-for": "10.0.2.3" },
      });
      assert.equal(later.status, 200);
    } finally {
      await resume(standby);
      await one.stop();
      await two.stop();
      const redis = new Redis(REDIS_URL);
      for (const key of await redis.keys(`${prefix}*`)) await redis.del(key);
      await redis.quit();
    }
  });
});
