/**
 * The console's sessions, CSRF checks and headers through app.inject(): runs on SQLite and in the PostgreSQL matrix.
 * The browser tests (tests/console/) cover the same pages as a user sees them.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { basic, startTestApp, type TestApp } from "../helpers/test-app.js";
import { currentOtp, newOtpSecret } from "../../src/server/services/credentials.js";

import { csrfOf, form, FORM, sessionOf } from "../helpers/console-forms.js";

describe("console sessions", () => {
  let t: TestApp;
  let secret: string;
  before(async () => {
    t = await startTestApp({ loginMaxAttempts: 3 });
    await t.createUser("alice", "alice-password");
    await t.createUser("locky", "locky-password");
    secret = newOtpSecret();
    await t.createUser("tess", "tess-password", { otpSecret: secret });
  });
  after(() => t.close());

  const signIn = (login: string, password: string, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: "POST",
      url: "/console/sign-in",
      headers: { ...FORM, ...headers },
      payload: form({ login, password }),
    });
  const get = (url: string, session?: string) =>
    t.app.inject({ method: "GET", url, headers: session ? { cookie: `feedgate_session=${session}` } : {} });
  const post = (
    url: string,
    session: string,
    fields: Record<string, string | string[]>,
    headers: Record<string, string> = {},
  ) =>
    t.app.inject({
      method: "POST",
      url,
      headers: { ...FORM, cookie: `feedgate_session=${session}`, ...headers },
      payload: form(fields),
    });

  test("pages carry a strict CSP, no framing, a referrer policy and no caching", async () => {
    const res = await get("/console/sign-in");
    assert.equal(res.statusCode, 200);
    const csp = String(res.headers["content-security-policy"]);
    assert.match(csp, /default-src 'self'/);
    assert.match(csp, /script-src 'self'(;|$)/);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
    assert.equal(res.headers["x-frame-options"], "DENY");
    assert.equal(res.headers["referrer-policy"], "same-origin");
    assert.equal(res.headers["cache-control"], "no-store");
    assert.equal(res.headers["access-control-allow-origin"], undefined);
    assert.doesNotMatch(res.body, /<script>|<script [^>]*>[^<]/, "no inline script");
    const script = /<script type="module" src="([^"]+)"/.exec(res.body)![1]!;
    assert.match(script, /^\/console\/assets\/console\.[0-9a-f]{10}\.js$/);
    const asset = await get(script);
    assert.equal(asset.statusCode, 200);
    assert.match(String(asset.headers["cache-control"]), /max-age=31536000, immutable/);
    assert.equal((await get("/api/v3/console/sign-in")).statusCode, 404, "not part of the API layout");
  });

  test("a form posted with no body at all is an empty form: the sign-in page's refusal, not a 500", async () => {
    // Found by tests/server/hostile-input.test.ts: `POST /console/sign-in` with neither Content-Type nor body.
    const res = await t.app.inject({ method: "POST", url: "/console/sign-in" });
    assert.equal(res.statusCode, 401);
    assert.match(res.body, /Incorrect username or password\./);
    const signOut = await t.app.inject({ method: "POST", url: "/console/sign-out" });
    assert.ok(signOut.statusCode < 500, `sign-out without a body: ${signOut.statusCode}`);
  });

  test("a wrong password is refused with the page's words and counts toward the lockout Basic auth enforces", async () => {
    for (let i = 0; i < 3; i++) {
      const res = await signIn("locky", "wrong");
      assert.equal(res.statusCode, 401);
      assert.match(res.body, /Incorrect username or password\./);
      assert.equal(sessionOf(res), undefined);
    }
    const api = await t.app.inject({
      method: "GET",
      url: "/user",
      headers: { authorization: basic("locky", "locky-password") },
    });
    assert.equal(api.statusCode, 403, "the console's failures locked the account for the API too");
    assert.equal((await signIn("locky", "locky-password")).statusCode, 403);
  });

  test("signing in sets a session cookie stored only hashed; the API ignores it; sign-out ends it", async () => {
    const res = await signIn("alice", "alice-password");
    assert.equal(res.statusCode, 303);
    const cookie = [res.headers["set-cookie"]].flat().join("\n");
    assert.match(cookie, /feedgate_session=[A-Za-z0-9_-]{43}; Path=\/console; HttpOnly; SameSite=Strict/);
    assert.doesNotMatch(cookie, /Secure/, "plain HTTP here");
    const session = sessionOf(res)!;
    assert.equal(await t.store.sessions.find(session), null, "the id itself is not a key");
    assert.ok(await t.store.sessions.find(createHash("sha256").update(session).digest("hex")));

    const tokens = await get("/console/tokens", session);
    assert.equal(tokens.statusCode, 200);
    assert.match(tokens.body, /<h1>Tokens \(classic\)<\/h1>/);
    const api = await t.app.inject({ method: "GET", url: "/user", headers: { cookie: `feedgate_session=${session}` } });
    assert.equal(api.statusCode, 401, "the API does not read the console's cookie");

    const out = await post("/console/sign-out", session, { csrf: csrfOf(tokens.body) });
    assert.equal(out.statusCode, 303);
    assert.match([out.headers["set-cookie"]].flat().join("\n"), /feedgate_session=; .*Max-Age=0/);
    const after = await get("/console/tokens", session);
    assert.equal(after.statusCode, 303, "the session is dead server-side");
    assert.equal(after.headers.location, "/console/sign-in");
  });

  test("state-changing requests need the session's CSRF token and the console's origin", async () => {
    const session = sessionOf(await signIn("alice", "alice-password"))!;
    const csrf = csrfOf((await get("/console/tokens/new", session)).body);
    assert.ok(csrf.length > 20);
    const missing = await post("/console/tokens", session, { note: "x" });
    assert.equal(missing.statusCode, 403);
    const wrong = await post("/console/tokens", session, { note: "x", csrf: `${csrf.slice(0, -2)}AA` });
    assert.equal(wrong.statusCode, 403);
    const crossOrigin = await post("/console/tokens", session, { note: "x", csrf }, { origin: "https://evil.example" });
    assert.equal(crossOrigin.statusCode, 403);
    const crossSite = await post("/console/tokens", session, { note: "x", csrf }, { "sec-fetch-site": "cross-site" });
    assert.equal(crossSite.statusCode, 403);
    const loginCsrf = await signIn("alice", "alice-password", { origin: "https://evil.example" });
    assert.equal(loginCsrf.statusCode, 403, "no login CSRF either");
    assert.equal(
      (await t.store.authorizations.list((await t.store.users.findByLogin("alice"))!.id, { limit: 10, offset: 0 }))
        .total,
      0,
    );

    const ok = await post("/console/tokens", session, { note: "ci", scopes: ["repo", "gist"], csrf });
    assert.equal(ok.statusCode, 303);
    const shown = await t.app.inject({
      method: "GET",
      url: "/console/tokens",
      headers: { cookie: `feedgate_session=${session}; ${[ok.headers["set-cookie"]].flat()[0]!.split(";")[0]}` },
    });
    const token = /id="new-token">([0-9A-Za-z_]{30,})</.exec(shown.body)?.[1];
    assert.ok(token, "the new token is shown once");
    assert.ok(
      [shown.headers["set-cookie"]].flat().some((c) => /^feedgate_new_token=;.*Max-Age=0/.test(String(c))),
      "the page that shows it clears what carried it, so a reload cannot show it again",
    );
    const user = await t.app.inject({ method: "GET", url: "/user", headers: { authorization: `token ${token}` } });
    assert.equal(user.statusCode, 200);
    assert.doesNotMatch((await get("/console/tokens", session)).body, new RegExp(token!), "never again");
  });

  test("a two-factor account needs its code before the session grants anything", async () => {
    const first = await signIn("tess", "tess-password");
    assert.equal(first.statusCode, 303);
    assert.equal(first.headers.location, "/console/two-factor");
    const pending = sessionOf(first)!;
    assert.equal((await get("/console/tokens", pending)).statusCode, 303, "a pending session is not signed in");
    const step = await get("/console/two-factor", pending);
    assert.match(step.body, /Authentication code/);
    const bad = await post("/console/two-factor", pending, {
      otp: "000000" === currentOtp(secret, t.clock.now()) ? "111111" : "000000",
      csrf: csrfOf(step.body),
    });
    assert.equal(bad.statusCode, 401);
    const good = await post("/console/two-factor", pending, {
      otp: currentOtp(secret, t.clock.now()),
      csrf: csrfOf(step.body),
    });
    assert.equal(good.statusCode, 303);
    const verified = sessionOf(good)!;
    assert.notEqual(verified, pending, "a new id once verified");
    assert.equal((await get("/console/tokens", verified)).statusCode, 200);
    assert.equal((await get("/console/tokens", pending)).statusCode, 303, "the pending session is gone");
  });

  test("sessions expire when idle", async () => {
    const session = sessionOf(await signIn("alice", "alice-password"))!;
    t.clock.advance(9 * 3600 * 1000);
    assert.equal((await get("/console/tokens", session)).statusCode, 303);
  });

  test("the Tokens page pages through a user's tokens, 100 a page", async () => {
    const many = await t.createUser("manny", "manny-password");
    for (let i = 0; i < 101; i++) await t.createToken(many, [], `token ${i}`);
    const session = sessionOf(await signIn("manny", "manny-password"))!;
    const first = (await get("/console/tokens", session)).body;
    assert.equal([...first.matchAll(/>Revoke</g)].length, 100);
    assert.match(first, /Page 1 of 2/);
    assert.match(first, /href="\/console\/tokens\?page=2">Next page</);
    const second = (await get("/console/tokens?page=2", session)).body;
    assert.equal([...second.matchAll(/>Revoke</g)].length, 1, "the 101st is not lost");
    assert.match(second, /href="\/console\/tokens\?page=1">Previous page</);
  });
});
