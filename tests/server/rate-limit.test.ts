import { test, describe, beforeEach, afterEach } from "node:test";
import assert from "node:assert/strict";
import type { InjectOptions, LightMyRequestResponse } from "fastify";
import { basic, startTestApp, type TestApp } from "../helpers/test-app.js";
import type { UserRow } from "../../src/server/store/store.js";

const ALICE = basic("alice", "alice-password");
const BOB = basic("bob", "bob-password");
const RATE_DOCS = "https://developer.github.com/v3/#rate-limiting";
const WINDOW = 3600;

/** The X-RateLimit-* headers as numbers (Resource as text). */
function rate(res: LightMyRequestResponse) {
  const number = (name: string) => {
    const value = res.headers[name];
    assert.match(String(value), /^\d+$/, `${name} on a ${res.statusCode}`);
    return Number(value);
  };
  return {
    limit: number("x-ratelimit-limit"),
    remaining: number("x-ratelimit-remaining"),
    reset: number("x-ratelimit-reset"),
    used: number("x-ratelimit-used"),
    resource: res.headers["x-ratelimit-resource"],
  };
}

describe("rate limits", () => {
  let t: TestApp;
  let alice: UserRow;
  beforeEach(async () => {
    t = await startTestApp({ rateLimitAuthenticated: 3, rateLimitAnonymous: 2 });
    alice = await t.createUser("alice", "alice-password");
  });
  afterEach(() => t.close());

  const epoch = (offsetSeconds = 0) => Math.floor(t.clock.current.getTime() / 1000) + offsetSeconds;
  const call = (request: InjectOptions) => t.app.inject(request);
  const aliceGet = () => call({ method: "GET", url: "/authorizations", headers: { authorization: ALICE } });
  const anonymous = (remoteAddress?: string) =>
    call({ method: "GET", url: "/nope", ...(remoteAddress ? { remoteAddress } : {}) });

  test("every response carries X-RateLimit-Limit, Remaining, Reset, Used and Resource", async () => {
    const { token } = await t.createToken(alice, ["repo"]);
    const cases: { name: string; status: number; limit: number; request: InjectOptions }[] = [
      {
        name: "200 list",
        status: 200,
        limit: 3,
        request: { method: "GET", url: "/authorizations", headers: { authorization: ALICE } },
      },
      {
        name: "401 no credentials",
        status: 401,
        limit: 2,
        request: { method: "GET", url: "/authorizations", remoteAddress: "10.0.0.1" },
      },
      {
        name: "401 bad password",
        status: 401,
        limit: 2,
        request: {
          method: "GET",
          url: "/authorizations",
          headers: { authorization: basic("alice", "wrong") },
          remoteAddress: "10.0.0.2",
        },
      },
      {
        name: "404 unknown route",
        status: 404,
        limit: 2,
        request: { method: "GET", url: "/nope", remoteAddress: "10.0.0.3" },
      },
      {
        name: "403 token on a password-only route",
        status: 403,
        limit: 3,
        request: { method: "GET", url: "/authorizations", headers: { authorization: `token ${token}` } },
      },
      {
        name: "422 bad page",
        status: 422,
        limit: 3,
        request: { method: "GET", url: "/authorizations?page=x", headers: { authorization: ALICE } },
      },
    ];
    for (const { name, status, limit, request } of cases) {
      const res = await call(request);
      assert.equal(res.statusCode, status, name);
      const headers = rate(res);
      assert.equal(headers.limit, limit, name);
      assert.equal(headers.reset, epoch(WINDOW), name);
      assert.equal(headers.resource, "core", name);
      assert.equal(headers.remaining + headers.used, headers.limit, name);
    }
  });

  test("an authenticated user's 4th request in a window is 403 with GitHub's message and Remaining 0", async () => {
    const seen = [];
    for (let i = 0; i < 3; i++) {
      const res = await aliceGet();
      assert.equal(res.statusCode, 200);
      seen.push([rate(res).remaining, rate(res).used]);
    }
    assert.deepEqual(seen, [
      [2, 1],
      [1, 2],
      [0, 3],
    ]);

    const refused = await aliceGet();
    assert.equal(refused.statusCode, 403);
    assert.deepEqual(refused.json(), {
      message: `API rate limit exceeded for user ID ${alice.id}.`,
      documentation_url: RATE_DOCS,
    });
    assert.deepEqual({ ...rate(refused), reset: 0 }, { limit: 3, remaining: 0, reset: 0, used: 3, resource: "core" });
  });

  test("a request over the limit does nothing", async () => {
    for (let i = 0; i < 3; i++) await aliceGet();
    const res = await call({
      method: "POST",
      url: "/authorizations",
      headers: { authorization: ALICE },
      payload: { note: "late" },
    });
    assert.equal(res.statusCode, 403);
    assert.equal((await t.store.authorizations.list(alice.id, { limit: 10, offset: 0 })).total, 0);
  });

  test("the user's window is shared by password and token authentication", async () => {
    const { token } = await t.createToken(alice, []);
    await aliceGet();
    const viaToken = await call({ method: "GET", url: "/nope", headers: { authorization: `token ${token}` } });
    assert.equal(rate(viaToken).remaining, 1);
    await aliceGet();
    const refused = await call({ method: "GET", url: "/nope", headers: { authorization: `token ${token}` } });
    assert.equal(refused.statusCode, 403);
    assert.equal(refused.json().message, `API rate limit exceeded for user ID ${alice.id}.`);
  });

  test("two users have separate windows", async () => {
    const bob = await t.createUser("bob", "bob-password");
    for (let i = 0; i < 3; i++) await aliceGet();
    assert.equal((await aliceGet()).statusCode, 403);
    const res = await call({ method: "GET", url: "/authorizations", headers: { authorization: BOB } });
    assert.equal(res.statusCode, 200);
    assert.equal(rate(res).remaining, 2);
    assert.ok(bob.id !== alice.id);
  });

  test("anonymous callers are limited per IP, with GitHub's message naming the IP", async () => {
    assert.deepEqual([rate(await anonymous()).remaining, rate(await anonymous()).remaining], [1, 0]);
    const refused = await anonymous();
    assert.equal(refused.statusCode, 403);
    const body = refused.json();
    assert.ok(body.message.startsWith("API rate limit exceeded for 127.0.0.1."), body.message);
    assert.equal(
      body.message,
      "API rate limit exceeded for 127.0.0.1. (But here's the good news: Authenticated " +
        "requests get a higher rate limit. Check out the documentation for more details.)",
    );
    assert.equal(body.documentation_url, RATE_DOCS);
    assert.equal(rate(refused).remaining, 0);

    const elsewhere = await anonymous("203.0.113.9");
    assert.equal(elsewhere.statusCode, 404);
    assert.equal(rate(elsewhere).remaining, 1);
    assert.equal((await anonymous("203.0.113.9")).statusCode, 404);
    assert.ok((await anonymous("203.0.113.9")).json().message.startsWith("API rate limit exceeded for 203.0.113.9."));
  });

  test("a spent anonymous window does not stop a user from the same IP", async () => {
    await anonymous();
    await anonymous();
    assert.equal((await anonymous()).statusCode, 403);
    assert.equal((await aliceGet()).statusCode, 200);
  });

  test("failed logins count against the IP's anonymous window", async () => {
    const wrong = () =>
      call({ method: "GET", url: "/authorizations", headers: { authorization: basic("alice", "wrong") } });
    assert.equal((await wrong()).statusCode, 401);
    assert.equal(rate(await anonymous()).remaining, 0);
  });

  test("X-RateLimit-Reset is the window's end in epoch seconds, and a new window starts after it", async () => {
    const start = epoch();
    const first = await aliceGet();
    assert.equal(rate(first).reset, start + WINDOW);

    t.clock.advance(1800 * 1000);
    await aliceGet();
    const third = await aliceGet();
    assert.equal(rate(third).reset, start + WINDOW, "the window does not slide");
    assert.equal((await aliceGet()).statusCode, 403);

    t.clock.advance(1800 * 1000);
    const renewed = await aliceGet();
    assert.equal(renewed.statusCode, 200);
    assert.deepEqual([rate(renewed).remaining, rate(renewed).used, rate(renewed).reset], [2, 1, start + 2 * WINDOW]);
  });

  test("an anonymous window resets after an hour too", async () => {
    await anonymous();
    await anonymous();
    assert.equal((await anonymous()).statusCode, 403);
    t.clock.advance((WINDOW + 1) * 1000);
    const res = await anonymous();
    assert.equal(res.statusCode, 404);
    assert.deepEqual([rate(res).remaining, rate(res).reset], [1, epoch(WINDOW)]);
  });

  test("GET /rate_limit, never counted, reports a fresh window in its headers and body once the caller's has passed", async () => {
    const rateLimit = () => call({ method: "GET", url: "/rate_limit" });
    await anonymous();
    await anonymous();
    t.clock.advance(WINDOW * 1000);
    const fresh = { limit: 2, remaining: 2, reset: epoch(WINDOW), used: 0, resource: "core" };
    for (let i = 0; i < 2; i++) {
      const res = await rateLimit();
      assert.equal(res.statusCode, 200);
      assert.deepEqual(rate(res), fresh, "GitHub's headers, of a window not yet opened");
      const body = res.json();
      const { resource: _, ...core } = fresh;
      assert.deepEqual(body.resources.core, core);
      assert.deepEqual(body.rate, core);
      assert.equal(body.resources.search.reset, fresh.reset);
    }
    const counted = await anonymous();
    assert.deepEqual(rate(counted), { ...fresh, remaining: 1, used: 1 }, "the calls to /rate_limit counted nothing");
    t.clock.advance(60_000);
    assert.deepEqual(rate(await rateLimit()), { ...fresh, remaining: 1, used: 1 }, "the window the route opened");
  });
});
