/**
 * The console in a real browser (Chromium through playwright-core), on SQLite: sign in (with and without two-factor),
 * a wrong password, generate a token and use it against the API, see it once, revoke it, sign out; each token's
 * actions on one line. Controls are found by role and accessible name, the names issue 17 makes the contract.
 * Screenshots go to docs/console-*.png.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { startListeningApp, type ListeningApp } from "../helpers/listening-app.js";
import { browserSkip, launchChromium, seriousViolations, watchViolations, screenshotPath } from "../helpers/browser.js";
import { currentOtp, newOtpSecret } from "../../src/server/services/credentials.js";
import { IngestService } from "../../src/server/services/ingest.js";
import { basic } from "../helpers/test-app.js";

const skip = process.env.FEEDGATE_TEST_STORE === "postgres" ? "browser tests run on SQLite" : browserSkip();

describe("console: sign-in and tokens in Chromium", { skip }, () => {
  let t: ListeningApp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let problems: string[];
  let secret: string;

  before(async () => {
    t = await startListeningApp();
    await t.createUser("carla", "carla-password");
    secret = newOtpSecret();
    await t.createUser("otto", "otto-password", { otpSecret: secret });
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  async function freshPage() {
    await context?.close();
    context = await browser.newContext();
    page = await context.newPage();
    problems = await watchViolations(page);
  }

  async function signIn(login: string, password: string) {
    await page.goto(`${t.url}/console/`);
    await page.getByRole("textbox", { name: "Username" }).fill(login);
    await page.getByLabel("Password").fill(password);
    await page.getByRole("button", { name: "Sign in" }).click();
  }

  async function assertClean(name: string) {
    assert.deepEqual(problems, [], `${name}: CSP violations or console errors`);
    assert.deepEqual(await seriousViolations(page), [], `${name}: axe-core`);
  }

  test("a wrong password is refused on the page", async () => {
    await freshPage();
    await signIn("carla", "not-her-password");
    await page.getByText("Incorrect username or password.").waitFor();
    await assertClean("sign-in");
    await page.screenshot({ path: screenshotPath("console-sign-in.png") });
  });

  test("generate a token, use it, see it once, revoke it, sign out", async () => {
    await freshPage();
    await signIn("carla", "carla-password");
    // The console lands on Activity; Tokens is in the navigation.
    await page.getByRole("heading", { name: "Activity" }).waitFor();
    await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Tokens (classic)" }).click();
    await page.getByRole("heading", { name: "Tokens (classic)" }).waitFor();
    const response = await page.request.get(`${t.url}/console/tokens`);
    assert.match(response.headers()["content-security-policy"] ?? "", /default-src 'self'/);
    await page.getByRole("link", { name: "Generate new token" }).click();
    await page.getByLabel("Note", { exact: true }).fill("laptop");
    await page.getByLabel("Note URL").fill("https://example.com/laptop");
    await page.getByRole("checkbox", { name: "repo", exact: true }).check();
    await page.getByRole("checkbox", { name: "gist", exact: true }).check();
    assert.equal(
      await page.getByLabel("Expiration", { exact: true }).inputValue(),
      "30",
      "30 days at first, as on GitHub",
    );
    await page.getByLabel("Expiration", { exact: true }).selectOption({ label: "7 days" });
    await assertClean("new token form");
    await page.getByRole("button", { name: "Generate token" }).click();
    await page.getByRole("button", { name: "Copy" }).waitFor();
    const token = (await page.locator("#new-token").textContent())!.trim();
    await page.screenshot({ path: screenshotPath("console-tokens.png") });
    await assertClean("tokens");

    const api = await fetch(`${t.url}/user`, { headers: { authorization: `token ${token}` } });
    assert.equal(api.status, 200);
    assert.equal(api.headers.get("x-oauth-scopes"), "repo, gist");
    const inAWeek = new Date(t.clock.now().getTime() + 7 * 86_400_000);
    assert.equal(
      api.headers.get("github-authentication-token-expiration"),
      `${inAWeek.toISOString().slice(0, 19).replace("T", " ")} UTC`,
    );

    await page.reload();
    await page.getByRole("heading", { name: "Tokens (classic)" }).waitFor();
    assert.equal(await page.getByText(token).count(), 0, "shown once, never again");
    assert.equal(
      await page.getByRole("link", { name: "laptop", exact: true }).getAttribute("href"),
      "https://example.com/laptop",
    );
    const row = page.getByRole("row").filter({ has: page.getByRole("link", { name: "laptop", exact: true }) });
    assert.equal(
      await row.locator("time").last().getAttribute("datetime"),
      inAWeek.toISOString(),
      "the Expires column",
    );

    await page.getByRole("link", { name: "Revoke laptop" }).click();
    await assertClean("revoke");
    await page.getByRole("button", { name: "Revoke" }).click();
    await page.getByText("No tokens yet.").waitFor();
    assert.equal((await fetch(`${t.url}/user`, { headers: { authorization: `token ${token}` } })).status, 401);

    const cookie = (await context.cookies()).find((c) => c.name === "feedgate_session")!;
    assert.equal(cookie.httpOnly, true);
    assert.equal(cookie.sameSite, "Strict");
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByRole("button", { name: "Sign in" }).waitFor();
    const replay = await fetch(`${t.url}/console/tokens`, {
      headers: { cookie: `feedgate_session=${cookie.value}` },
      redirect: "manual",
    });
    assert.equal(replay.status, 303, "the old cookie no longer signs anyone in");
  });

  test("generate a fine-grained token for one repository with Webhooks read and write, use it, revoke it", async () => {
    await new IngestService(t.store, t.clock.now).seedWorld(
      {
        repos: [
          { full_name: "carla/app", private: true },
          { full_name: "carla/notes", private: true },
        ],
      },
      { baseDir: undefined },
    );
    await freshPage();
    await signIn("carla", "carla-password");
    await page.getByRole("heading", { name: "Activity" }).waitFor();
    await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Fine-grained tokens" }).click();
    await page.getByRole("heading", { name: "Fine-grained tokens" }).waitFor();
    await page.getByText("No fine-grained tokens yet.").waitFor();
    await page.getByRole("link", { name: "Generate new token" }).click();
    await page.getByLabel("Token name").fill("deploy hooks");
    assert.equal(await page.getByLabel("Resource owner").inputValue(), "carla", "the user at first");
    assert.ok(
      await page.getByRole("radio", { name: "Public repositories" }).isChecked(),
      "public repositories at first",
    );
    await page.getByRole("radio", { name: "Only select repositories" }).check();
    await page.getByLabel("Selected repositories").fill("carla/app");
    await page
      .getByRole("group", { name: "Repository permissions" })
      .getByLabel("Webhooks")
      .selectOption({ label: "Read and write" });
    await page.getByLabel("Expiration", { exact: true }).selectOption({ label: "7 days" });
    await assertClean("new fine-grained token form");
    await page.screenshot({ path: screenshotPath("console-fine-grained-form.png"), fullPage: true });
    await page.getByRole("button", { name: "Generate token" }).click();
    await page.getByRole("button", { name: "Copy" }).waitFor();
    const token = (await page.locator("#new-token").textContent())!.trim();
    assert.match(token, /^feedgate_pat_/);
    const row = page.getByRole("row").filter({ hasText: "deploy hooks" });
    assert.match((await row.textContent()) ?? "", /carla\/app/);
    assert.match((await row.textContent()) ?? "", /Webhooks \(repository\): write/);
    await page.screenshot({ path: screenshotPath("console-fine-grained-tokens.png") });
    await assertClean("fine-grained tokens");

    const hooks = await fetch(`${t.url}/repos/carla/app/hooks`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(hooks.status, 200);
    assert.equal(hooks.headers.get("x-accepted-github-permissions"), "repository_hooks=read");
    assert.equal(
      (await fetch(`${t.url}/repos/carla/notes/hooks`, { headers: { authorization: `Bearer ${token}` } })).status,
      404,
    );
    assert.equal(
      (
        (await (
          await fetch(`${t.url}/authorizations`, { headers: { authorization: basic("carla", "carla-password") } })
        ).json()) as unknown[]
      ).length,
      0,
      "not among the classic tokens",
    );

    await page.getByRole("link", { name: "Revoke deploy hooks" }).click();
    await assertClean("revoke a fine-grained token");
    await page.getByRole("button", { name: "Revoke" }).click();
    await page.getByText("No fine-grained tokens yet.").waitFor();
    assert.equal((await fetch(`${t.url}/user`, { headers: { authorization: `Bearer ${token}` } })).status, 401);
  });

  test("the fine-grained form says what the API refuses, keeps what was typed, and stores nothing", async () => {
    await freshPage();
    await signIn("carla", "carla-password");
    await page.getByRole("heading", { name: "Activity" }).waitFor();
    await page.goto(`${t.url}/console/fine-grained-tokens/new`);
    await page.getByLabel("Token name").fill("too wide");
    await page
      .getByRole("group", { name: "Repository permissions" })
      .getByLabel("Webhooks")
      .selectOption({ label: "Read-only" });
    await page.getByRole("button", { name: "Generate token" }).click();
    await page
      .getByRole("alert")
      .filter({ hasText: /public repositories only/ })
      .waitFor();
    assert.equal(await page.getByLabel("Token name").inputValue(), "too wide");
    await assertClean("refused fine-grained form");
    assert.equal((await t.store.authorizations.listAll()).filter((a) => a.fineGrained).length, 0);
  });

  test("each token's Edit and Revoke sit side by side on one line, however many tokens and scopes", async () => {
    const dora = await t.createUser("dora", "dora-password");
    // A long note and every scope squeeze the Actions column: the width the table's layout gives it is what wrapped.
    await t.createToken(
      dora,
      [
        "repo",
        "admin:org",
        "admin:public_key",
        "admin:repo_hook",
        "admin:org_hook",
        "gist",
        "notifications",
        "user",
        "delete_repo",
        "write:discussion",
        "admin:gpg_key",
        "workflow",
        "write:packages",
      ],
      "deploy bot for the staging and production clusters of the billing service",
    );
    await t.createToken(dora, ["repo"], "laptop");
    await freshPage();
    await signIn("dora", "dora-password");
    await page.getByRole("heading", { name: "Activity" }).waitFor();
    await page.goto(`${t.url}/console/tokens`);
    const rows = page
      .getByRole("table")
      .getByRole("row")
      .filter({ has: page.getByRole("link", { name: /^Edit / }) });
    assert.equal(await rows.count(), 2);
    for (const row of await rows.all()) {
      const edit = (await row.getByRole("link", { name: /^Edit / }).boundingBox())!;
      const revoke = (await row.getByRole("link", { name: /^Revoke / }).boundingBox())!;
      assert.equal(revoke.y, edit.y, "Revoke on Edit's line");
      assert.ok(revoke.x >= edit.x + edit.width, "Revoke to the right of Edit");
    }
    await assertClean("tokens of a user with two");
  });

  test("a two-factor account signs in with its code", async () => {
    await freshPage();
    await signIn("otto", "otto-password");
    await page.getByRole("textbox", { name: "Authentication code" }).waitFor(); // the page axe and CSP check below
    await assertClean("two-factor");
    // The listening app's clock is the test clock; the code must match it.
    await page.getByRole("textbox", { name: "Authentication code" }).fill(currentOtp(secret, t.clock.now()));
    await page.getByRole("button", { name: "Verify" }).click();
    await page.getByRole("heading", { name: "Activity" }).waitFor();
  });

  test("a form posted from another origin is refused", async () => {
    await freshPage();
    await signIn("carla", "carla-password");
    await page.getByRole("heading", { name: "Activity" }).waitFor();
    const evil = await context.newPage(); // about:blank: an origin that is not the console's

    // A form on the other origin posting to the console: the browser sends no cookie (SameSite=Strict), and the
    // console refuses the foreign Origin anyway.
    const [answer] = await Promise.all([
      evil.waitForNavigation(),
      evil.evaluate((target) => {
        const form = document.createElement("form");
        form.method = "post";
        form.action = `${target}/console/tokens`;
        const note = Object.assign(document.createElement("input"), { name: "note", value: "stolen" });
        form.append(note);
        document.body.append(form);
        form.submit();
      }, t.url),
    ]);
    assert.equal(answer?.status(), 403);
    // Refused for its origin, not merely for coming without a cookie.
    assert.match(await evil.content(), /Cross-origin request refused\./);
    assert.equal((await t.store.authorizations.listAll()).filter((a) => a.note === "stolen").length, 0);
  });
});
