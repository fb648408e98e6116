import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import type { LightMyRequestResponse } from "fastify";
import { basic, startTestApp, type TestApp } from "../helpers/test-app.js";

const ALICE = basic("alice", "alice-password");
const BOB = basic("bob", "bob-password");
const STRONG_ETAG = /^"[0-9a-f]{64}"$/;

describe("conditional requests", () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ rateLimitAuthenticated: 1000 });
    await t.createUser("alice", "alice-password");
    await t.createUser("bob", "bob-password");
  });
  after(() => t.close());

  const create = async (note: string) => {
    const res = await t.app.inject({
      method: "POST",
      url: "/authorizations",
      headers: { authorization: ALICE },
      payload: { note },
    });
    return res.json().id as string;
  };
  const get = (id: string, headers: Record<string, string> = {}, authorization = ALICE) =>
    t.app.inject({ method: "GET", url: `/authorizations/${id}`, headers: { authorization, ...headers } });
  const remaining = (res: LightMyRequestResponse) => Number(res.headers["x-ratelimit-remaining"]);

  function assertNotModified(res: LightMyRequestResponse, etag: string) {
    assert.equal(res.statusCode, 304);
    assert.equal(res.body, "");
    assert.equal(res.headers.etag, etag);
    assert.equal(res.headers["content-type"], undefined);
    assert.equal(res.headers.status, "304 Not Modified");
    assert.match(String(res.headers["cache-control"]), /^private, max-age=60/);
    for (const name of ["limit", "remaining", "reset", "used", "resource"]) {
      assert.ok(res.headers[`x-ratelimit-${name}`] !== undefined, `X-RateLimit-${name} on a 304`);
    }
  }

  test("GET of one authorization has a strong ETag and Last-Modified at its updated_at", async () => {
    const res = await get(await create("tagged"));
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers.etag), STRONG_ETAG);
    assert.equal(res.headers["last-modified"], new Date(res.json().updated_at).toUTCString());
  });

  test("the ETag is stable for an unchanged resource and differs between resources", async () => {
    const [a, b] = [await create("a"), await create("b")];
    assert.equal((await get(a)).headers.etag, (await get(a)).headers.etag);
    assert.notEqual((await get(a)).headers.etag, (await get(b)).headers.etag);
  });

  for (const form of ["exact", "weak", "in a list", "star"]) {
    test(`If-None-Match with the ETag (${form}) is 304 with no body`, async () => {
      const id = await create(`inm ${form}`);
      const etag = String((await get(id)).headers.etag);
      const value = { exact: etag, weak: `W/${etag}`, "in a list": `"0000", W/"1111", ${etag}`, star: "*" }[form]!;
      assertNotModified(await get(id, { "if-none-match": value }), etag);
    });
  }

  test("a conditional request with Cache-Control: no-cache, as fetch sends it, is still answered 304", async () => {
    const id = await create("fetch-style");
    const etag = String((await get(id)).headers.etag);
    const lastModified = String((await get(id)).headers["last-modified"]);
    assertNotModified(await get(id, { "if-none-match": etag, "cache-control": "no-cache", pragma: "no-cache" }), etag);
    assertNotModified(await get(id, { "if-modified-since": lastModified, "cache-control": "no-cache" }), etag);
  });

  test("If-None-Match with another ETag is a full 200", async () => {
    const id = await create("other tag");
    const res = await get(id, { "if-none-match": `"${"0".repeat(64)}"` });
    assert.equal(res.statusCode, 200);
    assert.equal(res.json().id, id);
  });

  test("a 304 does not use up rate limit; a 200 does", async () => {
    const id = await create("free polling");
    const first = await get(id);
    const etag = String(first.headers.etag);
    const start = remaining(first);
    for (let i = 0; i < 3; i++) {
      const res = await get(id, { "if-none-match": etag });
      assertNotModified(res, etag);
      assert.equal(remaining(res), start);
    }
    assert.equal(remaining(await get(id)), start - 1);
  });

  for (const [label, offsetSeconds, status] of [
    ["equal to", 0, 304],
    ["later than", 60, 304],
    ["earlier than", -1, 200],
  ] as const) {
    test(`If-Modified-Since ${label} Last-Modified is ${status}`, async () => {
      const id = await create(`ims ${label}`);
      const lastModified = new Date(String((await get(id)).headers["last-modified"]));
      const since = new Date(lastModified.getTime() + offsetSeconds * 1000).toUTCString();
      const res = await get(id, { "if-modified-since": since });
      assert.equal(res.statusCode, status);
      if (status === 200) assert.equal(res.json().id, id);
    });
  }

  test("an If-Modified-Since that is not a date is ignored", async () => {
    const res = await get(await create("bad date"), { "if-modified-since": "yesterday" });
    assert.equal(res.statusCode, 200);
  });

  test("If-None-Match takes precedence over If-Modified-Since", async () => {
    const id = await create("precedence");
    const lastModified = String((await get(id)).headers["last-modified"]);
    const res = await get(id, { "if-none-match": '"stale"', "if-modified-since": lastModified });
    assert.equal(res.statusCode, 200);
  });

  test("after a PATCH the old ETag and Last-Modified no longer match", async () => {
    const id = await create("before");
    const before = await get(id);
    const etag = String(before.headers.etag);
    t.clock.advance(10 * 1000);
    const patched = await t.app.inject({
      method: "PATCH",
      url: `/authorizations/${id}`,
      headers: { authorization: ALICE },
      payload: { note: "after" },
    });
    assert.equal(patched.statusCode, 200);

    const byTag = await get(id, { "if-none-match": etag });
    assert.equal(byTag.statusCode, 200);
    assert.equal(byTag.json().note, "after");
    assert.notEqual(byTag.headers.etag, etag);
    const byDate = await get(id, { "if-modified-since": String(before.headers["last-modified"]) });
    assert.equal(byDate.statusCode, 200);
    assertNotModified(await get(id, { "if-none-match": String(byTag.headers.etag) }), String(byTag.headers.etag));
  });

  test("the list has an ETag and answers a matching If-None-Match with 304", async () => {
    const list = () => t.app.inject({ method: "GET", url: "/authorizations", headers: { authorization: BOB } });
    const first = await list();
    const etag = String(first.headers.etag);
    assert.match(etag, STRONG_ETAG);
    const res = await t.app.inject({
      method: "GET",
      url: "/authorizations",
      headers: { authorization: BOB, "if-none-match": etag },
    });
    assertNotModified(res, etag);
  });

  test("a conditional request for another user's authorization is still 404", async () => {
    const id = await create("private");
    const etag = String((await get(id)).headers.etag);
    const res = await get(id, { "if-none-match": etag }, BOB);
    assert.equal(res.statusCode, 404);
    assert.equal(res.headers.etag, undefined);
  });

  test("non-GET responses and errors have no ETag", async () => {
    const created = await t.app.inject({
      method: "POST",
      url: "/authorizations",
      headers: { authorization: ALICE },
      payload: { note: "w" },
    });
    const { id } = created.json();
    const patched = await t.app.inject({
      method: "PATCH",
      url: `/authorizations/${id}`,
      headers: { authorization: ALICE },
      payload: { note: "x" },
    });
    const deleted = await t.app.inject({
      method: "DELETE",
      url: `/authorizations/${id}`,
      headers: { authorization: ALICE },
    });
    const missing = await get(id);
    for (const [res, status] of [
      [created, 201],
      [patched, 200],
      [deleted, 204],
      [missing, 404],
    ] as const) {
      assert.equal(res.statusCode, status);
      assert.equal(res.headers.etag, undefined, `ETag on ${res.statusCode}`);
      assert.equal(res.headers["last-modified"], undefined, `Last-Modified on ${res.statusCode}`);
    }
  });
});
