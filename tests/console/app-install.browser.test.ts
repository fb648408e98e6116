/**
 * A GitHub App's install page in Chromium (playwright-core), on SQLite: a signed-out browser is sent to the sign-in and
 * back, chooses "Only select repositories", ticks one and installs; the installation is the app's. The page is checked
 * with axe-core and for CSP violations and console errors.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import type { Browser } from "playwright-core";
import { startListeningApp, type ListeningApp } from "../helpers/listening-app.js";
import { browserSkip, launchChromium, seriousViolations, watchViolations } from "../helpers/browser.js";
import { registerApp } from "../helpers/github-app.js";

const skip = process.env.FEEDGATE_TEST_STORE === "postgres" ? "browser tests run on SQLite" : browserSkip();

describe("console: installing a GitHub App in Chromium", { skip }, () => {
  let t: ListeningApp;
  let browser: Browser;

  before(async () => {
    t = await startListeningApp();
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  test("sign in, choose a repository, Install", async () => {
    const bot = await registerApp(t, { owner: "alice", name: "Browser Bot" });
    const context = await browser.newContext();
    const page = await context.newPage();
    const problems = await watchViolations(page);
    await page.goto(`${t.url}/console/apps/${bot.app.slug}/installations/new`);
    await page.getByRole("textbox", { name: "Username" }).fill("alice");
    await page.getByLabel("Password").fill("alice-password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("heading", { name: "Install Browser Bot" }).waitFor();
    assert.deepEqual(await seriousViolations(page), [], "axe-core");
    await page.getByRole("radio", { name: "alice" }).check();
    await page.getByRole("radio", { name: "Only select repositories" }).check();
    await page.getByRole("checkbox", { name: "alice/hello" }).check();
    await page.getByRole("button", { name: "Install" }).click();
    await page.getByRole("heading", { name: "Browser Bot is installed on alice" }).waitFor();
    assert.deepEqual(problems, [], "CSP violations or console errors");
    const [installation] = await t.store.apps.installations(bot.app.id);
    assert.deepEqual([installation?.repositorySelection, installation?.repositoryIds.length], ["selected", 1]);
    await context.close();
  });
});
