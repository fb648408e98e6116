/**
 * Octokit's own OAuth clients, unmodified, against the test double over a real socket: `@octokit/oauth-app` through
 * the web flow (its authorize URL, the consent given by `fg.authorize`, its code exchange, then the token checked,
 * reset and deleted through its own methods), and `@octokit/auth-oauth-device` through the device flow with GitHub
 * CLI's client id, the code approved by `fg.approveDevice` as a person would on `/login/device`.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { OAuthApp } from "@octokit/oauth-app";
import { createOAuthDeviceAuth } from "@octokit/auth-oauth-device";
import { Octokit } from "@octokit/core";
import { request } from "@octokit/request";
import { startFeedgate, type Feedgate } from "../../src/testing/index.js";
import { WORLD } from "../helpers/client-world.js";

/**
 * The clients' Octokit and request pointed at the double. The repository's own @octokit/core and @octokit/request are
 * older majors than the ones these packages bundle: the same at runtime, but other types, hence the casts.
 */
const octokitAt = (baseUrl: string) => Octokit.defaults({ baseUrl }) as never;
const requestAt = (baseUrl: string) => request.defaults({ baseUrl }) as never;

describe("@octokit/oauth-app and @octokit/auth-oauth-device against feedgate", () => {
  let fg: Feedgate;

  before(async () => {
    fg = await startFeedgate({ world: WORLD });
  });
  after(() => fg.close());

  test("the web flow: authorize URL, consent, code exchange, then check, reset and delete", async () => {
    const registered = await fg.oauthApp({ callbackUrl: "http://127.0.0.1:9000/callback", name: "Octokit app" });
    const app = new OAuthApp({
      clientType: "oauth-app",
      clientId: registered.clientId,
      clientSecret: registered.clientSecret,
      Octokit: octokitAt(fg.url),
    });
    const { url } = app.getWebFlowAuthorizationUrl({ state: "octo-state", scopes: ["repo", "gist"] });
    assert.ok(url.startsWith(`${fg.url}/login/oauth/authorize?`), url);
    const back = new URL(await fg.authorize(url, "alice"));
    assert.equal(back.searchParams.get("state"), "octo-state");
    const { authentication } = await app.createToken({ code: back.searchParams.get("code")! });
    assert.match(authentication.token, /^gho_/);
    // GitHub answers `scope` comma-separated (spec 2); Octokit splits it on spaces, so against GitHub too it has one.
    assert.deepEqual(authentication.scopes, ["repo,gist"]);

    const checked = await app.checkToken({ token: authentication.token });
    assert.equal(checked.data.app.client_id, registered.clientId);
    const reset = await app.resetToken({ token: authentication.token });
    assert.notEqual(reset.authentication.token, authentication.token);
    await assert.rejects(app.checkToken({ token: authentication.token }), { status: 404 });
    await app.deleteToken({ token: reset.authentication.token });
    await assert.rejects(app.checkToken({ token: reset.authentication.token }), { status: 404 });
  });

  test("a wrong code is Octokit's RequestError with GitHub's bad_verification_code", async () => {
    const registered = await fg.oauthApp({ callbackUrl: "http://127.0.0.1:9000/callback" });
    const app = new OAuthApp({
      clientId: registered.clientId,
      clientSecret: registered.clientSecret,
      Octokit: octokitAt(fg.url),
    });
    await assert.rejects(app.createToken({ code: "0".repeat(20) }), /bad_verification_code/);
  });

  test("the device flow with GitHub CLI's client id", async () => {
    const auth = createOAuthDeviceAuth({
      clientType: "oauth-app",
      clientId: "178c6fc778ccc68e1d6a",
      scopes: ["repo", "read:org", "gist"],
      request: requestAt(fg.url),
      onVerification: async (verification) => {
        assert.equal(verification.verification_uri, `${fg.url}/login/device`);
        await fg.approveDevice(verification.user_code, "alice");
      },
    });
    const { token, scopes } = await auth({ type: "oauth" });
    assert.match(token, /^gho_/);
    assert.deepEqual(scopes, ["repo,read:org,gist"]);
    const user = await fg.fetch(`${fg.url}/user`, { headers: { authorization: `token ${token}` } });
    assert.equal(((await user.json()) as { login: string }).login, "alice");
  });
});
