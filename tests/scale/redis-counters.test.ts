/**
 * RedisWindowCounters against a real Redis: the shared fixed windows behind rate limits and the failed-login
 * lockout when several instances serve one database. Every test runs under its own key prefix.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import { Redis } from "ioredis";
import { RedisWindowCounters } from "../../src/server/counters/redis-counters.js";
import type { WindowCounters } from "../../src/server/counters/counters.js";
import { REDIS_URL, redisPrefix, skipUnlessRedis } from "../helpers/services.js";

const skip = await skipUnlessRedis();

describe("RedisWindowCounters", { skip }, () => {
  const prefix = redisPrefix();
  let raw: Redis;
  // Used through the interface the app holds them by.
  let a: WindowCounters;
  let b: WindowCounters;
  const opened: RedisWindowCounters[] = [];

  async function counters(withPrefix = prefix): Promise<WindowCounters> {
    const c = new RedisWindowCounters(REDIS_URL, withPrefix);
    await c.connect();
    opened.push(c);
    return c;
  }

  before(async () => {
    raw = new Redis(REDIS_URL);
    // Two objects, as two feedgate instances hold them.
    a = await counters();
    b = await counters();
  });

  after(async () => {
    for (const c of opened) await c.close();
    const keys = await raw.keys(`${prefix}*`);
    const otherKeys = await raw.keys("feedgate-test-other-*");
    for (const key of [...keys, ...otherKeys]) await raw.del(key);
    await raw.quit();
  });

  test("200 concurrent hits from two instances count 1 to 200, each exactly once", async () => {
    const now = new Date();
    const states = await Promise.all(
      Array.from({ length: 200 }, (_, i) => (i % 2 ? a : b).hit("rate:user:1", 3600, now)),
    );
    assert.deepEqual(
      states.map((s) => s.count).sort((x, y) => x - y),
      Array.from({ length: 200 }, (_, i) => i + 1),
    );
    assert.equal((await a.peek("rate:user:1", 3600, now)).count, 200);
    assert.equal(await raw.get(`${prefix}rate:user:1`), "200");
  });

  test("the window is fixed: a later hit neither extends it nor reports another end", async () => {
    const first = await a.hit("fixed", 60, new Date());
    await sleep(1500);
    const later = await b.hit("fixed", 60, new Date());
    assert.equal(later.count, 2);
    // Redis's own clock: the key still expires 60 s after the first hit, not after the second.
    const ttl = await raw.pttl(`${prefix}fixed`);
    assert.ok(ttl > 50_000 && ttl < 59_000, `PTTL ${ttl}`);
    // resetAt is each caller's clock plus Redis's TTL: equal up to round-trip noise, far less than the 1.5 s slide.
    assert.ok(
      Math.abs(later.resetAt.getTime() - first.resetAt.getTime()) < 750,
      `${first.resetAt.toISOString()} vs ${later.resetAt.toISOString()}`,
    );
  });

  test("a window closes when its time is up, and the next hit opens a new one at 1", async () => {
    assert.equal((await a.hit("short", 1, new Date())).count, 1);
    assert.equal((await b.hit("short", 1, new Date())).count, 2);
    await sleep(1200);
    assert.equal((await a.peek("short", 1, new Date())).count, 0);
    assert.equal(await raw.exists(`${prefix}short`), 0);
    const reopened = await b.hit("short", 1, new Date());
    assert.equal(reopened.count, 1);
    assert.ok(reopened.resetAt.getTime() - Date.now() > 500, "a fresh one-second window");
  });

  test("refund takes back one hit, never goes below zero, and keeps the window's end", async () => {
    await a.hit("refund", 60, new Date());
    await a.hit("refund", 60, new Date());
    const ttlBefore = await raw.pttl(`${prefix}refund`);
    await b.refund("refund", new Date());
    assert.equal((await a.peek("refund", 60, new Date())).count, 1);
    await b.refund("refund", new Date());
    await b.refund("refund", new Date());
    await a.refund("refund", new Date());
    assert.equal((await a.peek("refund", 60, new Date())).count, 0);
    assert.equal(await raw.get(`${prefix}refund`), "0");
    const ttlAfter = await raw.pttl(`${prefix}refund`);
    assert.ok(ttlAfter > 0 && ttlAfter <= ttlBefore, `PTTL ${ttlBefore} then ${ttlAfter}`);
    // The next hit counts from zero, in the same window.
    assert.equal((await a.hit("refund", 60, new Date())).count, 1);
  });

  test("refund of a window that does not exist creates nothing", async () => {
    await a.refund("never-hit", new Date());
    assert.equal(await raw.exists(`${prefix}never-hit`), 0);
    assert.equal((await a.hit("never-hit", 60, new Date())).count, 1);
    const ttl = await raw.pttl(`${prefix}never-hit`);
    assert.ok(ttl > 0, "the first hit still sets the window's expiry");
  });

  test("refund after the window expired does not resurrect it", async () => {
    await a.hit("expired-refund", 1, new Date());
    await sleep(1200);
    await b.refund("expired-refund", new Date());
    assert.equal(await raw.exists(`${prefix}expired-refund`), 0);
  });

  test("peek reads without counting, and an unopened window reads as zero hits ending a window from now", async () => {
    const now = new Date();
    const empty = await a.peek("peeked", 120, now);
    assert.deepEqual(empty, { count: 0, resetAt: new Date(now.getTime() + 120_000) });
    assert.equal(await raw.exists(`${prefix}peeked`), 0, "peek opens no window");
    for (let i = 0; i < 3; i++) await b.hit("peeked", 120, new Date());
    for (let i = 0; i < 5; i++) assert.equal((await (i % 2 ? a : b).peek("peeked", 120, new Date())).count, 3);
    const peeked = await a.peek("peeked", 120, new Date());
    assert.ok(peeked.resetAt.getTime() - Date.now() > 115_000, "the open window's own end");
    assert.equal((await a.hit("peeked", 120, new Date())).count, 4);
  });

  test("two instances share a window; another prefix (another deployment) does not", async () => {
    await a.hit("login:alice", 300, new Date());
    await b.hit("login:alice", 300, new Date());
    assert.equal((await b.peek("login:alice", 300, new Date())).count, 2);
    assert.equal((await a.peek("login:alice", 300, new Date())).count, 2);

    const other = await counters(`feedgate-test-other-${prefix}`);
    assert.equal((await other.peek("login:alice", 300, new Date())).count, 0);
    assert.equal((await other.hit("login:alice", 300, new Date())).count, 1);
    assert.equal((await a.peek("login:alice", 300, new Date())).count, 2);
  });

  test("ping answers while Redis is up", async () => {
    await a.ping();
  });

  test("a client that cannot reach Redis fails fast instead of queueing", async () => {
    const unreachable = new RedisWindowCounters("redis://127.0.0.1:1", prefix);
    await assert.rejects(unreachable.connect());
    const started = Date.now();
    await assert.rejects(unreachable.hit("x", 60, new Date()));
    await assert.rejects(unreachable.ping());
    assert.ok(Date.now() - started < 2000, "no retry loop holds the request");
    await unreachable.close();
  });
});
