/**
 * The console's install page for a GitHub App (GitHub's `/apps/{slug}/installations/new`): a signed-in person installs
 * it on their account or an organization they own, on all repositories or chosen ones; the installation is the app's
 * as any other, with its `installation` `created` webhook; what GitHub refuses is the page again with why.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { startTestApp, type TestApp } from "../helpers/test-app.js";
import { WORLD } from "../helpers/client-world.js";
import { IngestService } from "../../src/server/services/ingest.js";
import { consoleUsers } from "../helpers/console-forms.js";
import { registerApp, type RegisteredApp } from "../helpers/github-app.js";
import { receiver, type Receiver } from "../helpers/webhook-receiver.js";

describe("console: installing a GitHub App", () => {
  let t: TestApp;
  let bot: RegisteredApp;
  let hook: Receiver;
  let people: Awaited<ReturnType<typeof consoleUsers>>;
  const page = (url: string, login = "alice") => people.get(url, login);
  const install = (fields: Record<string, string | string[]>, login = "alice") =>
    people.post(`/console/apps/${bot.app.slug}/installations/new`, fields, login);

  before(async () => {
    t = await startTestApp();
    await new IngestService(t.store, t.clock.now).seedWorld(WORLD, { baseDir: undefined });
    hook = receiver();
    bot = await registerApp(t, { owner: "alice", name: "Console Bot", webhookUrl: await hook.listen() });
    await t.app.ready();
    people = await consoleUsers(t.app, ["alice", "bob"]);
  });
  after(async () => {
    await hook.close();
    await t.close();
  });

  test("the page offers the person's account and the organizations they own, with their repositories", async () => {
    const shown = await page(`/console/apps/${bot.app.slug}/installations/new`);
    assert.equal(shown.statusCode, 200);
    assert.match(shown.body, /<h1>Install Console Bot<\/h1>/);
    assert.match(shown.body, /name="account" value="alice"/);
    assert.match(shown.body, /name="account" value="acme"/, "alice owns acme");
    assert.match(shown.body, /value="alice\/hello"/);
    const bobs = await page(`/console/apps/${bot.app.slug}/installations/new`, "bob");
    assert.doesNotMatch(bobs.body, /value="acme"/, "bob owns no organization");
    assert.equal((await page("/console/apps/no-such-app/installations/new")).statusCode, 404);
    const signedOut = await t.app.inject({ method: "GET", url: `/console/apps/${bot.app.slug}/installations/new` });
    assert.equal(signedOut.statusCode, 303);
  });

  test("installing on chosen repositories makes the installation and queues installation.created", async () => {
    const done = await install({ account: "alice", selection: "selected", repositories: ["alice/hello"] });
    assert.equal(done.statusCode, 201, done.body);
    assert.match(done.body, /Console Bot is installed on alice/);
    const installation = await t.store.apps.installationOn(bot.app.id, (await t.store.users.findByLogin("alice"))!.id);
    assert.equal(installation?.repositorySelection, "selected");
    assert.equal(installation?.repositoryIds.length, 1);
    await hook.until(1);
    const created = JSON.parse(hook.received[0]!.body) as { action: string; repositories: { full_name: string }[] };
    assert.deepEqual(
      [hook.received[0]!.headers["x-github-event"], created.action, created.repositories.map((r) => r.full_name)],
      ["installation", "created", ["alice/hello"]],
    );
  });

  test("refusals show the page again with why, and install nothing", async () => {
    const again = await install({ account: "alice", selection: "all" });
    assert.equal(again.statusCode, 422);
    assert.match(again.body, /installed on alice already/);
    const foreign = await install({ account: "acme", selection: "selected", repositories: ["alice/hello"] });
    assert.equal(foreign.statusCode, 422);
    assert.match(foreign.body, /Choose at least one repository of acme/);
    const notOwned = await install({ account: "acme", selection: "all" }, "bob");
    assert.equal(notOwned.statusCode, 422);
    assert.equal((await t.store.apps.installations(bot.app.id)).length, 1);
  });
});
