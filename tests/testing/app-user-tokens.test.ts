/**
 * A GitHub App's user tokens (spec section 8), through Octokit's own clients against the double over a real socket:
 * `@octokit/oauth-app` as a GitHub App's client (its web flow, the consent by `fg.authorize`, the code exchange, then
 * `refreshToken`) and `@octokit/auth-oauth-device` with the app's client id. A `ghu_` token acts as its user, within
 * what the app's installations reach with their permissions; it lives eight hours by the double's clock; its `ghr_`
 * refresh token renews it once, and the old pair stops working.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { OAuthApp } from "@octokit/oauth-app";
import { createOAuthDeviceAuth } from "@octokit/auth-oauth-device";
import { Octokit } from "@octokit/core";
import { request } from "@octokit/request";
import { startFeedgate, type Feedgate, type TestApp } from "../../src/testing/index.js";
import { WORLD } from "../helpers/client-world.js";

const CALLBACK = "http://127.0.0.1:9000/callback";
/** See tests/compat/octokit-oauth.test.ts: the packages bundle other majors of the same clients. */
const octokitAt = (baseUrl: string) => Octokit.defaults({ baseUrl }) as never;

describe("GitHub App user tokens: ghu_ with a ghr_ refresh token", () => {
  let fg: Feedgate;
  let bot: TestApp;
  let client: OAuthApp<{ clientType: "github-app" }>;

  before(async () => {
    fg = await startFeedgate({ world: WORLD, now: "2026-12-01T00:00:00Z" });
    bot = await fg.githubApp({
      name: "Sign-in Bot",
      owner: "alice",
      permissions: { issues: "write" },
      events: [],
      callbackUrl: CALLBACK,
      deviceFlow: true,
    });
    await bot.install("alice", ["hello"]);
    client = new OAuthApp({
      clientType: "github-app",
      clientId: bot.clientId,
      clientSecret: bot.clientSecret,
      Octokit: octokitAt(fg.url),
    });
  });
  after(() => fg.close());

  /** A user token for alice through the web flow, as a GitHub App's "Sign in with GitHub" gets it. */
  async function signIn() {
    const { url } = client.getWebFlowAuthorizationUrl({ state: "app-state" });
    const back = new URL(await fg.authorize(url, "alice"));
    assert.equal(back.searchParams.get("state"), "app-state");
    return (await client.createToken({ code: back.searchParams.get("code")! })).authentication;
  }

  const as = (token: string) => new Octokit({ baseUrl: fg.url, auth: token });

  test("the web flow gives a ghu_ token for eight hours and a ghr_ refresh token, no scopes", async () => {
    const authentication = await signIn();
    assert.match(authentication.token, /^ghu_[0-9A-Za-z]{36}$/);
    assert.match(authentication.refreshToken!, /^ghr_[0-9A-Za-z]{36}$/);
    // Octokit dates them from `expires_in` and the answer's Date header: the double's clock.
    assert.equal(authentication.expiresAt, "2026-12-01T08:00:00.000Z");
    assert.equal(authentication.refreshTokenExpiresAt, "2027-06-02T00:00:00.000Z");
    const user = await as(authentication.token).request("GET /user");
    assert.equal(user.data.login, "alice");
    assert.equal(user.headers["x-oauth-scopes"], "", "gh reads an empty X-OAuth-Scopes as an integration's token");
    assert.equal(user.headers["github-authentication-token-expiration"], "2026-12-01 08:00:00 UTC");
  });

  test("it acts as the user where the app is installed, and nowhere else", async () => {
    const { token } = await signIn();
    const opened = await as(token).request("POST /repos/{owner}/{repo}/issues", {
      owner: "alice",
      repo: "hello",
      title: "Opened by alice through the app",
    });
    assert.equal(opened.data.user?.login, "alice", "a user token's writes are the user's, not the bot's");
    // alice may open issues on bob's public repository herself, but the app is not installed there.
    await assert.rejects(
      as(token).request("POST /repos/{owner}/{repo}/issues", { owner: "bob", repo: "tools", title: "no" }),
      (error: { status: number; response: { data: { message: string } } }) =>
        error.status === 403 && error.response.data.message === "Resource not accessible by integration",
    );
    // Her private repository is outside the installation's selection: not there, to this token.
    await assert.rejects(as(token).request("GET /repos/{owner}/{repo}", { owner: "alice", repo: "secret" }), {
      status: 404,
    });
  });

  test("GET /user/installations and their repositories: what the app is installed on that the user reaches", async () => {
    const { token } = await signIn();
    const listed = await as(token).request("GET /user/installations");
    assert.equal(listed.data.total_count, 1);
    const [installation] = listed.data.installations;
    assert.deepEqual([installation?.app_id, (installation?.account as { login?: string })?.login], [bot.id, "alice"]);
    const repos = await as(token).request("GET /user/installations/{installation_id}/repositories", {
      installation_id: installation!.id,
    });
    assert.deepEqual(
      [repos.data.total_count, repos.data.repository_selection, repos.data.repositories.map((r) => r.full_name)],
      [1, "selected", ["alice/hello"]],
    );
    // Another app's installation is not there to this token; a personal token is not an app's at all.
    const other = await fg.githubApp({ owner: "alice", permissions: {}, events: [] });
    const { id } = await other.install("alice");
    await assert.rejects(
      as(token).request("GET /user/installations/{installation_id}/repositories", { installation_id: id }),
      { status: 404 },
    );
    await assert.rejects(
      as(await fg.token("alice")).request("GET /user/installations"),
      (error: { status: number; response: { data: { message: string } } }) =>
        error.status === 403 &&
        error.response.data.message ===
          "You must authenticate with an access token authorized to a GitHub App in order to list installations",
    );
  });

  test("refreshToken renews the pair once; the old token and the old refresh token stop working", async () => {
    const first = await signIn();
    fg.clock.advance("1h");
    const { authentication: renewed } = await client.refreshToken({ refreshToken: first.refreshToken! });
    assert.match(renewed.token, /^ghu_/);
    assert.notEqual(renewed.refreshToken, first.refreshToken);
    const user = await as(renewed.token).request("GET /user");
    assert.equal(user.data.login, "alice");
    assert.equal(user.headers["github-authentication-token-expiration"], "2026-12-01 09:00:00 UTC");
    await assert.rejects(as(first.token).request("GET /user"), { status: 401 });
    await assert.rejects(client.refreshToken({ refreshToken: first.refreshToken! }), /bad_refresh_token/);
  });

  test("a user token expires after eight hours by the clock; its refresh token still renews it", async () => {
    fg.clock.set(new Date("2026-12-02T00:00:00Z"));
    const { token, refreshToken } = await signIn();
    fg.clock.advance("8h");
    await assert.rejects(as(token).request("GET /user"), { status: 401 });
    const { authentication } = await client.refreshToken({ refreshToken: refreshToken! });
    assert.equal((await as(authentication.token).request("GET /user")).data.login, "alice");
  });

  test("refusals: a wrong secret, another app's refresh token, an unknown one; nothing is renewed", async () => {
    const { token, refreshToken } = await signIn();
    const post = async (fields: Record<string, string>) =>
      (await fetch(`${fg.url}/login/oauth/access_token`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify({ grant_type: "refresh_token", ...fields }),
      }).then((res) => res.json())) as { error?: string };
    const other = await fg.githubApp({ owner: "alice", permissions: {}, events: [], callbackUrl: CALLBACK });
    assert.equal(
      (await post({ client_id: bot.clientId, client_secret: "0".repeat(40), refresh_token: refreshToken! })).error,
      "incorrect_client_credentials",
    );
    assert.equal(
      (await post({ client_id: other.clientId, client_secret: other.clientSecret, refresh_token: refreshToken! }))
        .error,
      "bad_refresh_token",
    );
    assert.equal(
      (await post({ client_id: bot.clientId, client_secret: bot.clientSecret, refresh_token: `ghr_${"0".repeat(36)}` }))
        .error,
      "bad_refresh_token",
    );
    // Without the secret: only a token of the device flow renews so.
    assert.equal(
      (await post({ client_id: bot.clientId, refresh_token: refreshToken! })).error,
      "incorrect_client_credentials",
    );
    assert.equal((await as(token).request("GET /user")).data.login, "alice", "the token still works");
  });

  test("the device flow with the app's client id; its refresh token renews without the client secret", async () => {
    const auth = createOAuthDeviceAuth({
      clientType: "github-app",
      clientId: bot.clientId,
      request: request.defaults({ baseUrl: fg.url }) as never,
      onVerification: async (verification) => {
        await fg.approveDevice(verification.user_code, "alice");
      },
    });
    const authentication = await auth({ type: "oauth" });
    assert.match(authentication.token, /^ghu_/);
    assert.ok("refreshToken" in authentication && authentication.refreshToken?.startsWith("ghr_"));
    const renewed = (await fetch(`${fg.url}/login/oauth/access_token`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({
        grant_type: "refresh_token",
        client_id: bot.clientId,
        refresh_token: authentication.refreshToken,
      }),
    }).then((res) => res.json())) as { access_token: string; refresh_token: string };
    assert.match(renewed.access_token, /^ghu_/);
    assert.equal((await as(renewed.access_token).request("GET /user")).data.login, "alice");
  });

  test("the app deleting a user's grant revokes their tokens and sends github_app_authorization revoked", async () => {
    const receiver = await fg.receiver();
    const hooked = await fg.githubApp({
      name: "Revoked Bot",
      owner: "alice",
      permissions: {},
      events: [],
      callbackUrl: CALLBACK,
      webhookUrl: receiver.url,
    });
    const app = new OAuthApp({
      clientType: "github-app",
      clientId: hooked.clientId,
      clientSecret: hooked.clientSecret,
      Octokit: octokitAt(fg.url),
    });
    const { url } = app.getWebFlowAuthorizationUrl({});
    const code = new URL(await fg.authorize(url, "alice")).searchParams.get("code")!;
    const { authentication } = await app.createToken({ code });
    await app.deleteAuthorization({ token: authentication.token });
    await assert.rejects(as(authentication.token).request("GET /user"), { status: 401 });
    const revoked = await receiver.next({ event: "github_app_authorization" });
    assert.equal(revoked.action, "revoked");
    assert.equal((revoked.body as { sender: { login: string } }).sender.login, "alice");
    assert.equal(revoked.headers["x-github-hook-installation-target-id"], String(hooked.id));
  });

  test("an OAuth app's tokens are not renewable: gho_ without a refresh token", async () => {
    const oauth = await fg.oauthApp({ callbackUrl: CALLBACK });
    const app = new OAuthApp({
      clientId: oauth.clientId,
      clientSecret: oauth.clientSecret,
      Octokit: octokitAt(fg.url),
    });
    const { url } = app.getWebFlowAuthorizationUrl({});
    const code = new URL(await fg.authorize(url, "alice")).searchParams.get("code")!;
    const { authentication } = await app.createToken({ code });
    assert.match(authentication.token, /^gho_/);
    assert.equal("refreshToken" in authentication, false);
  });
});
