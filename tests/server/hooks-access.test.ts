/**
 * Who may manage hooks: the repository's owner, members of its owning organization, site administrators (an
 * organization's: its owners and site administrators, as on GitHub), with a password or a token holding the row's scopes.
 * Everyone else gets 404, as for private feeds, and changes nothing. Every hooks row of the endpoint table is
 * covered, so a new row is too: a token holding every OTHER scope is refused (Gitea's test).
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { basic, startTestApp, type TestApp } from "../helpers/test-app.js";
import { WORLD } from "../helpers/client-world.js";
import { createHook, recordAttempt } from "../helpers/hook-fixtures.js";
import { IngestService } from "../../src/server/services/ingest.js";
import { endpoints, type Endpoint } from "../../src/api/endpoints.js";
import { expand, SCOPE_NAMES } from "../../src/api/scopes.js";
import type { HookRow } from "../../src/server/store/hook-store.js";

const NOT_FOUND = { message: "Not Found", documentation_url: "https://developer.github.com/v3" };
const ROWS = Object.entries(endpoints.hooks) as [string, Endpoint][];

describe("hooks: who may", () => {
  let t: TestApp;
  const hooks: Record<"repo" | "secret" | "org", HookRow | null> = { repo: null, secret: null, org: null };
  const token = async (login: string, scopes: string[]) =>
    `token ${(await t.createToken((await t.store.users.findByLogin(login))!, scopes)).token}`;
  /** The row's path for alice/hello (or alice/secret), acme, the seeded hook and its delivery. */
  const seeded = (row: Endpoint, repo: string) =>
    row.path.startsWith("/orgs/") ? hooks.org! : repo === "hello" ? hooks.repo! : hooks.secret!;
  const urlOf = async (row: Endpoint, repo: string, hook = seeded(row, repo)) => {
    const [delivery] = await t.store.hooks.deliveries(hook.id, 1, null);
    return row.path
      .replace(":user", "alice")
      .replace(":repo", repo)
      .replace(":org", "acme")
      .replace(":hook_id", String(hook.id))
      .replace(":delivery_id", String(delivery?.id ?? 0));
  };
  // Inactive, so that nothing is pinged: deliveries are not under test. A bulk redelivery's window is a day.
  const send = async (row: Endpoint, authorization: string | undefined, repo = "hello", hook?: HookRow) =>
    t.app.inject({
      method: row.method,
      url: await urlOf(row, repo, hook),
      headers: authorization ? { authorization } : {},
      ...(row.method === "POST" || row.method === "PATCH"
        ? {
            payload: {
              config: { url: "https://intruder.example/" },
              active: false,
              ...("since" in row.params ? { since: "1d" } : {}),
            },
          }
        : {}),
    });
  /** Everything a refused request must leave as it was: the hooks as configured, and what is queued for the seeded ones. */
  const snapshot = async () =>
    JSON.stringify(
      await Promise.all(
        [hooks.repo!, hooks.secret!, hooks.org!].map(async (h) => [
          (await t.store.hooks.list(h.owner, { limit: 100, offset: 0 })).rows.map(
            ({ lastResponse: _, ...hook }) => hook,
          ),
          await t.store.hooks.queued(h.id),
        ]),
      ),
    );

  before(async () => {
    t = await startTestApp();
    await new IngestService(t.store, t.clock.now).seedWorld(WORLD, { baseDir: undefined });
    await t.createUser("root", "root-password", { siteAdmin: true });
    await t.createUser("carol", "carol-password");
    const repoOf = async (name: string) => ({
      kind: "repo" as const,
      repoId: (await t.store.directory.findRepo("alice", name))!.id,
    });
    hooks.repo = await createHook(t.store, await repoOf("hello"));
    hooks.secret = await createHook(t.store, await repoOf("secret"));
    hooks.org = await createHook(t.store, { kind: "org", orgId: (await t.store.users.findByLogin("acme"))!.id });
    for (const hook of Object.values(hooks)) await recordAttempt(t.store, hook!);
  });
  after(() => t.close());

  for (const [name, row] of ROWS) {
    const granting = new Set(
      row.acceptedScopes.flatMap((scope) => [...SCOPE_NAMES].filter((s) => expand(s).has(scope))),
    );
    test(`hooks.${name}: 404 for anonymous callers, strangers, and a token holding every other scope; nothing changes`, async () => {
      const before = await snapshot();
      const others = await token(
        "alice",
        SCOPE_NAMES.filter((scope) => !granting.has(scope)),
      );
      for (const [who, authorization] of [
        ["anonymous", undefined],
        ["bob", basic("bob", "bob-password")],
        ["carol", basic("carol", "carol-password")],
        ["alice's token without the scopes", others],
      ] as const) {
        const res = await send(row, authorization);
        assert.equal(res.statusCode, 404, `${who}: ${res.body}`);
        assert.deepEqual(res.json(), NOT_FOUND, who);
      }
      assert.equal(await snapshot(), before);
    });

    test(`hooks.${name}: served to the owner's password, a token with ${row.acceptedScopes.join(" or ")}, and a site administrator`, async () => {
      const isOrg = row.path.startsWith("/orgs/");
      const scope = isOrg ? "admin:org_hook" : "admin:repo_hook";
      // Every hook's bulk redelivery is the site administrators' alone.
      const allowed = row.path.startsWith("/admin/")
        ? [basic("root", "root-password"), await token("root", ["site_admin"])]
        : [basic("alice", "alice-password"), await token("alice", [scope]), basic("root", "root-password")];
      for (const authorization of allowed) {
        // A delete takes a hook of its own, so that the seeded one stays for the other rows.
        const own = row.method === "DELETE" ? await createHook(t.store, seeded(row, "hello").owner) : undefined;
        const res = await send(row, authorization, "hello", own);
        // A bulk redelivery of a window whose deliveries all succeeded is served as its 422: nothing to queue.
        const served =
          "since" in row.params ? res.statusCode === 422 && /no failed delivery/.test(res.body) : res.statusCode < 300;
        assert.ok(served, `${res.statusCode} ${res.body}`);
      }
    });
  }

  test("read:repo_hook reads and pings, but neither creates nor deletes", async () => {
    const read = await token("alice", ["read:repo_hook"]);
    const { hooks: rows } = endpoints;
    assert.equal((await send(rows.list, read)).statusCode, 200);
    assert.equal((await send(rows.ping, read)).statusCode, 204);
    assert.equal((await send(rows.create, read)).statusCode, 404);
    assert.equal((await send(rows.delete, read)).statusCode, 404);
    // The seeded hook is the target: a refusal leaves it.
    const write = await token("alice", ["write:repo_hook"]);
    assert.equal((await send(rows.updateConfig, write)).statusCode, 200);
    assert.equal((await send(rows.delete, write)).statusCode, 404, "deleting needs admin:repo_hook");
  });

  test("public_repo covers public repositories only; repo covers private ones too", async () => {
    const publicRepo = await token("alice", ["public_repo"]);
    assert.equal((await send(endpoints.hooks.list, publicRepo)).statusCode, 200);
    assert.equal((await send(endpoints.hooks.list, publicRepo, "secret")).statusCode, 404);
    assert.equal((await send(endpoints.hooks.list, await token("alice", ["repo"]), "secret")).statusCode, 200);
  });

  test("the owners of the organization owning a repository manage its hooks, its plain members do not; organization hooks need admin:org_hook", async () => {
    const olga = basic("olga", "olga-password");
    // olga has two-factor authentication: her password alone is refused, so she uses tokens here. She is a plain member.
    assert.equal(
      (await t.app.inject({ url: "/repos/acme/site/hooks", headers: { authorization: await token("olga", ["repo"]) } }))
        .statusCode,
      404,
    );
    assert.equal(
      (
        await t.app.inject({
          url: "/repos/acme/site/hooks",
          headers: { authorization: await token("alice", ["repo"]) },
        })
      ).statusCode,
      200,
    );
    assert.equal(
      (
        await t.app.inject({
          url: "/orgs/acme/hooks",
          headers: { authorization: await token("alice", ["repo", "admin:org"]) },
        })
      ).statusCode,
      404,
    );
    assert.equal((await t.app.inject({ url: "/orgs/acme/hooks", headers: { authorization: olga } })).statusCode, 401);
    assert.equal(
      (await t.app.inject({ url: "/orgs/acme/hooks", headers: { authorization: basic("bob", "bob-password") } }))
        .statusCode,
      404,
    );
  });

  test("only the organization's owners manage its hooks: a plain member gets 404, as a stranger does, and changes nothing", async () => {
    const before = await snapshot();
    // olga is a member of acme, not an owner; alice owns it.
    const olgaOrg = await token("olga", ["admin:org_hook"]);
    for (const row of ROWS.filter(([, row]) => row.path.startsWith("/orgs/")).map(([, row]) => row)) {
      const res = await send(row, olgaOrg);
      assert.equal(res.statusCode, 404, `${row.method} ${row.path}: ${res.body}`);
      assert.deepEqual(res.json(), NOT_FOUND);
    }
    assert.equal(await snapshot(), before);
    const owner = await t.app.inject({
      url: "/orgs/acme/hooks",
      headers: { authorization: await token("alice", ["admin:org_hook"]) },
    });
    assert.equal(owner.statusCode, 200);
    assert.ok(owner.json().some((hook: { id: number }) => hook.id === hooks.org!.id));
  });
});
