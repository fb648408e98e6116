/**
 * The console's Webhooks and Users pages in Chromium (playwright-core), on SQLite: a webhook added through the form
 * to a receiver listening in this test gets its ping, listed with its status; "Redeliver" sends it again; a stranger
 * gets the not-found page; a site administrator sees Users, another user does not. Every page is checked with axe-core
 * and for CSP violations. Screenshots go to docs/console-webhooks.png and docs/console-users.png.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { startListeningApp, type ListeningApp } from "../helpers/listening-app.js";
import { browserSkip, launchChromium, seriousViolations, watchViolations } from "../helpers/browser.js";
import { eventually, receiver, type Receiver } from "../helpers/webhook-receiver.js";

const skip = process.env.FEEDGATE_TEST_STORE === "postgres" ? "browser tests run on SQLite" : browserSkip();
const HOOKS = "/console/repos/alice/hello/hooks";

describe("console: webhooks and users in Chromium", { skip }, () => {
  let t: ListeningApp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let problems: string[];
  let hookReceiver: Receiver;
  let hookUrl: string;

  before(async () => {
    t = await startListeningApp();
    await t.createUser("root", "root-password", { siteAdmin: true });
    hookReceiver = receiver();
    hookUrl = await hookReceiver.listen();
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
    await hookReceiver?.close();
  });

  async function signedInPage(login: string, password: string) {
    await context?.close();
    context = await browser.newContext();
    page = await context.newPage();
    problems = await watchViolations(page);
    await page.goto(`${t.url}/console/`);
    await page.getByRole("textbox", { name: "Username" }).fill(login);
    await page.getByLabel("Password").fill(password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("heading", { name: "Activity" }).waitFor(); // where /console/ lands
  }

  async function assertClean(name: string) {
    assert.deepEqual(problems, [], `${name}: CSP violations or console errors`);
    assert.deepEqual(await seriousViolations(page), [], `${name}: axe-core`);
  }

  /** Reloads the page until `count` deliveries are listed (the dispatcher sends them in the background). */
  async function deliveriesListed(count: number) {
    const rows = page.locator(".hook tbody tr");
    const listed = await eventually(async () => {
      await page.reload();
      return rows.count();
    }, (n) => n >= count);
    assert.equal(listed, count);
    return rows;
  }

  test("add a webhook through the form, see its ping delivered with its status, redeliver it", async () => {
    await signedInPage("alice", "alice-password");
    const response = await page.goto(`${t.url}${HOOKS}`);
    assert.match(response!.headers()["content-security-policy"] ?? "", /default-src 'self'/);
    await page.getByRole("heading", { name: "Webhooks" }).waitFor();
    await page.getByText("No webhooks yet.").waitFor();
    await page.getByRole("textbox", { name: "Payload URL" }).fill(hookUrl);
    await page.getByRole("combobox", { name: "Content type" }).selectOption("json");
    await page.getByLabel("Secret", { exact: true }).fill("It's a Secret to Everybody");
    await page.getByRole("checkbox", { name: "issues", exact: true }).check();
    assert.equal(await page.getByRole("checkbox", { name: "push", exact: true }).isChecked(), true, "pushes by default");
    assert.equal(await page.getByRole("checkbox", { name: "Active" }).isChecked(), true);
    await assertClean("add webhook form");
    await page.getByRole("button", { name: "Add webhook" }).click();

    await hookReceiver.until(1);
    assert.equal(hookReceiver.received[0]!.headers["x-github-event"], "ping");
    assert.match(String(hookReceiver.received[0]!.headers["x-hub-signature-256"]), /^sha256=[0-9a-f]{64}$/);
    const rows = await deliveriesListed(1);
    assert.match(await rows.first().textContent() ?? "", /200\s+OK[\s\S]*ping/);
    assert.match(await page.locator(".hook").first().textContent() ?? "", /Last response:\s+200 OK/);
    await page.getByText("Request and response").first().click();
    await page.getByText('"zen"').first().waitFor();
    await assertClean("webhooks");
    await page.evaluate(() => scrollTo(0, 0)); // opening the disclosure scrolled it: the heading belongs in the picture
    await page.screenshot({ path: "docs/console-webhooks.png" });

    await page.getByRole("button", { name: /^Redeliver ping delivery/ }).click();
    await page.getByRole("heading", { name: "Webhooks" }).waitFor();
    await hookReceiver.until(2);
    assert.equal(hookReceiver.received[1]!.headers["x-github-event"], "ping");
    assert.equal(hookReceiver.received[1]!.headers["x-github-delivery"], hookReceiver.received[0]!.headers["x-github-delivery"],
      "the same delivery, sent again");
    const again = await deliveriesListed(2);
    assert.match(await again.first().textContent() ?? "", /200\s+OK[\s\S]*\(redelivery\)/);
    await assertClean("webhooks after redelivery");
  });

  test("a stranger gets the not-found page for another user's hooks", async () => {
    await signedInPage("bob", "bob-password");
    const response = await page.goto(`${t.url}${HOOKS}`);
    assert.equal(response!.status(), 404);
    await page.getByRole("heading", { name: "Not Found" }).waitFor();
    assert.equal(await page.getByText(hookUrl).count(), 0);
  });

  test("a site administrator sees Users with its columns; another user neither the link nor the page", async () => {
    await signedInPage("root", "root-password");
    await page.getByRole("link", { name: "Users" }).click();
    await page.getByRole("heading", { name: "Users" }).waitFor();
    const headers = await page.getByRole("columnheader").allTextContents();
    assert.deepEqual(headers, ["Login", "Type", "Site admin", "Two-factor", "Tokens", "Status"]);
    const olga = page.getByRole("row", { name: /^olga\b/ });
    assert.deepEqual((await olga.getByRole("cell").allTextContents()), ["User", "No", "On", "0", "Active"]);
    const alice = page.getByRole("row", { name: /^alice\b/ });
    assert.deepEqual((await alice.getByRole("cell").allTextContents()), ["User", "No", "Off", "2", "Active"]);
    await assertClean("users");
    await page.screenshot({ path: "docs/console-users.png" });

    await signedInPage("alice", "alice-password");
    assert.equal(await page.getByRole("link", { name: "Users" }).count(), 0);
    const refused = await page.goto(`${t.url}/console/users`);
    assert.equal(refused!.status(), 404);
    await page.getByRole("heading", { name: "Not Found" }).waitFor();
  });
});
