/**
 * The OAuth device flow over the real app on the test's driver, as gh drives it (form bodies, no Accept) with GitHub
 * CLI's own client id, registered on every installation: `POST /login/device/code`, the console's `/login/device`
 * (sign in, enter the code, authorize), and polling with `authorization_pending`, `slow_down` (interval + 5 s,
 * returned), `expired_token` (900 s by the app's clock), `access_denied` and `device_flow_disabled`.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { startTestApp, type TestApp } from "../helpers/test-app.js";
import { ALICE, WORLD } from "../helpers/client-world.js";
import { IngestService } from "../../src/server/services/ingest.js";
import { csrfOf, FORM, form, sessionOf } from "../helpers/console-forms.js";
import { oauthHelpers } from "../../src/testing/oauth.js";
import { GITHUB_CLI_APP } from "../../src/server/services/oauth/oauth-apps.js";

const GRANT = "urn:ietf:params:oauth:grant-type:device_code";

describe("OAuth device flow", () => {
  let t: TestApp;
  let session: string;
  const post = (url: string, fields: Record<string, string>, accept?: string) =>
    t.app.inject({ method: "POST", url, headers: { ...FORM, ...(accept ? { accept } : {}) }, payload: form(fields) });
  /** A device code for gh's app, as gh asks for it. */
  const start = async (clientId: string = GITHUB_CLI_APP.clientId) => {
    const res = await post("/login/device/code", { client_id: clientId, scope: "repo read:org gist" });
    assert.equal(res.statusCode, 200, res.body);
    return Object.fromEntries(new URLSearchParams(res.body));
  };
  const poll = async (deviceCode: string, clientId: string = GITHUB_CLI_APP.clientId) =>
    Object.fromEntries(
      new URLSearchParams(
        (await post("/login/oauth/access_token", { client_id: clientId, device_code: deviceCode, grant_type: GRANT }))
          .body,
      ),
    );
  const console = (method: "GET" | "POST", url: string, fields?: Record<string, string>) =>
    t.app.inject({
      method,
      url,
      headers: { cookie: `feedgate_session=${session}`, ...(fields ? FORM : {}) },
      ...(fields ? { payload: form(fields) } : {}),
    });
  /** Enters the code on /login/device and answers the consent. */
  const enter = async (userCode: string, decision = "authorize") => {
    const page = await console("GET", "/console/login/device");
    const consent = await console("POST", "/console/login/device", {
      csrf: csrfOf(page.body),
      user_code: userCode.toLowerCase(),
    });
    assert.equal(consent.statusCode, 200, consent.body);
    assert.match(consent.body, /<h1>Authorize GitHub CLI<\/h1>/);
    return console("POST", "/console/login/device/authorize", {
      csrf: csrfOf(consent.body),
      user_code: userCode,
      decision,
    });
  };

  before(async () => {
    t = await startTestApp();
    await new IngestService(t.store, t.clock.now).seedWorld(WORLD, { baseDir: undefined });
    await t.app.ready();
    session = sessionOf(
      await t.app.inject({ method: "POST", url: "/console/sign-in", headers: FORM, payload: form(ALICE) }),
    )!;
  });
  after(() => t.close());

  test("gh's device code answer: a form by default, JSON by Accept, the verification URI on this host", async () => {
    const code = await start();
    assert.match(code.device_code!, /^[0-9a-f]{40}$/);
    assert.match(code.user_code!, /^[B-DF-HJ-NP-TV-XZ]{4}-[B-DF-HJ-NP-TV-XZ]{4}$/);
    assert.equal(code.verification_uri, "http://localhost:80/login/device");
    assert.equal(code.expires_in, "900");
    assert.equal(code.interval, "5");
    const json = await post("/login/device/code", { client_id: GITHUB_CLI_APP.clientId }, "application/json");
    assert.match(String(json.headers["content-type"]), /^application\/json/);
    assert.equal((json.json() as { interval: number }).interval, 5);
    const page = await t.app.inject({ method: "GET", url: "/login/device" });
    assert.equal(page.statusCode, 302);
    assert.equal(page.headers.location, "/console/login/device");
  });

  test("pending, slow_down with the longer interval, then the token once the user authorizes", async () => {
    const code = await start();
    assert.equal((await poll(code.device_code!)).error, "authorization_pending");
    const tooSoon = await poll(code.device_code!);
    assert.equal(tooSoon.error, "slow_down");
    assert.equal(tooSoon.interval, "10");
    t.clock.advance(10_000);
    assert.equal((await poll(code.device_code!)).error, "authorization_pending");
    const done = await enter(code.user_code!);
    assert.match(done.body, /Congratulations, you're all set!/);
    t.clock.advance(10_000);
    const granted = await poll(code.device_code!);
    assert.match(granted.access_token!, /^gho_[0-9A-Za-z]{36}$/);
    assert.equal(granted.scope, "repo,read:org,gist");
    assert.equal(granted.token_type, "bearer");
    const user = await t.app.inject({
      method: "GET",
      url: "/user",
      headers: { authorization: `token ${granted.access_token}` },
    });
    assert.equal((user.json() as { login: string }).login, "alice");
    assert.equal((await poll(code.device_code!)).error, "incorrect_device_code", "a device code gives one token");
  });

  test("a denied code is access_denied once, then unknown; nothing is granted", async () => {
    const before = (await t.store.authorizations.listAll()).length;
    const code = await start();
    const denied = await enter(code.user_code!, "cancel");
    assert.match(denied.body, /Access denied/);
    assert.equal((await poll(code.device_code!)).error, "access_denied");
    assert.equal((await poll(code.device_code!)).error, "incorrect_device_code");
    assert.equal((await t.store.authorizations.listAll()).length, before);
  });

  test("a code expires after 900 s by the app's clock, on the page and when polled", async () => {
    const code = await start();
    t.clock.advance(900_000);
    assert.equal((await poll(code.device_code!)).error, "expired_token");
    const page = await console("GET", "/console/login/device");
    const late = await console("POST", "/console/login/device", {
      csrf: csrfOf(page.body),
      user_code: code.user_code!,
    });
    assert.equal(late.statusCode, 422);
    assert.match(late.body, /Invalid or expired code/);
  });

  test("an app without the device flow answers device_flow_disabled with 400 (gh falls back to the web flow)", async () => {
    const app = await oauthHelpers(t.store, t.clock.now).oauthApp({ callbackUrl: "http://127.0.0.1:9000/cb" });
    const res = await post("/login/device/code", { client_id: app.clientId });
    assert.equal(res.statusCode, 400);
    assert.equal(new URLSearchParams(res.body).get("error"), "device_flow_disabled");
    const unknown = await post("/login/device/code", { client_id: "nobody" });
    assert.equal(new URLSearchParams(unknown.body).get("error"), "incorrect_client_credentials");
    const badGrant = await post("/login/oauth/access_token", {
      client_id: GITHUB_CLI_APP.clientId,
      grant_type: "password",
    });
    assert.equal(new URLSearchParams(badGrant.body).get("error"), "unsupported_grant_type");
  });

  test("the test double approves a device code without a browser", async () => {
    const code = await start();
    await oauthHelpers(t.store, t.clock.now).approveDevice(code.user_code!, "alice");
    t.clock.advance(10_000);
    assert.match((await poll(code.device_code!)).access_token!, /^gho_/);
  });

  test("device codes and codes sent in the query are masked in the request log", async () => {
    const { redactUrl } = await import("../../src/server/logging.js");
    const masked = redactUrl("/login/oauth/access_token?client_id=x&device_code=abc&code=def&code_verifier=ghi");
    assert.doesNotMatch(masked, /abc|def|ghi/);
    assert.match(masked, /client_id=x/);
  });

  test("the device page asks a signed-out visitor to sign in and come back", async () => {
    const res = await t.app.inject({ method: "GET", url: "/console/login/device" });
    assert.equal(res.statusCode, 303);
    assert.equal(res.headers.location, `/console/sign-in?return_to=${encodeURIComponent("/console/login/device")}`);
  });
});
