/**
 * The web flow's consent in Chromium (playwright-core), on SQLite, with `@octokit/oauth-app` unmodified: the app's
 * authorize URL sends a signed-out browser to the sign-in, back to the consent page, and "Authorize" lands on the
 * app's callback (a listener in this test) with the code and state, which Octokit exchanges for a `gho_` token. The
 * consent page is checked with axe-core and for CSP violations (its form's redirect to the callback included).
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser } from "playwright-core";
import { Octokit } from "@octokit/core";
import { OAuthApp } from "@octokit/oauth-app";
import { startListeningApp, type ListeningApp } from "../helpers/listening-app.js";
import { browserSkip, launchChromium, seriousViolations, watchViolations } from "../helpers/browser.js";
import { oauthHelpers } from "../../src/testing/oauth.js";

const skip = process.env.FEEDGATE_TEST_STORE === "postgres" ? "browser tests run on SQLite" : browserSkip();

describe("console: an OAuth app's consent in Chromium", { skip }, () => {
  let t: ListeningApp;
  let browser: Browser;
  let callback: Server;
  let callbackUrl: string;

  before(async () => {
    t = await startListeningApp();
    callback = createServer((_request, response) => response.end("<!doctype html><title>back</title>")).listen(
      0,
      "127.0.0.1",
    );
    await new Promise((resolve) => callback.once("listening", resolve));
    callbackUrl = `http://127.0.0.1:${(callback.address() as AddressInfo).port}/callback`;
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
    callback?.close();
  });

  test("sign in, Authorize, and Octokit exchanges the code the callback got", async () => {
    const registered = await oauthHelpers(t.store, t.clock.now).oauthApp({ callbackUrl, name: "Browser app" });
    const app = new OAuthApp({
      clientId: registered.clientId,
      clientSecret: registered.clientSecret,
      Octokit: Octokit.defaults({ baseUrl: t.url }) as never,
    });
    const { url } = app.getWebFlowAuthorizationUrl({ state: "in-the-browser", scopes: ["repo"] });
    const context = await browser.newContext();
    const page = await context.newPage();
    const problems = await watchViolations(page);
    await page.goto(url);
    await page.getByRole("textbox", { name: "Username" }).fill("alice");
    await page.getByLabel("Password").fill("alice-password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("heading", { name: "Authorize Browser app" }).waitFor();
    assert.deepEqual(await seriousViolations(page), [], "axe-core");
    await Promise.all([
      page.waitForURL((at) => at.href.startsWith(callbackUrl)),
      page.getByRole("button", { name: "Authorize Browser app" }).click(),
    ]);
    const back = new URL(page.url());
    assert.equal(back.searchParams.get("state"), "in-the-browser");
    assert.deepEqual(problems, [], "CSP violations or console errors");
    const { authentication } = await app.createToken({ code: back.searchParams.get("code")! });
    assert.match(authentication.token, /^gho_/);
    await context.close();
  });
});
