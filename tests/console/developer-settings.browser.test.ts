/**
 * The console's Developer settings in Chromium (playwright-core), on SQLite: a person registers a GitHub App with
 * GitHub's form (permissions, events, webhook) and gets its private key once, which `@octokit/app` then signs with;
 * and an OAuth app with the device flow on, whose client id then starts a device flow. Each page is checked with
 * axe-core and for CSP violations and console errors.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import type { Browser, Page } from "playwright-core";
import { App } from "@octokit/app";
import { Octokit } from "@octokit/core";
import { startListeningApp, type ListeningApp } from "../helpers/listening-app.js";
import { browserSkip, launchChromium, seriousViolations, watchViolations } from "../helpers/browser.js";

const skip = process.env.FEEDGATE_TEST_STORE === "postgres" ? "browser tests run on SQLite" : browserSkip();

describe("console: Developer settings in Chromium", { skip }, () => {
  let t: ListeningApp;
  let browser: Browser;
  let page: Page;
  let problems: string[];

  before(async () => {
    t = await startListeningApp();
    browser = await launchChromium();
    page = await (await browser.newContext()).newPage();
    problems = await watchViolations(page);
    await page.goto(`${t.url}/console/settings/developers`);
    await page.getByRole("textbox", { name: "Username" }).fill("alice");
    await page.getByLabel("Password").fill("alice-password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("heading", { name: "Developer settings" }).waitFor();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  test("New GitHub App: the form registers it, the private key shown once signs @octokit/app's JWTs", async () => {
    await page.getByRole("link", { name: "New GitHub App" }).click();
    await page.getByRole("heading", { name: "Register new GitHub App" }).waitFor();
    assert.deepEqual(await seriousViolations(page), [], "axe-core on the form");
    await page.getByLabel("GitHub App name").fill("Form Bot");
    await page.getByLabel("Homepage URL").fill("https://form-bot.example");
    await page.getByLabel("Webhook URL").fill("https://form-bot.example/hook");
    await page.getByLabel("Issues (repository)").selectOption("write");
    await page.getByRole("checkbox", { name: "issues" }).check();
    await page.getByRole("button", { name: "Create GitHub App" }).click();
    await page.getByRole("heading", { name: "Form Bot" }).waitFor();
    assert.deepEqual(await seriousViolations(page), [], "axe-core on the result");
    const pem = (await page.locator("pre.private-key").textContent()) ?? "";
    assert.match(pem, /^-----BEGIN RSA PRIVATE KEY-----/);
    const appId = Number(await page.locator("dt:text('App ID') + dd").textContent());
    const app = new App({ appId, privateKey: pem, Octokit: Octokit.defaults({ baseUrl: t.url }) });
    const { data } = await app.octokit.request("GET /app");
    assert.deepEqual(
      [data?.name, data?.permissions, data?.events],
      ["Form Bot", { issues: "write", metadata: "read" }, ["issues"]],
    );
    assert.deepEqual(problems, [], "CSP violations or console errors");
  });

  test("New OAuth App with the device flow: its client id starts a device flow; both are listed", async () => {
    await page.goto(`${t.url}/console/settings/developers`);
    await page.getByRole("link", { name: "New OAuth App" }).click();
    await page.getByLabel("Application name").fill("Form Sign-in");
    await page.getByLabel("Homepage URL").fill("https://sign-in.example");
    await page.getByLabel("Authorization callback URL").fill("https://sign-in.example/callback");
    await page.getByRole("checkbox", { name: "Enable Device Flow" }).check();
    await page.getByRole("button", { name: "Register application" }).click();
    await page.getByRole("heading", { name: "Form Sign-in" }).waitFor();
    assert.deepEqual(await seriousViolations(page), [], "axe-core");
    const clientId = (await page.locator("dt:text('Client ID') + dd").textContent()) ?? "";
    const started = await fetch(`${t.url}/login/device/code`, {
      method: "POST",
      headers: { accept: "application/json", "content-type": "application/json" },
      body: JSON.stringify({ client_id: clientId }),
    });
    assert.equal(started.status, 200, await started.clone().text());
    await page.getByRole("link", { name: "Developer settings" }).first().click();
    await page.getByRole("heading", { name: "Developer settings" }).waitFor();
    assert.match(await page.content(), /Form Bot[\s\S]*Form Sign-in/);
    assert.deepEqual(problems, [], "CSP violations or console errors");
  });
});
