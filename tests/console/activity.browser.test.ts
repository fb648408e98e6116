/**
 * The console's Activity pages in Chromium (playwright-core), on SQLite: the received feed as sentences, an event
 * ingested through the admin route appearing live at the top within two seconds, links to a repository's page, a
 * private repository's page refused to a stranger, the type filter by keyboard, "Load more" with and without script,
 * axe-core and CSP clean. Screenshot: docs/console-activity.png.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { startListeningApp, type ListeningApp } from "../helpers/listening-app.js";
import { basic } from "../helpers/test-app.js";
import { browserSkip, launchChromium, seriousViolations, watchViolations, screenshotPath } from "../helpers/browser.js";
import { ALICE, HELLO_IDS } from "../helpers/client-world.js";

const skip = process.env.FEEDGATE_TEST_STORE === "postgres" ? "browser tests run on SQLite" : browserSkip();

describe("console: activity in Chromium", { skip }, () => {
  let t: ListeningApp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let problems: string[];

  before(async () => {
    t = await startListeningApp();
    await t.createUser("root", "root-password", { siteAdmin: true });
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  async function signedIn(login: string, password: string, options: { javaScriptEnabled?: boolean } = {}) {
    await context?.close();
    context = await browser.newContext(options);
    page = await context.newPage();
    problems = await watchViolations(page);
    await page.goto(`${t.url}/console/`);
    await page.getByRole("textbox", { name: "Username" }).fill(login);
    await page.getByLabel("Password").fill(password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("heading", { name: "Activity" }).waitFor();
  }

  async function assertClean(name: string) {
    assert.deepEqual(problems, [], `${name}: CSP violations or console errors`);
    assert.deepEqual(await seriousViolations(page), [], `${name}: axe-core`);
  }

  const items = () => page.locator("#events > li");

  test("the received feed as sentences; an ingested event appears live at the top; links lead to the repository's page", async () => {
    await signedIn(ALICE.login, ALICE.password);
    assert.equal(page.url(), `${t.url}/console/activity`, "the console lands on Activity");
    await page.getByText("bob created repository bob/tools").waitFor();
    await page.getByText("bob forked alice/hello").waitFor();
    assert.equal(await items().first().locator(".type").textContent(), "CreateEvent", "newest first");
    assert.match((await items().first().locator("time").getAttribute("datetime"))!, /^2026-01-14T00:53:00/);
    await page.getByText("Live: new events appear at the top.").waitFor();
    await assertClean("activity");

    const event = {
      id: "9001",
      type: "IssuesEvent",
      actor: { login: "bob" },
      repo: { name: "bob/tools" },
      public: true,
      payload: { action: "opened", issue: { number: 12, title: "<img src=x onerror=alert(1)>" } },
      created_at: t.clock.now().toISOString(),
    };
    const stored = Date.now();
    const answer = await fetch(`${t.url}/admin/events`, {
      method: "POST",
      body: JSON.stringify([event]),
      headers: { authorization: basic("root", "root-password"), "content-type": "application/json" },
    });
    assert.equal(answer.status, 200, await answer.text());
    await page.locator('#events > li[data-id="9001"]').waitFor({ timeout: 2000 });
    assert.ok(Date.now() - stored < 2000, "within two seconds of being stored");
    assert.equal(await items().first().getAttribute("data-id"), "9001", "at the top");
    assert.equal(await items().first().locator(".sentence").textContent(), "bob opened issue #12 in bob/tools");
    assert.equal(await items().first().locator("time").textContent(), "just now");
    await page.screenshot({ path: screenshotPath("console-activity.png"), fullPage: false });
    await assertClean("activity, live");

    await items().first().getByRole("link", { name: "bob/tools" }).click();
    await page.getByRole("heading", { name: "bob/tools" }).waitFor();
    assert.equal(page.url(), `${t.url}/console/repos/bob/tools`);
    assert.equal(await items().first().getAttribute("data-id"), "9001");
    await assertClean("repository page");
    await items().first().getByRole("link", { name: "bob", exact: true }).click();
    await page.getByRole("heading", { name: "bob", exact: true }).waitFor();
    await assertClean("user page");
  });

  test("a private repository's page is refused to a stranger, shown to its owner", async () => {
    await signedIn("bob", "bob-password");
    const refused = await page.goto(`${t.url}/console/repos/alice/secret`);
    assert.equal(refused?.status(), 404);
    await page.getByText("Not Found").first().waitFor();
    assert.equal(await page.getByText("3001").count(), 0);
    assert.deepEqual(await seriousViolations(page), [], "not-found page: axe-core");

    await signedIn(ALICE.login, ALICE.password);
    await page.goto(`${t.url}/console/repos/alice/secret`);
    await page.getByText("alice pushed to alice/secret").waitFor();
  });

  test("the type filter, by keyboard", async () => {
    await signedIn("bob", "bob-password");
    await page.goto(`${t.url}/console/repos/alice/hello`);
    await page.getByRole("combobox", { name: "Event type" }).focus();
    await page.getByRole("combobox", { name: "Event type" }).selectOption("ForkEvent");
    await page.keyboard.press("Tab");
    await expectFocused("Filter");
    await page.keyboard.press("Enter");
    await page.waitForURL(/type=ForkEvent/);
    assert.equal(await items().count(), 1);
    assert.equal(await items().first().locator(".sentence").textContent(), "bob forked alice/hello");
    await assertClean("filtered");
  });

  async function expectFocused(name: string) {
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), name);
  }

  test("Load more: in place with script, as a link to ?page=2 without", async () => {
    await signedIn("bob", "bob-password");
    await page.goto(`${t.url}/console/repos/alice/hello`);
    assert.equal(await items().count(), 30);
    await page.getByRole("link", { name: "Load more" }).click();
    await page.locator(`#events > li[data-id="${HELLO_IDS.at(-1)}"]`).waitFor();
    assert.deepEqual(await items().evaluateAll((lis) => lis.map((li) => li.getAttribute("data-id"))), HELLO_IDS);
    assert.equal(await page.getByRole("link", { name: "Load more" }).count(), 0, "nothing more to load");
    await assertClean("load more");

    await signedIn("bob", "bob-password", { javaScriptEnabled: false });
    await page.goto(`${t.url}/console/repos/alice/hello`);
    await page.getByRole("link", { name: "Load more" }).click();
    await page.waitForURL(/\?page=2$/);
    assert.deepEqual(
      await items().evaluateAll((lis) => lis.map((li) => li.getAttribute("data-id"))),
      HELLO_IDS.slice(30),
    );
  });
});
