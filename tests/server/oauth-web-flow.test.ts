/**
 * The OAuth web application flow, over the real app on the test's driver: `/login/oauth/authorize` sends a
 * signed-out person to the console's sign-in and back, the consent page answers "Authorize" with a code and the
 * state, or "Cancel" with `access_denied`; `/login/oauth/access_token` exchanges a code once, within 10 minutes, for a
 * `gho_` token of the app (form, JSON or XML by Accept), and refuses everything else with GitHub's HTTP 200 errors.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { startTestApp, basic, type TestApp } from "../helpers/test-app.js";
import { ALICE, WORLD } from "../helpers/client-world.js";
import { IngestService } from "../../src/server/services/ingest.js";
import { csrfOf, FORM, form, sessionOf } from "../helpers/console-forms.js";
import { oauthHelpers, type TestOAuthApp } from "../../src/testing/oauth.js";
import { assertSchema } from "../compat/schemas.js";

const CALLBACK = "http://127.0.0.1:9000/callback";

describe("OAuth web flow", () => {
  let t: TestApp;
  let app: TestOAuthApp;
  let session: string;
  const cookie = () => ({ cookie: `feedgate_session=${session}` });
  const authorizeUrl = (query: Record<string, string>) =>
    `/login/oauth/authorize?${new URLSearchParams({ client_id: app.clientId, ...query })}`;
  /** Consents in the console as alice: the redirect the "Authorize" (or "Cancel") button answers with. */
  const consent = async (query: Record<string, string>, decision = "authorize") => {
    const page = await t.app.inject({ method: "GET", url: `/console${authorizeUrl(query)}`, headers: cookie() });
    assert.equal(page.statusCode, 200, page.body);
    const fields = Object.fromEntries(
      [...page.body.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [m[1]!, m[2]!]),
    );
    const res = await t.app.inject({
      method: "POST",
      url: "/console/login/oauth/authorize",
      headers: { ...FORM, ...cookie() },
      payload: form({ ...fields, decision }),
    });
    assert.equal(res.statusCode, 303, res.body);
    return new URL(String(res.headers.location));
  };
  const exchange = (fields: Record<string, string>, accept = "application/json") =>
    t.app.inject({
      method: "POST",
      url: "/login/oauth/access_token",
      headers: { accept },
      payload: { client_id: app.clientId, client_secret: app.clientSecret, ...fields },
    });

  before(async () => {
    t = await startTestApp();
    await new IngestService(t.store, t.clock.now).seedWorld(WORLD, { baseDir: undefined });
    app = await oauthHelpers(t.store, t.clock.now).oauthApp({ callbackUrl: CALLBACK, name: "Web Sign-in" });
    const signIn = await t.app.inject({ method: "POST", url: "/console/sign-in", headers: FORM, payload: form(ALICE) });
    session = sessionOf(signIn)!;
  });
  after(() => t.close());

  test("a signed-out visitor signs in and comes back to the consent page", async () => {
    const start = await t.app.inject({ method: "GET", url: authorizeUrl({ scope: "repo", state: "s1" }) });
    assert.equal(start.statusCode, 302);
    const consentUrl = String(start.headers.location);
    assert.match(consentUrl, /^\/console\/login\/oauth\/authorize\?client_id=/);
    const anonymous = await t.app.inject({ method: "GET", url: consentUrl });
    assert.equal(anonymous.statusCode, 303);
    const signInUrl = String(anonymous.headers.location);
    assert.equal(new URL(signInUrl, "http://x").searchParams.get("return_to"), consentUrl);
    const signInPage = await t.app.inject({ method: "GET", url: signInUrl });
    assert.match(signInPage.body, /name="return_to"/);
    const signedIn = await t.app.inject({
      method: "POST",
      url: "/console/sign-in",
      headers: FORM,
      payload: form({ ...ALICE, return_to: consentUrl }),
    });
    assert.equal(signedIn.statusCode, 303);
    assert.equal(signedIn.headers.location, consentUrl);
    const page = await t.app.inject({
      method: "GET",
      url: consentUrl,
      headers: { cookie: `feedgate_session=${sessionOf(signedIn)}` },
    });
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /<h1>Authorize Web Sign-in<\/h1>/);
    assert.match(page.body, /<code>repo<\/code>/);
    assert.match(page.body, /Cancel<\/button>/);
    assert.match(String(page.headers["content-security-policy"]), /form-action 'self' http:\/\/127\.0\.0\.1:9000/);
  });

  test("a return_to off the console goes to the console's front page", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/console/sign-in",
      headers: FORM,
      payload: form({ ...ALICE, return_to: "//evil.example/" }),
    });
    assert.equal(res.headers.location, "/console/");
  });

  test("Authorize redirects with code and state; the code is a gho_ token of the app, once", async () => {
    const back = await consent({ scope: "repo,gist", state: "xyz" });
    assert.equal(back.origin + back.pathname, CALLBACK);
    assert.equal(back.searchParams.get("state"), "xyz");
    const code = back.searchParams.get("code")!;
    assert.match(code, /^[0-9a-f]{20}$/);
    assert.equal(
      (await t.store.oauthApps.takeCode(code)) ?? null,
      null,
      "the stored code is its hash, not the code itself",
    );
  });

  test("the exchange answers JSON, form or XML by Accept, and GET /authorizations shows the app", async () => {
    const json = await exchange({ code: (await consent({ scope: "repo gist" })).searchParams.get("code")! });
    assert.equal(json.statusCode, 200);
    assert.match(String(json.headers["content-type"]), /^application\/json/);
    const body = json.json() as { access_token: string; scope: string; token_type: string };
    assert.match(body.access_token, /^gho_[0-9A-Za-z]{36}$/);
    assert.equal(body.scope, "repo,gist");
    assert.equal(body.token_type, "bearer");
    const user = await t.app.inject({
      method: "GET",
      url: "/user",
      headers: { authorization: `token ${body.access_token}` },
    });
    assert.equal(user.statusCode, 200);
    assert.equal(user.headers["x-oauth-scopes"], "repo, gist");

    const formAnswer = await exchange({ code: (await consent({})).searchParams.get("code")! }, "");
    assert.match(String(formAnswer.headers["content-type"]), /^application\/x-www-form-urlencoded/);
    assert.match(formAnswer.body, /^access_token=gho_[0-9A-Za-z]{36}&token_type=bearer&scope=$/);

    const xml = await exchange({ code: (await consent({})).searchParams.get("code")! }, "application/xml");
    assert.match(
      xml.body,
      /^<OAuth><access_token>gho_[0-9A-Za-z]{36}<\/access_token><token_type>bearer<\/token_type><scope><\/scope><\/OAuth>$/,
    );

    const list = await t.app.inject({
      method: "GET",
      url: "/authorizations",
      headers: { authorization: basic(ALICE.login, ALICE.password) },
    });
    const granted = (list.json() as { app: { client_id: string; name: string; url: string } }[]).filter(
      (a) => a.app.client_id === app.clientId,
    );
    assert.equal(granted.length, 3);
    assert.deepEqual(granted[0]!.app, { client_id: app.clientId, name: "Web Sign-in", url: CALLBACK });
    for (const authorization of granted) assertSchema("authorization", authorization);
  });

  test("a code is exchanged once; a wrong secret, code or redirect_uri is GitHub's HTTP 200 error", async () => {
    const code = (await consent({ redirect_uri: `${CALLBACK}/sub` })).searchParams.get("code")!;
    const wrongSecret = await exchange({ code, client_secret: "0".repeat(40) });
    assert.equal(wrongSecret.statusCode, 200);
    assert.equal((wrongSecret.json() as { error: string }).error, "incorrect_client_credentials");
    const mismatch = await exchange({ code, redirect_uri: "http://127.0.0.1:9000/elsewhere" });
    assert.deepEqual(mismatch.json(), {
      error: "redirect_uri_mismatch",
      error_description: "The redirect_uri MUST match the registered callback URL for this application.",
      error_uri:
        "https://docs.github.com/apps/managing-oauth-apps/troubleshooting-oauth-app-access-token-request-errors",
    });
    const reused = await exchange({ code, redirect_uri: `${CALLBACK}/sub` });
    assert.equal((reused.json() as { error: string }).error, "bad_verification_code", "the code was spent");
    const unknown = await exchange({ code: "f".repeat(20) });
    assert.equal(
      (unknown.json() as { error_description: string }).error_description,
      "The code passed is incorrect or expired.",
    );
  });

  test("a code expires after 10 minutes, by the app's clock", async () => {
    const code = (await consent({})).searchParams.get("code")!;
    t.clock.advance(10 * 60 * 1000);
    assert.equal(((await exchange({ code })).json() as { error: string }).error, "bad_verification_code");
  });

  test("PKCE: S256 only, and the verifier must match the challenge", async () => {
    const verifier = "v".repeat(50);
    const challenge = createHash("sha256").update(verifier).digest("base64url");
    const plain = await t.app.inject({
      method: "GET",
      url: authorizeUrl({ code_challenge: challenge, code_challenge_method: "plain", state: "p" }).replace(
        "/login",
        "/console/login",
      ),
      headers: cookie(),
    });
    assert.equal(plain.statusCode, 302);
    assert.equal(new URL(String(plain.headers.location)).searchParams.get("error"), "invalid_request");
    const code = (await consent({ code_challenge: challenge, code_challenge_method: "S256" })).searchParams.get(
      "code",
    )!;
    assert.equal(
      ((await exchange({ code, code_verifier: "w".repeat(50) })).json() as { error: string }).error,
      "bad_verification_code",
    );
    const again = (await consent({ code_challenge: challenge })).searchParams.get("code")!;
    const ok = await exchange({ code: again, code_verifier: verifier });
    assert.match((ok.json() as { access_token: string }).access_token, /^gho_/);
  });

  test("a redirect_uri outside GitHub's rules redirects to the callback with redirect_uri_mismatch", async () => {
    for (const uri of [
      "http://127.0.0.1:9000/other",
      "https://127.0.0.1:9000/callback",
      "http://example.com/callback",
    ]) {
      const res = await t.app.inject({
        method: "GET",
        url: `/console${authorizeUrl({ redirect_uri: uri, state: "m" })}`,
        headers: cookie(),
      });
      assert.equal(res.statusCode, 302, uri);
      const back = new URL(String(res.headers.location));
      assert.equal(back.origin + back.pathname, CALLBACK);
      assert.equal(back.searchParams.get("error"), "redirect_uri_mismatch");
      assert.equal(back.searchParams.get("state"), "m");
    }
    const loopbackPort = await t.app.inject({
      method: "GET",
      url: `/console${authorizeUrl({ redirect_uri: "http://127.0.0.1:4321/callback/deeper" })}`,
      headers: cookie(),
    });
    assert.equal(loopbackPort.statusCode, 200, "a loopback callback takes any port and a path below its own");
  });

  test("Cancel redirects with access_denied and makes no token; an unknown client_id is 404", async () => {
    const before = (await t.store.authorizations.listAll()).length;
    const back = await consent({ state: "c" }, "cancel");
    assert.equal(back.searchParams.get("error"), "access_denied");
    assert.equal(back.searchParams.get("error_description"), "The user has denied your application access.");
    assert.equal(back.searchParams.get("state"), "c");
    assert.equal((await t.store.authorizations.listAll()).length, before);
    const unknown = await t.app.inject({
      method: "GET",
      url: "/console/login/oauth/authorize?client_id=nope",
      headers: cookie(),
    });
    assert.equal(unknown.statusCode, 404);
  });

  test("the consent form needs the session's CSRF token", async () => {
    const page = await t.app.inject({ method: "GET", url: `/console${authorizeUrl({})}`, headers: cookie() });
    assert.ok(csrfOf(page.body));
    const forged = await t.app.inject({
      method: "POST",
      url: "/console/login/oauth/authorize",
      headers: { ...FORM, ...cookie() },
      payload: form({ client_id: app.clientId, decision: "authorize" }),
    });
    assert.equal(forged.statusCode, 403);
  });

  test("the console lists the authorized apps; Revoke ends every token of the app", async () => {
    const body = (await exchange({ code: (await consent({})).searchParams.get("code")! })).json() as {
      access_token: string;
    };
    const page = await t.app.inject({ method: "GET", url: "/console/applications", headers: cookie() });
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /<td>Web Sign-in<\/td>/);
    const revoked = await t.app.inject({
      method: "POST",
      url: "/console/applications/revoke",
      headers: { ...FORM, ...cookie() },
      payload: form({ csrf: csrfOf(page.body), client_id: app.clientId }),
    });
    assert.equal(revoked.statusCode, 303);
    const user = await t.app.inject({
      method: "GET",
      url: "/user",
      headers: { authorization: `token ${body.access_token}` },
    });
    assert.equal(user.statusCode, 401);
    const after = await t.app.inject({ method: "GET", url: "/console/applications", headers: cookie() });
    assert.match(after.body, /You have not authorized any OAuth app\./);
  });

  test("/login/... is served at the root only, never under /api/v3", async () => {
    const res = await t.app.inject({ method: "POST", url: "/api/v3/login/oauth/access_token", payload: {} });
    assert.equal(res.statusCode, 404);
  });
});
