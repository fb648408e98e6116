/**
 * The rate-limit rule alone, over the in-process counters and a time the test holds: which window a caller counts
 * against, charging it, settling by status (a 304 gives its hit back), and reading it without counting.
 */
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { MemoryWindowCounters } from "../../../src/server/counters/counters.js";
import {
  type Charge,
  givesHitBack,
  isOver,
  RateLimitRule,
  windowFor,
} from "../../../src/server/counters/rate-limit-rule.js";

const LIMITS = { authenticated: 3, anonymous: 2, windowSeconds: 3600 };
const NOW = new Date("2026-01-15T10:00:00Z");
const later = (seconds: number) => new Date(NOW.getTime() + seconds * 1000);
const ANONYMOUS = windowFor({ userId: null, ip: "10.0.0.1" }, LIMITS);

describe("the rate-limit rule", () => {
  test("counts a user per id, an anonymous caller per IP, and an operation's own window per IP", () => {
    assert.deepEqual(windowFor({ userId: 7, ip: "10.0.0.1" }, LIMITS), { key: "rate:user:7", limit: 3, seconds: 3600 });
    assert.deepEqual(ANONYMOUS, { key: "rate:ip:10.0.0.1", limit: 2, seconds: 3600 });
    const own = { resource: "credentials_revoke", limit: 60, windowSeconds: 60, status: 422 } as const;
    assert.deepEqual(windowFor({ userId: 7, ip: "10.0.0.1", own }, LIMITS), {
      key: "rate:credentials_revoke:ip:10.0.0.1",
      limit: 60,
      seconds: 60,
    });
  });

  test("charges each request, opening a window that ends a window's length after the first, and is over past the limit", async () => {
    const rule = new RateLimitRule(new MemoryWindowCounters());
    const first = await rule.charge(ANONYMOUS, NOW);
    assert.deepEqual(first, { key: "rate:ip:10.0.0.1", limit: 2, seconds: 3600, used: 1, resetAt: later(3600) });
    const second = await rule.charge(ANONYMOUS, later(10));
    assert.deepEqual([second.used, second.resetAt], [2, later(3600)], "the same window");
    assert.equal(isOver(second), false);
    assert.equal(isOver(await rule.charge(ANONYMOUS, later(20))), true);
    const fresh = await rule.charge(ANONYMOUS, later(3600));
    assert.deepEqual([fresh.used, fresh.resetAt], [1, later(7200)], "the window ended: a fresh one");
  });

  test("a 304 within the limit gives its hit back; any other status, or a 304 over the limit, keeps it", async () => {
    const rule = new RateLimitRule(new MemoryWindowCounters());
    const charged = await rule.charge(ANONYMOUS, NOW);
    for (const status of [200, 201, 304, 401, 403, 404, 500]) {
      assert.equal(givesHitBack(charged, status), status === 304, `a ${status}`);
    }
    const over: Charge = { ...charged, used: 3 };
    assert.equal(givesHitBack(over, 304), false);

    assert.equal((await rule.settle(charged, 200, NOW)).used, 1);
    const settled = await rule.settle(charged, 304, NOW);
    assert.deepEqual(settled, { ...charged, used: 0 });
    assert.equal(charged.used, 1, "the charge itself is left as it was");
    assert.equal((await rule.status(ANONYMOUS, NOW)).used, 0, "the counter gave the hit back");
  });

  test("a cancelled charge counts nothing", async () => {
    const rule = new RateLimitRule(new MemoryWindowCounters());
    await rule.charge(ANONYMOUS, NOW);
    await rule.cancel(await rule.charge(ANONYMOUS, NOW), NOW);
    assert.equal((await rule.charge(ANONYMOUS, NOW)).used, 2);
  });

  test("reads a window without counting it, and a closed or unopened one as fresh from now", async () => {
    const rule = new RateLimitRule(new MemoryWindowCounters());
    assert.deepEqual(await rule.status(ANONYMOUS, NOW), {
      key: "rate:ip:10.0.0.1",
      limit: 2,
      seconds: 3600,
      used: 0,
      resetAt: later(3600),
    });
    await rule.charge(ANONYMOUS, NOW);
    for (let i = 0; i < 3; i++) assert.equal((await rule.status(ANONYMOUS, later(60))).used, 1);
    const closed = await rule.status(ANONYMOUS, later(3600));
    assert.deepEqual([closed.used, closed.resetAt], [0, later(7200)]);
  });
});
