/**
 * GitHub's hooks API for repositories and organizations: create, list, get, update, delete, config, deliveries,
 * pings, tests and redeliveries, with GitHub's statuses and shapes; the secret never shown; bad input refused with
 * nothing stored. (Who may call them: hooks-access.test.ts.)
 */
import { test, describe, before, after, beforeEach } from "node:test";
import assert from "node:assert/strict";
import type { InjectOptions } from "fastify";
import { basic, startTestApp, type TestApp } from "../helpers/test-app.js";
import { ALICE, WORLD } from "../helpers/client-world.js";
import { createHook, recordAttempt } from "../helpers/hook-fixtures.js";
import { links } from "../helpers/assertions.js";
import { IngestService } from "../../src/server/services/ingest.js";
import type { HookOwner } from "../../src/server/store/hook-store.js";

const AS_ALICE = { authorization: basic(ALICE.login, ALICE.password) };
const SECRET = "It's a Secret to Everybody";
const HOOK_KEYS = [
  "type",
  "id",
  "name",
  "active",
  "events",
  "config",
  "updated_at",
  "created_at",
  "url",
  "test_url",
  "ping_url",
  "deliveries_url",
  "last_response",
];
const ORG_HOOK_KEYS = [
  "id",
  "url",
  "ping_url",
  "deliveries_url",
  "name",
  "events",
  "active",
  "config",
  "updated_at",
  "created_at",
  "type",
];

