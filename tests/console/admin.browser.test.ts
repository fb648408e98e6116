/**
 * The console's Webhooks and Users pages in Chromium (playwright-core), on SQLite: a webhook added through the form
 * to a receiver listening in this test gets its ping, listed with its status; "Redeliver" sends it again; a stranger
 * gets the not-found page; the "Add webhook" form's layout (by element boxes) and its marks on the events feedgate
 * sends; a site administrator sees Users, another user does not. Every page is checked with axe-core and for CSP
 * violations. Screenshots go to docs/console-webhooks.png and docs/console-users.png.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { startListeningApp, type ListeningApp } from "../helpers/listening-app.js";
import { browserSkip, launchChromium, seriousViolations, watchViolations, screenshotPath } from "../helpers/browser.js";
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

  /**
   * Clicks a button that submits a form and waits until the page it leads to has loaded: a reload while that navigation
   * is still under way fails ("Not attached to an active page"), which happened once a ping arrived before the page.
   */
  async function submit(button: Locator) {
    await Promise.all([page.waitForEvent("framenavigated", (frame) => frame === page.mainFrame()), button.click()]);
    await page.waitForLoadState("load");
  }

  /** Reloads the page until `count` deliveries are listed (the dispatcher sends them in the background). */
  async function deliveriesListed(count: number) {
    const rows = page.locator(".hook tbody tr");
    const listed = await eventually(
      async () => {
        await page.reload();
        return rows.count();
      },
      (n) => n >= count,
    );
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
    assert.equal(
      await page.getByRole("checkbox", { name: "push", exact: true }).isChecked(),
      true,
      "pushes by default",
    );
    assert.equal(await page.getByRole("checkbox", { name: "Active" }).isChecked(), true);
    await assertClean("add webhook form");
    await submit(page.getByRole("button", { name: "Add webhook" }));

    await hookReceiver.until(1);
    assert.equal(hookReceiver.received[0]!.headers["x-github-event"], "ping");
    assert.match(String(hookReceiver.received[0]!.headers["x-hub-signature-256"]), /^sha256=[0-9a-f]{64}$/);
    const rows = await deliveriesListed(1);
    assert.match((await rows.first().textContent()) ?? "", /200\s+OK[\s\S]*ping/);
    assert.match((await page.locator(".hook").first().textContent()) ?? "", /Last response:\s+200 OK/);
    await page.getByText("Request and response").first().click();
    await page.getByText('"zen"').first().waitFor();
    await assertClean("webhooks");
    await page.evaluate(() => scrollTo(0, 0)); // opening the disclosure scrolled it: the heading belongs in the picture
    await page.screenshot({ path: screenshotPath("console-webhooks.png") });

    await submit(page.getByRole("button", { name: /^Redeliver ping delivery/ }));
    await hookReceiver.until(2);
    assert.equal(hookReceiver.received[1]!.headers["x-github-event"], "ping");
    assert.equal(
      hookReceiver.received[1]!.headers["x-github-delivery"],
      hookReceiver.received[0]!.headers["x-github-delivery"],
      "the same delivery, sent again",
    );
    const again = await deliveriesListed(2);
    assert.match((await again.first().textContent()) ?? "", /200\s+OK[\s\S]*\(redelivery\)/);
    await assertClean("webhooks after redelivery");
  });

  test("the Add webhook form: Active beside its label, the Secret hint under its input, the events feedgate sends marked", async () => {
    await signedInPage("alice", "alice-password");
    await page.goto(`${t.url}${HOOKS}`);
    const form = page.getByRole("region", { name: "Add webhook" });
    const box = async (locator: Locator) => (await locator.boundingBox())!;

    const active = await box(form.getByRole("checkbox", { name: "Active" }));
    const activeLabel = await box(form.locator("label[for=hook-active]"));
    assert.ok(activeLabel.x >= active.x + active.width, "the label right of its checkbox");
    assert.ok(activeLabel.y < active.y + active.height && active.y < activeLabel.y + activeLabel.height, "on one row");

    const secret = await box(form.getByLabel("Secret", { exact: true }));
    const hint = await box(form.locator("#hook-secret-hint"));
    assert.ok(hint.y >= secret.y + secret.height, "the hint below its input");
    assert.equal(hint.x, secret.x, "starting where the input starts");

    const events = form.getByRole("group", { name: "Events" });
    assert.match(
      (await events.locator("p").first().textContent()) ?? "",
      /marked “sent by feedgate”[\s\S]*others are accepted[\s\S]*never sent/,
      "above the list, what the marker means",
    );
    await expectDescription("push", "sent by feedgate");
    const marker = await box(
      events.locator(".check:has(#hook-event-push)").getByText("sent by feedgate", { exact: true }),
    );
    assert.ok(marker.width > 40 && marker.height > 8, "the marker is text on the page, not for screen readers only");
    await expectDescription("workflow_run", "");
    assert.doesNotMatch(
      (await events.locator(".check:has(#hook-event-workflow_run)").textContent()) ?? "",
      /sent by feedgate/,
    );
    await assertClean("add webhook form");
  });

  /** The accessible description Chromium computes for the checkbox (what a screen reader reads after its name). */
  async function expectDescription(name: string, expected: string) {
    const cdp = await context.newCDPSession(page);
    const { root } = await cdp.send("DOM.getDocument", { depth: 0 });
    const { nodes } = await cdp.send("Accessibility.queryAXTree", {
      nodeId: root.nodeId,
      accessibleName: name,
      role: "checkbox",
    });
    await cdp.detach();
    assert.equal(nodes.length, 1, `one checkbox named ${name}`);
    assert.equal(nodes[0]!.description?.value ?? "", expected, `${name}'s description`);
  }

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
    assert.deepEqual(await olga.getByRole("cell").allTextContents(), ["User", "No", "On", "0", "Active"]);
    const alice = page.getByRole("row", { name: /^alice\b/ });
    assert.deepEqual(await alice.getByRole("cell").allTextContents(), ["User", "No", "Off", "2", "Active"]);
    await assertClean("users");
    await page.screenshot({ path: screenshotPath("console-users.png") });

    await signedInPage("alice", "alice-password");
    assert.equal(await page.getByRole("link", { name: "Users" }).count(), 0);
    const refused = await page.goto(`${t.url}/console/users`);
    assert.equal(refused!.status(), 404);
    await page.getByRole("heading", { name: "Not Found" }).waitFor();
  });
});
