/**
 * An OAuth app's token management over the real app on the test's driver, with Basic `client_id:client_secret`:
 * check (200 with the authorization and its app), reset (a new token, the old one dead), delete one token, delete the
 * grant (every token of the user for the app); another app's token, a wrong secret and a missing token change
 * nothing. Also GitHub's limit of ten tokens per user, app and scope set.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { startTestApp, basic, type TestApp } from "../helpers/test-app.js";
import { WORLD } from "../helpers/client-world.js";
import { IngestService } from "../../src/server/services/ingest.js";
import { oauthHelpers, type OAuthHelpers, type TestOAuthApp } from "../../src/testing/oauth.js";
import { assertSchema } from "../compat/schemas.js";

describe("OAuth app token management", () => {
  let t: TestApp;
  let helpers: OAuthHelpers;
  let app: TestOAuthApp;
  let other: TestOAuthApp;
  /** A token of `of` for alice through the web flow, as the double's consent gives it. */
  const tokenOf = async (of: TestOAuthApp, scope = "repo") => {
    const back = new URL(
      await helpers.authorize(`http://x/login/oauth/authorize?client_id=${of.clientId}&scope=${scope}`, "alice"),
    );
    const res = await t.app.inject({
      method: "POST",
      url: "/login/oauth/access_token",
      headers: { accept: "application/json" },
      payload: { client_id: of.clientId, client_secret: of.clientSecret, code: back.searchParams.get("code") },
    });
    return (res.json() as { access_token: string }).access_token;
  };
  const manage = (
    method: "POST" | "PATCH" | "DELETE",
    path: "token" | "grant",
    payload: object,
    as: TestOAuthApp = app,
    secret = as.clientSecret,
  ) =>
    t.app.inject({
      method,
      url: `/applications/${app.clientId}/${path}`,
      headers: { authorization: basic(as.clientId, secret) },
      payload,
    });
  const works = async (token: string) =>
    (await t.app.inject({ method: "GET", url: "/user", headers: { authorization: `token ${token}` } })).statusCode;

  before(async () => {
    t = await startTestApp();
    await new IngestService(t.store, t.clock.now).seedWorld(WORLD, { baseDir: undefined });
    helpers = oauthHelpers(t.store, t.clock.now);
    app = await helpers.oauthApp({ callbackUrl: "http://127.0.0.1:9000/cb", name: "Tokens" });
    other = await helpers.oauthApp({ callbackUrl: "http://127.0.0.1:9001/cb", name: "Other" });
  });
  after(() => t.close());

  test("check answers the authorization with its app and the token", async () => {
    const token = await tokenOf(app);
    const res = await manage("POST", "token", { access_token: token });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json() as { token: string; scopes: string[]; app: object };
    assertSchema("authorization", body);
    assert.equal(body.token, token);
    assert.deepEqual(body.scopes, ["repo"]);
    assert.deepEqual(body.app, { client_id: app.clientId, name: "Tokens", url: "http://127.0.0.1:9000/cb" });
  });

  test("a wrong secret, another app's token or none is 404; a missing access_token 422", async () => {
    const token = await tokenOf(app);
    assert.equal((await manage("POST", "token", { access_token: token }, app, "0".repeat(40))).statusCode, 404);
    assert.equal((await manage("POST", "token", { access_token: token }, other)).statusCode, 404);
    assert.equal((await manage("POST", "token", { access_token: await tokenOf(other) })).statusCode, 404);
    assert.equal((await manage("DELETE", "token", {})).statusCode, 422);
    assert.equal((await manage("POST", "token", {})).statusCode, 422);
    const anonymous = await t.app.inject({
      method: "POST",
      url: `/applications/${app.clientId}/token`,
      payload: { access_token: token },
    });
    assert.equal(anonymous.statusCode, 401);
    assert.equal(await works(token), 200, "nothing refused changed the token");
  });

  test("a token nobody holds is 401 Bad credentials before the body is read; a user's own token is 404", async () => {
    const send = (authorization: string, payload: string) =>
      t.app.inject({
        method: "PATCH",
        url: `/applications/${app.clientId}/token`,
        headers: { authorization, "content-type": "application/json" },
        payload,
      });
    for (const payload of ["{not json", '{"access_token": "x"}']) {
      const unknown = await send(`token ${"0".repeat(40)}`, payload);
      assert.equal(unknown.statusCode, 401, unknown.body);
      assert.equal(unknown.json().message, "Bad credentials");
    }
    const own = await send(`token ${await tokenOf(app)}`, '{"access_token": "x"}');
    assert.equal(own.statusCode, 404, own.body);
  });
  test("reset gives a new token for the same grant; the old one stops working", async () => {
    const token = await tokenOf(app);
    const res = await manage("PATCH", "token", { access_token: token });
    assert.equal(res.statusCode, 200, res.body);
    const fresh = (res.json() as { token: string }).token;
    assert.match(fresh, /^gho_/);
    assert.notEqual(fresh, token);
    assert.equal(await works(token), 401);
    assert.equal(await works(fresh), 200);
  });

  test("delete revokes one token; delete grant revokes every token of the user for the app", async () => {
    const one = await tokenOf(app);
    const two = await tokenOf(app, "gist");
    const elsewhere = await tokenOf(other);
    assert.equal((await manage("DELETE", "token", { access_token: one })).statusCode, 204);
    assert.equal(await works(one), 401);
    assert.equal(await works(two), 200);
    assert.equal((await manage("DELETE", "grant", { access_token: two })).statusCode, 204);
    assert.equal(await works(two), 401);
    assert.equal(
      (
        await t.store.oauthApps.tokensOf(
          (await t.store.oauthApps.findByClientId(app.clientId))!.id,
          (await t.store.users.findByLogin("alice"))!.id,
        )
      ).length,
      0,
    );
    assert.equal(await works(elsewhere), 200, "another app's grant stays");
  });

  test("a world file's oauth_apps keep their client id and secret; seeding again changes nothing", async () => {
    const world = {
      oauth_apps: [
        {
          client_id: "Ov23liAbCdEf0123456789",
          client_secret: "0123456789abcdef0123456789abcdef01234567",
          name: "Web Sign-in",
          owner: "alice",
          callback_url: "http://127.0.0.1:9000/callback",
          device_flow: true,
        },
      ],
    };
    const ingest = new IngestService(t.store, t.clock.now);
    await ingest.seedWorld(world, { baseDir: undefined });
    await ingest.seedWorld(world, { baseDir: undefined });
    const seeded = (await t.store.oauthApps.list()).filter((a) => a.clientId === "Ov23liAbCdEf0123456789");
    assert.equal(seeded.length, 1);
    assert.equal(seeded[0]!.deviceFlow, true);
    assert.notEqual(seeded[0]!.clientSecretHash, world.oauth_apps[0]!.client_secret, "the secret is kept hashed");
    const worldApp = {
      ...world.oauth_apps[0]!,
      clientId: world.oauth_apps[0]!.client_id,
      clientSecret: world.oauth_apps[0]!.client_secret,
      callbackUrl: world.oauth_apps[0]!.callback_url,
    };
    assert.match(await tokenOf(worldApp), /^gho_/);
    await assert.rejects(
      ingest.seedWorld({ oauth_apps: [{ name: "x" }] }, { baseDir: undefined }),
      /oauth_apps\[0\]\.callback_url: must be a non-empty string/,
    );
  });

  test("at most ten tokens per user, app and scope set: the oldest goes", async () => {
    const tokens: string[] = [];
    for (let i = 0; i < 11; i++) tokens.push(await tokenOf(other, "read:org"));
    assert.equal(await works(tokens[0]!), 401);
    assert.equal(await works(tokens[1]!), 200);
    assert.equal(await works(tokens[10]!), 200);
  });
});
