/**
 * The console's Developer settings over the app on the test's driver: each person sees only their own apps, and the
 * forms refuse what GitHub's refuse (a blank or taken name, a relative URL, an unknown permission level) with the page
 * again and why, registering nothing.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { startTestApp, type TestApp } from "../helpers/test-app.js";
import { WORLD } from "../helpers/client-world.js";
import { IngestService } from "../../src/server/services/ingest.js";
import { consoleUsers } from "../helpers/console-forms.js";

describe("console: Developer settings", () => {
  let t: TestApp;
  let people: Awaited<ReturnType<typeof consoleUsers>>;
  const get = (url: string, login: string) => people.get(url, login);
  const post = (url: string, fields: Record<string, string | string[]>, login = "alice") =>
    people.post(url, fields, login);

  before(async () => {
    t = await startTestApp();
    await new IngestService(t.store, t.clock.now).seedWorld(WORLD, { baseDir: undefined });
    people = await consoleUsers(t.app, ["alice", "bob"]);
  });
  after(() => t.close());

  test("a GitHub App and an OAuth app registered by alice are hers: bob's page lists neither", async () => {
    const app = await post("/console/settings/apps/new", {
      name: "Alice Tools",
      url: "https://alice.example",
      "permission:issues": "read",
      events: ["issues"],
    });
    assert.equal(app.statusCode, 201, app.body);
    assert.match(app.body, /BEGIN RSA PRIVATE KEY/);
    assert.doesNotMatch(app.body, /Webhook secret/, "no webhook URL, no webhook secret");
    const oauth = await post("/console/settings/applications/new", {
      name: "Alice Sign-in",
      url: "https://alice.example",
      callback_url: "https://alice.example/callback",
    });
    assert.equal(oauth.statusCode, 201, oauth.body);
    const stored = await t.store.apps.bySlug("alice-tools");
    assert.deepEqual(stored?.permissions, { issues: "read", metadata: "read" });
    assert.ok(stored && !JSON.stringify(stored).includes("PRIVATE KEY"), "the public key only");
    assert.match((await get("/console/settings/developers", "alice")).body, /Alice Tools[\s\S]*Alice Sign-in/);
    const bobs = (await get("/console/settings/developers", "bob")).body;
    assert.doesNotMatch(bobs, /Alice Tools|Alice Sign-in/);
    assert.equal((await t.app.inject({ method: "GET", url: "/console/settings/developers" })).statusCode, 303);
  });

  test("refusals: the form again with why, nothing registered", async () => {
    const before = (await t.store.oauthApps.list()).length;
    for (const [url, fields, why] of [
      [
        "/console/settings/applications/new",
        { name: " ", url: "https://x.example", callback_url: "https://x.example/c" },
        /can(&#39;|')t be blank/,
      ],
      [
        "/console/settings/applications/new",
        { name: "X", url: "/relative", callback_url: "https://x.example/c" },
        /Homepage URL must be an absolute URL/,
      ],
      [
        "/console/settings/apps/new",
        { name: "Alice Tools", url: "https://alice.example" },
        /Name Alice Tools is already in use/,
      ],
      ["/console/settings/apps/new", { name: "Relative", url: "relative" }, /url must be an absolute URL/],
    ] as const) {
      const res = await post(url, fields);
      assert.equal(res.statusCode, 422, `${url} ${JSON.stringify(fields)}`);
      assert.match(res.body, why);
    }
    assert.equal((await t.store.oauthApps.list()).length, before);
    assert.equal(await t.store.apps.bySlug("relative"), null);
  });
});
