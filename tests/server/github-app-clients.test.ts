/**
 * The GitHub App and OAuth clients of issue 44 against a listening app on the test's driver (both in `npm test`: the
 * test double's own tests run on SQLite only): an unmodified Probot 14 app (examples/testing/probot/app.mjs)
 * answering `issues.opened` with a comment through its installation token; `@octokit/oauth-app` as a GitHub App's
 * client (web flow, `createToken`, `refreshToken`); and as an OAuth app's (check, reset, delete), with
 * `@octokit/auth-oauth-device` through the device flow.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createNodeMiddleware, Probot } from "probot";
import { OAuthApp } from "@octokit/oauth-app";
import { createOAuthDeviceAuth } from "@octokit/auth-oauth-device";
import { Octokit } from "@octokit/core";
import { request } from "@octokit/request";
import { startListeningApp, type ListeningApp } from "../helpers/listening-app.js";
import { TestClock } from "../helpers/test-app.js";
import { registerApp } from "../helpers/github-app.js";
import { ALICE_TOKEN } from "../helpers/client-world.js";
import { oauthHelpers, type OAuthHelpers } from "../../src/testing/oauth.js";
import { eventually } from "../helpers/wait.js";
import { pathToFileURL } from "node:url";
import type { ApplicationFunction } from "probot";
import { inRepository } from "../helpers/repository.js";

/** The example's Probot app, as its own test imports it (from the repository, whichever tree this test runs from). */
const { default: greeter } = (await import(pathToFileURL(inRepository("examples/testing/probot/app.mjs")).href)) as {
  default: ApplicationFunction;
};

const CALLBACK = "http://127.0.0.1:9/callback";
/** See tests/compat/octokit-oauth.test.ts: the packages bundle other majors of the same clients. */
const octokitAt = (baseUrl: string) => Octokit.defaults({ baseUrl }) as never;

describe("Probot, @octokit/oauth-app and @octokit/auth-oauth-device on the test's driver", () => {
  let t: ListeningApp;
  let oauth: OAuthHelpers;
  let probotServer: Server;

  before(async () => {
    // By the wall clock: Probot and Octokit sign their JWTs by the machine's time.
    t = await startListeningApp({}, new TestClock(new Date(), true));
    oauth = oauthHelpers(t.store, t.clock.now);
  });
  after(async () => {
    probotServer?.close();
    await t.close();
  });

  test("an unmodified Probot app answers issues.opened with a comment, as its bot", async () => {
    let middleware: Parameters<typeof createServer>[1] | undefined;
    probotServer = createServer((req, res) => middleware!(req, res));
    probotServer.listen(0, "127.0.0.1");
    await once(probotServer, "listening");
    const bot = await registerApp(t, {
      owner: "alice",
      name: "Greeter",
      permissions: { issues: "write" },
      events: ["issues"],
      webhookUrl: `http://127.0.0.1:${(probotServer.address() as AddressInfo).port}/api/github/webhooks`,
    });
    // The secret set as an app sets it, through its hook's config: sealed by the server.
    const secret = "probot-on-the-driver";
    const configured = await fetch(`${t.url}/app/hook/config`, {
      method: "PATCH",
      headers: { authorization: `Bearer ${await bot.jwt()}`, "content-type": "application/json" },
      body: JSON.stringify({ secret }),
    });
    assert.equal(configured.status, 200, await configured.clone().text());
    await bot.install("alice", ["hello"]);
    const probot = new Probot({ appId: bot.app.id, privateKey: bot.pem, secret, baseUrl: t.url, logLevel: "warn" });
    middleware = (await createNodeMiddleware(greeter, { probot })) as never;

    const opened = await fetch(`${t.url}/repos/alice/hello/issues`, {
      method: "POST",
      headers: { authorization: `token ${ALICE_TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({ title: "Hello from the driver" }),
    });
    assert.equal(opened.status, 201);
    const { number } = (await opened.json()) as { number: number };
    const comments = await eventually(
      async () =>
        (await (await fetch(`${t.url}/repos/alice/hello/issues/${number}/comments`)).json()) as {
          body: string;
          user: { login: string; type: string };
        }[],
      (list) => list.length > 0,
      { ms: 15_000 },
    );
    assert.equal(comments[0]!.body, "Thanks for opening this issue, @alice!");
    assert.deepEqual([comments[0]!.user.login, comments[0]!.user.type], ["greeter[bot]", "Bot"]);
  });

  test("a GitHub App's user token: web flow, createToken, refreshToken; the old pair stops working", async () => {
    const bot = await registerApp(t, {
      owner: "alice",
      name: "Sign-in on the driver",
      callbackUrls: [CALLBACK],
      clientSecret: "driver-client-secret",
    });
    await bot.install("alice", ["hello"]);
    const client = new OAuthApp({
      clientType: "github-app",
      clientId: bot.app.clientId,
      clientSecret: "driver-client-secret",
      Octokit: octokitAt(t.url),
    });
    const { url } = client.getWebFlowAuthorizationUrl({ state: "on-the-driver" });
    const code = new URL(await oauth.authorize(url, "alice")).searchParams.get("code")!;
    const { authentication: first } = await client.createToken({ code });
    assert.match(first.token, /^ghu_/);
    assert.match(first.refreshToken!, /^ghr_/);
    const { authentication: renewed } = await client.refreshToken({ refreshToken: first.refreshToken! });
    const user = (token: string) => new Octokit({ baseUrl: t.url, auth: token }).request("GET /user");
    assert.equal((await user(renewed.token)).data.login, "alice");
    await assert.rejects(user(first.token), { status: 401 });
    await assert.rejects(client.refreshToken({ refreshToken: first.refreshToken! }), /bad_refresh_token/);
  });

  test("an OAuth app: check, reset and delete its token; the device flow with @octokit/auth-oauth-device", async () => {
    const registered = await oauth.oauthApp({ callbackUrl: CALLBACK, deviceFlow: true, name: "Driver app" });
    const app = new OAuthApp({
      clientId: registered.clientId,
      clientSecret: registered.clientSecret,
      Octokit: octokitAt(t.url),
    });
    const auth = createOAuthDeviceAuth({
      clientType: "oauth-app",
      clientId: registered.clientId,
      scopes: ["repo"],
      request: request.defaults({ baseUrl: t.url }) as never,
      onVerification: async (verification) => oauth.approveDevice(verification.user_code, "alice"),
    });
    const { token } = await auth({ type: "oauth" });
    assert.match(token, /^gho_/);
    assert.equal((await app.checkToken({ token })).data.app.client_id, registered.clientId);
    const reset = await app.resetToken({ token });
    await assert.rejects(app.checkToken({ token }), { status: 404 });
    await app.deleteToken({ token: reset.authentication.token });
    await assert.rejects(app.checkToken({ token: reset.authentication.token }), { status: 404 });
  });
});
