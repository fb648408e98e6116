/**
 * The console's Webhooks and Users pages through app.inject(): who may open them (others get the not-found page),
 * the CSRF token every hook form needs, and refused input (a bad URL, an unknown event) shown on the page with nothing
 * stored. Runs on SQLite and in the PostgreSQL matrix; tests/console/admin.browser.test.ts drives the same pages in
 * Chromium, deliveries included.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { startTestApp, type TestApp } from "../helpers/test-app.js";
import { WORLD } from "../helpers/client-world.js";
import { createHook, recordAttempt } from "../helpers/hook-fixtures.js";
import { IngestService } from "../../src/server/services/ingest.js";
import type { HookOwner } from "../../src/server/store/hook-store.js";

import { csrfOf, form, FORM, sessionOf } from "../helpers/console-forms.js";
const HOOKS = "/console/repos/alice/hello/hooks";

describe("console: webhooks and users pages", () => {
  let t: TestApp;
  let hello: HookOwner;
  const sessions: Record<string, string> = {};

  const get = (url: string, who: string) =>
    t.app.inject({ method: "GET", url, headers: { cookie: `feedgate_session=${sessions[who]}` } });
  const post = (url: string, who: string, fields: Record<string, string | string[]>) =>
    t.app.inject({
      method: "POST",
      url,
      headers: { ...FORM, cookie: `feedgate_session=${sessions[who]}` },
      payload: form(fields),
    });
  const csrf = async (who: string) => csrfOf((await get("/console/tokens", who)).body);
  const storedHooks = async () => (await t.store.hooks.list(hello, { limit: 100, offset: 0 })).rows;

  before(async () => {
    t = await startTestApp();
    await new IngestService(t.store, t.clock.now).seedWorld(WORLD, { baseDir: undefined });
    await t.createUser("root", "root-password", { siteAdmin: true });
    await t.createToken((await t.store.users.findByLogin("root"))!, ["repo"]);
    for (const [login, password] of [
      ["alice", "alice-password"],
      ["bob", "bob-password"],
      ["root", "root-password"],
    ]) {
      const res = await t.app.inject({
        method: "POST",
        url: "/console/sign-in",
        headers: FORM,
        payload: form({ login: login!, password: password! }),
      });
      sessions[login!] = sessionOf(res)!;
    }
    hello = { kind: "repo", repoId: (await t.store.directory.findRepo("alice", "hello"))!.id };
  });
  after(() => t.close());

  test("the owner and a site administrator see the hooks with their last response and deliveries; a stranger gets not-found", async () => {
    const hook = await createHook(t.store, hello, "https://receiver.example/<b>hook</b>");
    await recordAttempt(t.store, hook, { status: "Invalid HTTP Response: 500", statusCode: 500 });
    try {
      const page = await get(HOOKS, "alice");
      assert.equal(page.statusCode, 200);
      assert.match(page.body, /<h1>Webhooks<\/h1>/);
      assert.match(page.body, /https:\/\/receiver\.example\/&lt;b&gt;hook&lt;\/b&gt;/, "escaped");
      assert.doesNotMatch(page.body, /<b>hook<\/b>/);
      assert.match(page.body, /Invalid HTTP Response: 500/);
      assert.match(page.body, /270 ms/);
      assert.match(page.body, /<summary>Request and response/);
      assert.match(page.body, />Redeliver<\/button>/);
      assert.match(page.body, /Add webhook/);
      assert.equal((await get(HOOKS, "root")).statusCode, 200, "site administrators manage every repository's hooks");

      for (const url of [HOOKS, "/console/repos/alice/secret/hooks", "/console/repos/alice/nothing/hooks"]) {
        const refused = await get(url, "bob");
        assert.equal(refused.statusCode, 404, url);
        assert.match(refused.body, /<h1>Not Found<\/h1>/);
        assert.doesNotMatch(refused.body, /receiver\.example/);
      }
      const anonymous = await t.app.inject({ method: "GET", url: HOOKS });
      assert.equal(anonymous.statusCode, 303);
      assert.equal(anonymous.headers.location, "/console/sign-in");

      const [delivery] = await t.store.hooks.deliveries(hook.id, 1, null);
      const redeliver = `${HOOKS}/${hook.id}/deliveries/${delivery!.id}/redeliver`;
      assert.equal(
        (await post(redeliver, "bob", { csrf: await csrf("bob") })).statusCode,
        404,
        "a stranger redelivers nothing",
      );
      assert.equal(await t.store.hooks.queued(hook.id), 0);
      assert.equal((await post(redeliver, "alice", {})).statusCode, 403, "no CSRF token, no redelivery");
      assert.equal(await t.store.hooks.queued(hook.id), 0);
      const ok = await post(redeliver, "alice", { csrf: await csrf("alice") });
      assert.equal(ok.statusCode, 303);
      assert.equal(ok.headers.location, `${HOOKS}#hook-${hook.id}`);
      assert.equal(await t.store.hooks.queued(hook.id), 1, "queued for the (inactive) hook");
    } finally {
      await t.store.hooks.delete(hello, hook.id);
    }
  });

  test("adding a webhook needs the CSRF token and may-manage; bad input is shown and nothing stored", async () => {
    const valid = {
      url: "https://receiver.example/new",
      content_type: "form",
      secret: "s3cret",
      events: ["push", "issues"],
    };
    assert.equal((await post(HOOKS, "alice", valid)).statusCode, 403, "no CSRF token");
    assert.equal((await post(HOOKS, "bob", { ...valid, csrf: await csrf("bob") })).statusCode, 404);
    assert.deepEqual(await storedHooks(), []);

    const token = await csrf("alice");
    const cases: [Record<string, string | string[]>, RegExp][] = [
      [{ ...valid, url: "javascript:alert(1)" }, /The URL you&#39;ve entered is not valid/],
      [{ ...valid, url: "" }, /Config must contain URL for webhooks/],
      [{ ...valid, events: ["push", "<nope>"] }, /&quot;&lt;nope&gt;&quot; is not a valid event name/],
      [{ ...valid, events: [] }, /Choose at least one event/],
      [{ ...valid, content_type: "xml" }, /content_type must be/],
    ];
    for (const [fields, problem] of cases) {
      const res = await post(HOOKS, "alice", { ...fields, csrf: token });
      assert.equal(res.statusCode, 422, JSON.stringify(fields));
      assert.match(res.body, problem);
      assert.match(res.body, /role="alert"/);
      assert.doesNotMatch(res.body, /s3cret/, "the secret is never echoed");
    }
    assert.deepEqual(await storedHooks(), [], "nothing stored");

    // Inactive: nothing is pinged (deliveries are the browser test's).
    const added = await post(HOOKS, "alice", { ...valid, csrf: token });
    assert.equal(added.statusCode, 303);
    const [hook] = await storedHooks();
    assert.equal(added.headers.location, `${HOOKS}#hook-${hook!.id}`);
    assert.deepEqual(hook!.events, ["push", "issues"]);
    assert.equal(hook!.active, false);
    assert.equal(hook!.config.contentType, "form");
    assert.ok(hook!.config.sealedSecret && !hook!.config.sealedSecret.includes("s3cret"));
    await t.store.hooks.delete(hello, hook!.id);
  });

  test("Users: site administrators only, with type, site-admin flag, two-factor state and token count", async () => {
    const page = await get("/console/users", "root");
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /<h1>Users<\/h1>/);
    for (const column of ["Login", "Type", "Site admin", "Two-factor", "Tokens", "Status"])
      assert.match(page.body, new RegExp(`<th scope="col">${column}</th>`));
    const row = (login: string) =>
      new RegExp(`<tr><th scope="row">${login}</th>(.*?)</tr>`, "s").exec(page.body)?.[1] ?? "";
    assert.match(row("alice"), /<td>User<\/td><td>No<\/td><td>Off<\/td><td>2<\/td><td>Active<\/td>/);
    assert.match(row("olga"), /<td>User<\/td><td>No<\/td><td>On<\/td><td>0<\/td>/);
    assert.match(row("root"), /<td>User<\/td><td>Yes<\/td><td>Off<\/td><td>1<\/td>/);
    assert.match((await get("/console/tokens", "root")).body, /href="\/console\/users"/, "in the navigation");

    const refused = await get("/console/users", "alice");
    assert.equal(refused.statusCode, 404);
    assert.doesNotMatch(refused.body, /olga/);
    assert.doesNotMatch((await get("/console/tokens", "alice")).body, /href="\/console\/users"/);
    assert.equal((await t.app.inject({ method: "GET", url: "/console/users" })).statusCode, 303);
  });
});
