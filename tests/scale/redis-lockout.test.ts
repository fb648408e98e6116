/**
 * The login lockout with its windows in Redis, raced across two instances: fifty concurrent wrong passwords,
 * split between them, check at most the limit's worth against the password; the rest are refused as locked.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import { Redis } from "ioredis";
import { buildApp } from "../../src/server/app.js";
import { loadConfig } from "../../src/server/config.js";
import { RedisWindowCounters } from "../../src/server/counters/redis-counters.js";
import { SqliteStore } from "../../src/server/store/sqlite/sqlite-store.js";
import { createAccount } from "../../src/server/services/users.js";
import { REDIS_URL, redisPrefix, skipUnlessRedis } from "../helpers/services.js";
import { basic } from "../helpers/test-app.js";

const skip = await skipUnlessRedis();
const LIMIT = 10;

describe("the login lockout shared in Redis by two instances", { skip }, () => {
  const dir = mkdtempSync(join(tmpdir(), "feedgate-lockout-"));
  const prefix = redisPrefix();
  const stores: SqliteStore[] = [];
  const counters: RedisWindowCounters[] = [];
  const apps: FastifyInstance[] = [];

  before(async () => {
    const db = join(dir, "feedgate.db");
    for (let i = 0; i < 2; i++) {
      const store = await SqliteStore.open(db);
      const shared = new RedisWindowCounters(REDIS_URL, prefix);
      await shared.connect();
      stores.push(store);
      counters.push(shared);
      apps.push(
        await buildApp({
          config: loadConfig({ db, logLevel: "silent", loginMaxAttempts: LIMIT }, {}),
          store,
          counters: shared,
        }),
      );
    }
    await createAccount(stores[0]!, { login: "rita", password: "right-password" });
    await createAccount(stores[0]!, { login: "sam", password: "right-password" });
  });

  after(async () => {
    for (const app of apps) await app.close();
    for (const shared of counters) await shared.close();
    for (const store of stores) await store.close();
    const redis = new Redis(REDIS_URL);
    for (const key of await redis.keys(`${prefix}*`)) await redis.del(key);
    await redis.quit();
    rmSync(dir, { recursive: true, force: true });
  });

  const login = (instance: number, user: string, password: string) =>
    apps[instance]!.inject({
      url: "/authorizations",
      headers: { authorization: basic(user, password) },
    });

  test("fifty concurrent wrong passwords across both instances: at most the limit are checked", async () => {
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => login(i % 2, "rita", `guess-${i}`)));
    const statuses = answers.map((res) => res.statusCode);
    assert.equal(statuses.filter((s) => s === 401).length, LIMIT, statuses.join(" "));
    assert.equal(statuses.filter((s) => s === 403).length, 50 - LIMIT);
    assert.equal((await login(1, "rita", "right-password")).statusCode, 403, "locked on both instances");
  });

  test("concurrent right passwords beyond the limit all get in: a success gives its place back", async () => {
    const answers = await Promise.all(
      Array.from({ length: 2 * LIMIT }, (_, i) => login(i % 2, "sam", "right-password")),
    );
    assert.deepEqual(
      answers.map((res) => res.statusCode),
      Array(2 * LIMIT).fill(200),
    );
  });
});
