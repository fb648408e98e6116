/**
 * `POST /credentials/revoke`, GitHub's "Revoke a list of credentials" (https://docs.github.com/rest/credentials/revoke):
 * anonymous callers list tokens they found exposed; each one feedgate issued is deleted and refused at once, on
 * every instance; the answer is 202 `{}` whatever was listed; authenticated callers get 403; the list holds 1 to
 * 1000 strings or nothing is revoked (422); 60 requests an hour per client IP, a window apart from the core one.
 */
import { test, describe, beforeEach, afterEach } from "node:test";
import assert from "node:assert/strict";
import type { FastifyInstance, InjectOptions } from "fastify";
import { basic, startTestApp, TEST_PASSWORD_COST, type TestApp } from "../helpers/test-app.js";
import { openStore } from "../helpers/store-drivers.js";
import { buildApp } from "../../src/server/app.js";
import { loadConfig } from "../../src/server/config.js";
import type { Store, UserRow } from "../../src/server/store/store.js";

const DOCS = "https://docs.github.com/rest/credentials/revoke#revoke-a-list-of-credentials";
/** A token of feedgate's shape (checksum included) that no database holds. */
const NOT_OURS = "fgp_000000000000000000000000000000AAAAAA";

describe("POST /credentials/revoke", () => {
  let t: TestApp;
  let alice: UserRow;
  beforeEach(async () => {
    // The core anonymous window is small, to show that revocation neither uses nor obeys it.
    t = await startTestApp({ rateLimitAnonymous: 2 });
    alice = await t.createUser("alice", "alice-password");
  });
  afterEach(() => t.close());

  const revoke = (body: unknown, extra: Partial<InjectOptions> = {}, app: FastifyInstance = t.app) =>
    app.inject({ method: "POST", url: "/credentials/revoke", payload: body as InjectOptions["payload"], ...extra });
  const asUser = (token: string, app: FastifyInstance = t.app) =>
    app.inject({ method: "GET", url: "/user", headers: { authorization: `token ${token}` } });

  test("revokes the listed tokens of any owner: 202 with {}, and each is refused on the very next request", async () => {
    const bob = await t.createUser("bob", "bob-password");
    const a = await t.createToken(alice, ["repo"]);
    const b = await t.createToken(bob, []);
    const kept = await t.createToken(alice, ["user"]);
    // Used just before: the server remembers these tokens between requests.
    for (const { token } of [a, b, kept]) assert.equal((await asUser(token)).statusCode, 200);

    const res = await revoke({ credentials: [a.token, b.token] });
    assert.equal(res.statusCode, 202);
    assert.deepEqual(res.json(), {});
    assert.match(String(res.headers["content-type"]), /^application\/json/);

    for (const { token } of [a, b]) {
      const refused = await asUser(token);
      assert.equal(refused.statusCode, 401);
      assert.equal(refused.json().message, "Bad credentials");
    }
    assert.equal((await asUser(kept.token)).statusCode, 200);
    assert.deepEqual(
      (await t.store.authorizations.listAll()).map((row) => String(row.id)),
      [kept.id],
    );
  });

  test("a token remembered by another instance on the same database is refused there at once", async () => {
    const other = await otherInstance(t.dbPath);
    try {
      const { token } = await t.createToken(alice, ["repo"]);
      assert.equal((await asUser(token, other.app)).statusCode, 200);
      assert.equal((await revoke({ credentials: [token] })).statusCode, 202);
      assert.equal((await asUser(token, other.app)).statusCode, 401);
      assert.equal((await asUser(token)).statusCode, 401);
    } finally {
      await other.close();
    }
  });

  test("unknown tokens, strings that are no tokens and repeats get the same 202 {} and change nothing", async () => {
    const { token } = await t.createToken(alice);
    const known = await revoke({ credentials: [token, token] });
    for (const credentials of [
      [NOT_OURS],
      ["ghp_1234567890abcdef1234567890abcdef12345678"],
      ["", "x\u0000y"],
      [token],
    ]) {
      const res = await revoke({ credentials });
      assert.equal(res.statusCode, 202, JSON.stringify(credentials));
      assert.equal(res.body, known.body);
    }
    assert.deepEqual(await t.store.authorizations.listAll(), []);
  });

  test("is served under /api/v3 too", async () => {
    const { token } = await t.createToken(alice);
    const res = await t.app.inject({
      method: "POST",
      url: "/api/v3/credentials/revoke",
      payload: { credentials: [token] },
    });
    assert.equal(res.statusCode, 202);
    assert.equal((await asUser(token)).statusCode, 401);
  });

  describe("callers", () => {
    test("a valid token or password is refused with 403 and revokes nothing", async () => {
      const { token } = await t.createToken(alice, ["repo"]);
      for (const authorization of [`token ${token}`, basic("alice", "alice-password")]) {
        const res = await revoke({ credentials: [token] }, { headers: { authorization } });
        assert.equal(res.statusCode, 403, authorization);
        assert.deepEqual(res.json(), {
          message: "This endpoint does not accept authenticated requests; send no credentials.",
          documentation_url: DOCS,
        });
      }
      assert.equal((await asUser(token)).statusCode, 200);
    });

    test("bad credentials are 401, as everywhere, and revoke nothing; without them the same list is revoked", async () => {
      const { token } = await t.createToken(alice);
      const res = await revoke({ credentials: [token] }, { headers: { authorization: `token ${NOT_OURS}` } });
      assert.equal(res.statusCode, 401);
      assert.equal(res.json().message, "Bad credentials");
      assert.equal((await asUser(token)).statusCode, 200);
      assert.equal((await revoke({ credentials: [token] })).statusCode, 202);
      assert.equal((await asUser(token)).statusCode, 401);
    });
  });

  describe("bad input revokes nothing", () => {
    const cases: { name: string; body: unknown; code: string; message: RegExp }[] = [
      { name: "no credentials key", body: {}, code: "missing_field", message: /^credentials / },
      {
        name: "an empty list",
        body: { credentials: [] },
        code: "invalid",
        message: /^credentials must NOT have fewer than 1 items/,
      },
      {
        name: "1001 tokens",
        body: { credentials: null },
        code: "invalid",
        message: /^credentials must NOT have more than 1000 items/,
      },
      {
        name: "a string instead of a list",
        body: { credentials: "TOKEN" },
        code: "invalid",
        message: /^credentials must be array/,
      },
      {
        name: "a number in the list",
        body: { credentials: ["TOKEN", 7] },
        code: "invalid",
        message: /^credentials must be string/,
      },
    ];
    for (const { name, body, code, message } of cases) {
      test(`${name}: 422 Validation Failed naming credentials`, async () => {
        const { token } = await t.createToken(alice);
        const withToken = JSON.parse(JSON.stringify(body).replace("TOKEN", token)) as { credentials?: unknown };
        if (name === "1001 tokens") withToken.credentials = [token, ...Array.from({ length: 1000 }, () => NOT_OURS)];
        const res = await revoke(withToken);
        assert.equal(res.statusCode, 422);
        const answer = res.json();
        assert.equal(answer.message, "Validation Failed");
        assert.equal(answer.documentation_url, DOCS);
        assert.equal(answer.errors.length, 1);
        assert.deepEqual(
          { ...answer.errors[0], message: undefined },
          { resource: "Credential", field: "credentials", code, message: undefined },
        );
        assert.match(answer.errors[0].message, message);
        assert.equal((await asUser(token)).statusCode, 200);
      });
    }

    test("1000 tokens are accepted", async () => {
      const { token } = await t.createToken(alice);
      const res = await revoke({ credentials: [token, ...Array.from({ length: 999 }, () => NOT_OURS)] });
      assert.equal(res.statusCode, 202);
      assert.equal((await asUser(token)).statusCode, 401);
    });

    test("a body that is not JSON is 400 Problems parsing JSON", async () => {
      const res = await revoke('{"credentials": [', { headers: { "content-type": "application/json" } });
      assert.equal(res.statusCode, 400);
      assert.deepEqual(res.json(), { message: "Problems parsing JSON", documentation_url: DOCS });
    });
  });

  describe("its own rate limit", () => {
    test("60 requests an hour per client IP, reported as credentials_revoke; the 61st is 422 and revokes nothing", async () => {
      const { token } = await t.createToken(alice);
      for (let i = 1; i <= 60; i++) {
        const res = await revoke({ credentials: [NOT_OURS] });
        assert.equal(res.statusCode, 202, `request ${i}`);
        assert.equal(res.headers["x-ratelimit-limit"], "60");
        assert.equal(res.headers["x-ratelimit-used"], String(i));
        assert.equal(res.headers["x-ratelimit-remaining"], String(60 - i));
        assert.equal(res.headers["x-ratelimit-resource"], "credentials_revoke");
      }
      const spent = await revoke({ credentials: [token] });
      assert.equal(spent.statusCode, 422);
      assert.deepEqual(spent.json(), { message: "API rate limit exceeded for 127.0.0.1.", documentation_url: DOCS });
      assert.equal(spent.headers["x-ratelimit-remaining"], "0");
      assert.equal((await asUser(token)).statusCode, 200);

      // Another client has its own window; an hour later this one has a new one.
      assert.equal((await revoke({ credentials: [NOT_OURS] }, { remoteAddress: "10.0.0.9" })).statusCode, 202);
      t.clock.advance(3600 * 1000);
      assert.equal((await revoke({ credentials: [token] })).statusCode, 202);
      assert.equal((await asUser(token)).statusCode, 401);
    });

    test("is neither counted in nor stopped by the core window", async () => {
      const core = () => t.app.inject({ method: "GET", url: "/users/alice" });
      assert.equal((await core()).headers["x-ratelimit-used"], "1");
      for (let i = 0; i < 3; i++) assert.equal((await revoke({ credentials: [NOT_OURS] })).statusCode, 202);
      const after = await core();
      assert.equal(after.headers["x-ratelimit-used"], "2");
      assert.equal(after.headers["x-ratelimit-resource"], "core");
      assert.equal((await core()).statusCode, 403); // the core window (2) is spent...
      assert.equal((await revoke({ credentials: [NOT_OURS] })).statusCode, 202); // ...and revocation goes on
    });
  });
});

/** A second feedgate instance on the same database, with its own store and its own remembered look-ups. */
async function otherInstance(db: string): Promise<{ app: FastifyInstance; close(): Promise<void> }> {
  const store: Store = await openStore(db);
  const app = await buildApp({
    config: loadConfig({ db, logLevel: "silent", passwordCost: TEST_PASSWORD_COST }, {}),
    store,
  });
  return {
    app,
    async close() {
      await app.close();
      await store.close();
    },
  };
}
