import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import { buildApp } from "../../src/server/app.js";
import { loadConfig } from "../../src/server/config.js";
import { RedisWindowCounters } from "../../src/server/counters/redis-counters.js";
import { SqliteStore } from "../../src/server/store/sqlite/sqlite-store.js";
import { TcpProxy } from "../helpers/tcp-proxy.js";
import { REDIS_URL, redisPrefix, skipUnlessRedis } from "../helpers/services.js";
import { until } from "../helpers/wait.js";

const redisSkip = await skipUnlessRedis();

// Nothing listens on port 1: the shared counters are configured but unreachable.
const UNREACHABLE_REDIS = "redis://127.0.0.1:1";

describe("an instance whose Redis is unreachable", () => {
  let dir: string;
  let store: SqliteStore;
  let counters: RedisWindowCounters;
  let app: FastifyInstance;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "feedgate-redis-down-"));
    const db = join(dir, "feedgate.db");
    store = await SqliteStore.open(db);
    counters = new RedisWindowCounters(UNREACHABLE_REDIS);
    await counters.connect().catch(() => undefined);
    app = await buildApp({ config: loadConfig({ db, logLevel: "silent" }, {}), store, counters });
  });
  after(async () => {
    await app.close();
    await counters.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test("refuses requests with 503 in GitHub's error shape instead of serving them unguarded", async () => {
    const res = await app.inject({ url: "/events" });
    assert.equal(res.statusCode, 503);
    assert.match(res.json().message, /rate-limit store cannot be reached/);
    assert.equal(res.headers["retry-after"], "5");
    assert.equal(typeof res.json().documentation_url, "string");
  });

  test("reports not ready on /readyz, naming the counters, while /healthz stays up", async () => {
    const ready = await app.inject({ url: "/readyz" });
    assert.equal(ready.statusCode, 503);
    assert.equal(ready.json().checks.database, "ok");
    assert.notEqual(ready.json().checks.counters, "ok");
    assert.equal((await app.inject({ url: "/healthz" })).statusCode, 200);
  });
});

describe("an instance whose Redis goes away while it runs", { skip: redisSkip, timeout: 30_000 }, () => {
  let dir: string;
  let store: SqliteStore;
  let proxy: TcpProxy;
  let counters: RedisWindowCounters;
  let app: FastifyInstance;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "feedgate-redis-cut-"));
    const db = join(dir, "feedgate.db");
    store = await SqliteStore.open(db);
    const redis = new URL(REDIS_URL);
    proxy = new TcpProxy({ host: redis.hostname, port: Number(redis.port || 6379) });
    counters = new RedisWindowCounters(`redis://127.0.0.1:${await proxy.start()}`, redisPrefix());
    await counters.connect();
    app = await buildApp({ config: loadConfig({ db, logLevel: "silent" }, {}), store, counters });
  });
  after(async () => {
    await app.close();
    await counters.close();
    await proxy.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test("503 with Retry-After while it is cut off, served again once it reconnects, never a crash", async () => {
    assert.equal((await app.inject({ url: "/events" })).statusCode, 200);
    proxy.cut("reset");
    for (let i = 0; i < 5; i++) {
      const res = await app.inject({ url: "/events" });
      assert.equal(res.statusCode, 503, res.body);
      assert.equal(res.headers["retry-after"], "5");
    }
    assert.equal((await app.inject({ url: "/readyz" })).statusCode, 503);
    proxy.restore();
    // ioredis reconnects by itself, backing off up to 2 s between tries.
    await until(
      async () => (await app.inject({ url: "/events" })).statusCode === 200,
      "being served again within 5 s of Redis coming back",
      { ms: 5000, every: 100 },
    );
    assert.equal((await app.inject({ url: "/readyz" })).statusCode, 200);
  });
});