describe("hooks API", () => {
  let t: TestApp;
  let helloHooks: HookOwner;
  let acmeHooks: HookOwner;
  const call = (method: InjectOptions["method"], url: string, payload?: unknown) =>
    t.app.inject({ method, url, headers: AS_ALICE, ...(payload === undefined ? {} : { payload: payload as object }) });
  const stored = async (owner: HookOwner) => (await t.store.hooks.list(owner, { limit: 100, offset: 0 })).rows;

  before(async () => {
    t = await startTestApp();
    await new IngestService(t.store, t.clock.now).seedWorld(WORLD, { baseDir: undefined });
    helloHooks = { kind: "repo", repoId: (await t.store.directory.findRepo("alice", "hello"))!.id };
    acmeHooks = { kind: "org", orgId: (await t.store.users.findByLogin("acme"))!.id };
  });
  after(() => t.close());
  beforeEach(async () => {
    for (const owner of [helloHooks, acmeHooks])
      for (const hook of await stored(owner)) await t.store.hooks.delete(owner, hook.id);
  });

  test("creates a repository hook: 201, Location, GitHub's hook object, the secret masked", async () => {
    const res = await call("POST", "/repos/alice/hello/hooks", {
      name: "web",
      events: ["push", "issues"],
      config: { url: "https://example.com/hook", content_type: "json", secret: SECRET },
    });
    assert.equal(res.statusCode, 201, res.body);
    const hook = res.json();
    assert.deepEqual(Object.keys(hook), HOOK_KEYS);
    const url = `http://localhost:80/repos/alice/hello/hooks/${hook.id}`;
    assert.equal(res.headers.location, hook.url);
    assert.deepEqual(
      { ...hook, id: 0, created_at: "", updated_at: "" },
      {
        type: "Repository",
        id: 0,
        name: "web",
        active: true,
        events: ["push", "issues"],
        config: { content_type: "json", insecure_ssl: "0", url: "https://example.com/hook", secret: "********" },
        updated_at: "",
        created_at: "",
        url: hook.url,
        test_url: `${hook.url}/test`,
        ping_url: `${hook.url}/pings`,
        deliveries_url: `${hook.url}/deliveries`,
        last_response: { code: null, status: "unused", message: null },
      },
    );
    assert.match(hook.url, /\/repos\/alice\/hello\/hooks\/\d+$/);
    assert.ok(hook.url.endsWith(url.slice(url.indexOf("/repos"))));
    assert.equal(hook.created_at, "2026-01-15T10:00:00Z");
    assert.ok(!res.body.includes(SECRET), "the secret is never returned");
    // Stored sealed: the database alone does not give it away.
    const [row] = await stored(helloHooks);
    assert.ok(row!.config.sealedSecret && !row!.config.sealedSecret.includes(SECRET));
  });

  test("GitHub's defaults: web, active, push, form, certificates verified; no secret key without a secret", async () => {
    const res = await call("POST", "/repos/alice/hello/hooks", { config: { url: "http://example.com/a" } });
    assert.equal(res.statusCode, 201, res.body);
    const { name, active, events, config } = res.json();
    assert.deepEqual(
      { name, active, events, config },
      {
        name: "web",
        active: true,
        events: ["push"],
        config: { content_type: "form", insecure_ssl: "0", url: "http://example.com/a" },
      },
    );
  });

  test("lists, gets, updates and deletes a repository hook", async () => {
    const id = (
      await call("POST", "/repos/alice/hello/hooks", { config: { url: "https://example.com/1", secret: SECRET } })
    ).json().id;
    await call("POST", "/repos/alice/hello/hooks", { config: { url: "https://example.com/2" } });
    const list = await call("GET", "/repos/alice/hello/hooks");
    assert.equal(list.statusCode, 200);
    assert.deepEqual(
      list.json().map((h: { config: { url: string } }) => h.config.url),
      ["https://example.com/1", "https://example.com/2"],
    );
    const page = await call("GET", "/repos/alice/hello/hooks?per_page=1");
    assert.equal(page.json().length, 1);
    assert.ok(links(page.headers.link).next?.endsWith("/repos/alice/hello/hooks?per_page=1&page=2"));

    const got = await call("GET", `/repos/alice/hello/hooks/${id}`);
    assert.equal(got.statusCode, 200);
    assert.equal(got.json().config.secret, "********");

    t.clock.advance(60 * 1000);
    const updated = await call("PATCH", `/repos/alice/hello/hooks/${id}`, {
      add_events: ["issues", "fork"],
      remove_events: ["push"],
      active: false,
    });
    assert.equal(updated.statusCode, 200, updated.body);
    assert.deepEqual([updated.json().events, updated.json().active], [["issues", "fork"], false]);
    assert.equal(updated.json().updated_at, "2026-01-15T10:01:00Z");
    assert.equal(updated.json().config.secret, "********", "the config is kept when not given");
    // A new config replaces the old one: GitHub drops the secret unless it is given again.
    const replaced = await call("PATCH", `/repos/alice/hello/hooks/${id}`, {
      config: { url: "https://example.com/3" },
      events: ["*"],
    });
    assert.deepEqual(
      [replaced.json().config, replaced.json().events],
      [{ content_type: "form", insecure_ssl: "0", url: "https://example.com/3" }, ["*"]],
    );
    // GitHub accepts POST for PATCH (wire notes 1.1).
    assert.equal((await call("POST", `/repos/alice/hello/hooks/${id}`, { active: true })).json().active, true);

    const deleted = await call("DELETE", `/repos/alice/hello/hooks/${id}`);
    assert.equal(deleted.statusCode, 204);
    assert.equal(deleted.body, "");
    assert.equal((await call("GET", `/repos/alice/hello/hooks/${id}`)).statusCode, 404);
    assert.equal((await call("DELETE", `/repos/alice/hello/hooks/${id}`)).statusCode, 404);
  });

  test("reads and changes a hook's config alone, keeping the keys not given", async () => {
    const id = (
      await call("POST", "/repos/alice/hello/hooks", {
        config: { url: "https://example.com/c", secret: SECRET, content_type: "json" },
      })
    ).json().id;
    const got = await call("GET", `/repos/alice/hello/hooks/${id}/config`);
    assert.equal(got.statusCode, 200);
    assert.deepEqual(got.json(), {
      content_type: "json",
      insecure_ssl: "0",
      url: "https://example.com/c",
      secret: "********",
    });
    const patched = await call("PATCH", `/repos/alice/hello/hooks/${id}/config`, {
      url: "https://example.com/d",
      insecure_ssl: 1,
    });
    assert.equal(patched.statusCode, 200, patched.body);
    assert.deepEqual(patched.json(), {
      content_type: "json",
      insecure_ssl: "1",
      url: "https://example.com/d",
      secret: "********",
    });
    const cleared = await call("PATCH", `/repos/alice/hello/hooks/${id}/config`, { secret: "" });
    assert.deepEqual(cleared.json(), { content_type: "json", insecure_ssl: "1", url: "https://example.com/d" });
  });

  test("organization hooks: GitHub's org-hook object, the same operations", async () => {
    const res = await call("POST", "/orgs/acme/hooks", {
      name: "web",
      config: { url: "https://example.com/org", secret: SECRET },
    });
    assert.equal(res.statusCode, 201, res.body);
    const hook = res.json();
    assert.deepEqual(Object.keys(hook), ORG_HOOK_KEYS);
    assert.equal(hook.type, "Organization");
    assert.match(hook.url, /\/orgs\/acme\/hooks\/\d+$/);
    assert.equal(hook.ping_url, `${hook.url}/pings`);
    assert.equal(res.headers.location, hook.url);
    assert.deepEqual(
      (await call("GET", "/orgs/acme/hooks")).json().map((h: { id: number }) => h.id),
      [hook.id],
    );
    assert.equal(
      (await call("PATCH", `/orgs/acme/hooks/${hook.id}`, { events: ["issues"] })).json().events[0],
      "issues",
    );
    assert.equal((await call("GET", `/orgs/acme/hooks/${hook.id}/config`)).json().secret, "********");
    assert.equal((await call("POST", `/orgs/acme/hooks/${hook.id}/pings`)).statusCode, 204);
    // A repository's hook id is not the organization's.
    assert.equal((await call("GET", `/repos/alice/hello/hooks/${hook.id}`)).statusCode, 404);
    assert.equal((await call("DELETE", `/orgs/acme/hooks/${hook.id}`)).statusCode, 204);
    assert.deepEqual(await stored(acmeHooks), []);
  });

  test("answers under /api/v3 too, with URLs that keep the prefix", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/v3/repos/alice/hello/hooks",
      headers: AS_ALICE,
      payload: { config: { url: "https://example.com/e" } },
    });
    assert.equal(res.statusCode, 201, res.body);
    assert.match(res.json().url, /\/api\/v3\/repos\/alice\/hello\/hooks\/\d+$/);
    assert.equal((await t.app.inject({ url: "/api/v3/orgs/acme/hooks", headers: AS_ALICE })).statusCode, 200);
  });

  test("pings (204) and tests (204) a hook; unknown hooks are 404", async () => {
    const id = (await call("POST", "/repos/alice/hello/hooks", { config: { url: "https://example.com/p" } })).json().id;
    for (const path of ["pings", "tests"]) {
      const res = await call("POST", `/repos/alice/hello/hooks/${id}/${path}`);
      assert.equal(res.statusCode, 204, `${path}: ${res.body}`);
      assert.equal(res.body, "");
      assert.equal((await call("POST", `/repos/alice/hello/hooks/999999/${path}`)).statusCode, 404);
      assert.equal((await call("POST", `/repos/alice/hello/hooks/abc/${path}`)).statusCode, 404);
    }
  });

  test("lists deliveries newest first with GitHub's cursor paging, shows one with its request and response, redelivers it", async () => {
    const hook = await createHook(t.store, helloHooks);
    for (let i = 0; i < 3; i++) await recordAttempt(t.store, hook, { guid: `guid-${i}`, statusCode: 200 + i });
    const base = `/repos/alice/hello/hooks/${hook.id}/deliveries`;
    const first = await call("GET", `${base}?per_page=2`);
    assert.equal(first.statusCode, 200);
    const items = first.json();
    assert.deepEqual(
      items.map((d: { guid: string }) => d.guid),
      ["guid-2", "guid-1"],
    );
    assert.deepEqual(Object.keys(items[0]), [
      "id",
      "guid",
      "delivered_at",
      "redelivery",
      "duration",
      "status",
      "status_code",
      "event",
      "action",
      "installation_id",
      "repository_id",
      "throttled_at",
    ]);
    const next = links(first.headers.link).next!;
    assert.match(next, new RegExp(`${base}\\?per_page=2&cursor=v1_${items[1].id}$`));
    const second = await call("GET", next.slice(next.indexOf("/repos")));
    assert.deepEqual(
      second.json().map((d: { guid: string }) => d.guid),
      ["guid-0"],
    );
    assert.equal(second.headers.link, undefined, "no next page after the last");
    assert.equal((await call("GET", `${base}?cursor=bogus`)).statusCode, 422);

    const one = await call("GET", `${base}/${items[0].id}`);
    assert.equal(one.statusCode, 200);
    const delivery = one.json();
    assert.equal(delivery.url, "https://receiver.example/hook");
    assert.deepEqual(delivery.request, {
      headers: { "X-GitHub-Event": "push", "X-GitHub-Delivery": "guid-2" },
      payload: { ref: "refs/heads/main" },
    });
    assert.deepEqual(delivery.response, { headers: { "content-type": "text/plain" }, payload: "thanks" });
    assert.equal((await call("GET", `${base}/999999`)).statusCode, 404);

    const redelivered = await call("POST", `${base}/${items[0].id}/attempts`);
    assert.equal(redelivered.statusCode, 202, redelivered.body);
    assert.deepEqual(redelivered.json(), {});
    assert.equal(await t.store.hooks.queued(hook.id), 1, "queued for delivery");
    assert.equal((await call("POST", `${base}/999999/attempts`)).statusCode, 404);
  });
});

