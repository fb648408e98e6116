/**
 * A GitHub App's JWT (spec/github-auth-flows.md section 6): RS256, `iss` the app's id or client id, `iat`/`exp` by the
 * server's clock with a minute of skew and at most ten minutes ahead, GitHub's exact 401 messages, a `Date` header
 * from the same clock; and which credentials the JWT routes and the ordinary ones take.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { generateKeyPairSync } from "node:crypto";
import { startTestApp, type TestApp } from "../helpers/test-app.js";
import { ALICE_TOKEN, WORLD } from "../helpers/client-world.js";
import { IngestService } from "../../src/server/services/ingest.js";
import { assertSchema } from "../compat/schemas.js";
import { registerApp, type RegisteredApp } from "../helpers/github-app.js";

describe("app JWTs", () => {
  let t: TestApp;
  let bot: RegisteredApp;
  const get = (url: string, authorization?: string) =>
    t.app.inject({ method: "GET", url, headers: authorization ? { authorization } : {} });
  const refusal = async (authorization: string, message: string) => {
    const res = await get("/app", authorization);
    assert.equal(res.statusCode, 401, res.body);
    assert.equal(JSON.parse(res.body).message, message);
  };

  before(async () => {
    t = await startTestApp();
    await new IngestService(t.store, t.clock.now).seedWorld(WORLD, { baseDir: undefined });
    bot = await registerApp(t, { owner: "alice" });
  });
  after(() => t.close());

  test("GET /app with the app's JWT answers GitHub's integration, with a Date header from the clock", async () => {
    const res = await get("/app", `Bearer ${await bot.jwt()}`);
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.headers.date, t.clock.now().toUTCString());
    const body = JSON.parse(res.body);
    assertSchema("integration", body);
    assert.equal(body.id, bot.app.id);
    assert.equal(body.slug, "issue-bot");
    assert.equal(body.owner.login, "alice");
    assert.deepEqual(body.permissions, { issues: "write", metadata: "read" });
  });

  test("iss may be the client id", async () => {
    const res = await get("/app", `Bearer ${await bot.jwt({ iss: bot.app.clientId })}`);
    assert.equal(res.statusCode, 200, res.body);
  });

  test("GitHub's 401 for a JWT whose times, issuer or signature are wrong", async () => {
    const now = Math.floor(t.clock.now().getTime() / 1000);
    await refusal(
      `Bearer ${await bot.jwt({ exp: now + 700 })}`,
      "'Expiration time' claim ('exp') is too far in the future",
    );
    await refusal(
      `Bearer ${await bot.jwt({ iat: now - 700, exp: now - 100 })}`,
      "'Expiration time' claim ('exp') must be a numeric value representing the future time at which the assertion expires",
    );
    await refusal(
      `Bearer ${await bot.jwt({ iat: now + 120 })}`,
      "'Issued at' claim ('iat') must be an Integer representing the time that the assertion was issued",
    );
    await refusal(`Bearer ${await bot.jwt({ iss: 999_999 })}`, "Integration not found");
    const { privateKey: other } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    await refusal(`Bearer ${await bot.jwt({}, other)}`, "A JSON web token could not be decoded");
    await refusal("Bearer eyJhbGciOiJSUzI1NiJ9.bm90IGpzb24.x", "A JSON web token could not be decoded");
  });

  test("a token on a JWT route could not be decoded; a JWT on an ordinary route is not accessible by integration", async () => {
    await refusal(`token ${ALICE_TOKEN}`, "A JSON web token could not be decoded");
    assert.equal((await get("/app")).statusCode, 401);
    const res = await get("/repos/alice/hello/issues", `Bearer ${await bot.jwt()}`);
    assert.equal(res.statusCode, 403, res.body);
    assert.equal(JSON.parse(res.body).message, "Resource not accessible by integration");
  });

  test("a verified JWT is taken until its exp, and refused after it", async () => {
    const jwt = await bot.jwt();
    assert.equal((await get("/app", `Bearer ${jwt}`)).statusCode, 200);
    t.clock.advance(5 * 60_000);
    assert.equal((await get("/app", `Bearer ${jwt}`)).statusCode, 200);
    t.clock.advance(6 * 60_000);
    await refusal(
      `Bearer ${jwt}`,
      "'Expiration time' claim ('exp') must be a numeric value representing the future time at which the assertion expires",
    );
  });
});