describe("hooks API refuses bad input with GitHub's 422 and stores nothing", () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
    await new IngestService(t.store, t.clock.now).seedWorld(WORLD, { baseDir: undefined });
  });
  after(() => t.close());

  const refusals: [string, unknown, { field: string; code: string; message?: string | RegExp }][] = [
    [
      "no config",
      { events: ["push"] },
      { field: "config", code: "custom", message: "Config must contain URL for webhooks" },
    ],
    [
      "a config without url",
      { config: { content_type: "json" } },
      { field: "config", code: "custom", message: "Config must contain URL for webhooks" },
    ],
    [
      "a URL that is not one",
      { config: { url: "not a url" } },
      { field: "config", code: "custom", message: /^The URL you've entered is not valid/ },
    ],
    [
      "a URL of another scheme",
      { config: { url: "ftp://example.com/" } },
      { field: "config", code: "custom", message: /^The URL you've entered/ },
    ],
    [
      "an unknown event",
      { events: ["push", "pushes"], config: { url: "https://example.com/" } },
      { field: "events", code: "custom", message: '"pushes" is not a valid event name' },
    ],
    [
      "another name than web",
      { name: "email", config: { url: "https://example.com/" } },
      { field: "name", code: "invalid" },
    ],
    [
      "an unknown content type",
      { config: { url: "https://example.com/", content_type: "xml" } },
      { field: "config", code: "invalid" },
    ],
    [
      "insecure_ssl of 2",
      { config: { url: "https://example.com/", insecure_ssl: "2" } },
      { field: "config", code: "invalid" },
    ],
    ["config as a string", { config: "https://example.com/" }, { field: "config", code: "invalid" }],
    ["config.url as a number", { config: { url: 5 } }, { field: "config", code: "invalid" }],
    [
      "active as a string",
      { active: "yes", config: { url: "https://example.com/" } },
      { field: "active", code: "invalid" },
    ],
    [
      "events as a string",
      { events: "push", config: { url: "https://example.com/" } },
      { field: "events", code: "invalid" },
    ],
  ];
  for (const [path, owner] of [
    ["/repos/alice/hello/hooks", "repo"],
    ["/orgs/acme/hooks", "org"],
  ] as const) {
    for (const [what, payload, expected] of refusals) {
      test(`${owner} hooks: refuses ${what}`, async () => {
        const res = await t.app.inject({ method: "POST", url: path, headers: AS_ALICE, payload: payload as object });
        assert.equal(res.statusCode, 422, res.body);
        const body = res.json();
        assert.equal(body.message, "Validation Failed");
        assert.equal(
          body.documentation_url,
          owner === "repo"
            ? "https://docs.github.com/rest/repos/webhooks#create-a-repository-webhook"
            : "https://docs.github.com/rest/orgs/webhooks#create-an-organization-webhook",
        );
        const [error] = body.errors;
        assert.equal(error.resource, "Hook");
        assert.equal(error.field, expected.field);
        assert.equal(error.code, expected.code);
        if (typeof expected.message === "string") assert.equal(error.message, expected.message);
        else if (expected.message) assert.match(error.message, expected.message);
        const list = await t.app.inject({ url: path, headers: AS_ALICE });
        assert.deepEqual(list.json(), [], "nothing stored");
      });
    }
  }

  test("updates are checked the same way, and change nothing when refused", async () => {
    const created = await t.app.inject({
      method: "POST",
      url: "/repos/alice/hello/hooks",
      headers: AS_ALICE,
      payload: { config: { url: "https://example.com/keep" } },
    });
    const url = `/repos/alice/hello/hooks/${created.json().id}`;
    for (const payload of [
      { add_events: ["nope"] },
      { config: { url: "" } },
      { events: ["push"], config: { url: "https://example.com/x", content_type: "yaml" } },
    ]) {
      assert.equal(
        (await t.app.inject({ method: "PATCH", url, headers: AS_ALICE, payload })).statusCode,
        422,
        JSON.stringify(payload),
      );
    }
    assert.equal(
      (
        await t.app.inject({
          method: "PATCH",
          url: `${url}/config`,
          headers: AS_ALICE,
          payload: { url: "javascript:alert(1)" },
        })
      ).statusCode,
      422,
    );
    const after = (await t.app.inject({ url, headers: AS_ALICE })).json();
    assert.deepEqual(
      [after.events, after.config.url, after.config.content_type],
      [["push"], "https://example.com/keep", "form"],
    );
  });

  test("a hook on another user's repository is 404, and nothing is stored", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/repos/bob/tools/hooks",
      headers: AS_ALICE,
      payload: { config: { url: "https://example.com/" } },
    });
    assert.equal(res.statusCode, 404);
    assert.deepEqual(res.json(), { message: "Not Found", documentation_url: "https://developer.github.com/v3" });
    const bob = { authorization: basic("bob", "bob-password") };
    assert.deepEqual((await t.app.inject({ url: "/repos/bob/tools/hooks", headers: bob })).json(), []);
  });
});
