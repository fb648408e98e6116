/**
 * Organization roles in the store contract, on every driver: GitHub's owners (the `admin` role) and members, as an
 * ingest states them; an owner administers the organization's repositories; and migration 14, which gives every
 * membership stored before it the member's role.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import Database from "better-sqlite3";
import pg from "pg";
import { contractSuite, openStore, type OpenedStore } from "../helpers/store-drivers.js";
import { NOW } from "../helpers/store-rows.js";
import { emptyBatch } from "../../src/server/services/event-envelope.js";
import { migrations } from "../../src/server/store/migrations/index.js";
import type { IngestBatch, OrgRole, Store } from "../../src/server/store/store.js";

const ROLES_MIGRATION = 14;

/** A batch of acme's memberships, with its two repositories and a user who is nobody to it. */
function memberships(roles: Record<string, OrgRole | undefined>): IngestBatch {
  const batch = emptyBatch();
  batch.accounts.push({ source: "orgs[0]", login: "acme", type: "Organization" });
  for (const login of ["alice", "bob", "carol"]) batch.accounts.push({ source: "users", login, type: "User" });
  for (const [member, role] of Object.entries(roles))
    batch.memberships.push({ source: "orgs[0]", org: "acme", member, role });
  batch.repos.push(
    { source: "repos[0]", fullName: "acme/vault", private: true },
    { source: "repos[1]", fullName: "acme/site" },
  );
  return batch;
}

const idOf = async (store: Store, login: string) => (await store.users.findByLogin(login))!.id;

contractSuite((driver) => {
  describe("organization roles", () => {
    let s: OpenedStore;
    const role = async (login: string) =>
      s.store.directory.orgRole(await idOf(s.store, "acme"), await idOf(s.store, login));
    before(async () => {
      s = await driver.open();
      // bob's role left out: a member's.
      await s.store.ingest.apply(memberships({ alice: "admin", bob: undefined }), NOW);
    });
    after(() => s.close());

    test("orgRole: admin for an owner, member for a member, null for anyone else; both are members", async () => {
      assert.deepEqual([await role("alice"), await role("bob"), await role("carol")], ["admin", "member", null]);
      const acme = await idOf(s.store, "acme");
      assert.equal(await s.store.directory.isMember(acme, await idOf(s.store, "alice")), true);
      assert.equal(await s.store.directory.isMember(acme, await idOf(s.store, "bob")), true);
    });

    test("an owner of the organization is the owner of its repositories, private or public; a member reads them", async () => {
      for (const name of ["vault", "site"]) {
        const repo = (await s.store.directory.findRepo("acme", name))!;
        assert.equal(await s.store.directory.repoRole(await idOf(s.store, "alice"), repo.id), "owner", name);
        assert.equal(await s.store.directory.repoRole(await idOf(s.store, "bob"), repo.id), "member", name);
        assert.equal(await s.store.directory.repoRole(await idOf(s.store, "carol"), repo.id), null, name);
      }
    });

    test("a later ingest changes a role, raising the access number; stating the same roles again raises nothing", async () => {
      const before = (await s.store.events.version()).access;
      await s.store.ingest.apply(memberships({ alice: "admin", bob: "member" }), NOW);
      assert.equal((await s.store.events.version()).access, before, "unchanged roles");
      await s.store.ingest.apply(memberships({ alice: "member", bob: "admin" }), NOW);
      assert.deepEqual([await role("alice"), await role("bob")], ["member", "admin"]);
      assert.ok((await s.store.events.version()).access > before, "a changed role");
    });
  });

  describe("migration 14: organization roles", () => {
    test("keeps every membership stored before it a member's", async () => {
      const database = await driver.createEmpty();
      try {
        const earlier = migrations.filter((m) => m.id < ROLES_MIGRATION);
        const setUp = [
          ...earlier.map((m) => (driver.name === "sqlite" ? m.sqlite : m.postgres)),
          `INSERT INTO users (login, type, created_at) VALUES ('acme', 'Organization', '2026-01-01T00:00:00Z'),
            ('alice', 'User', '2026-01-01T00:00:00Z')`,
          `INSERT INTO org_members (org_id, user_id) SELECT o.id, u.id FROM users o, users u WHERE o.login = 'acme' AND u.login = 'alice'`,
        ];
        if (driver.name === "sqlite") {
          const db = new Database(database.db);
          db.exec(
            "CREATE TABLE schema_migrations (id INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)",
          );
          for (const sql of setUp) db.exec(sql);
          for (const m of earlier)
            db.prepare("INSERT INTO schema_migrations VALUES (?, ?, ?)").run(m.id, m.name, NOW.toISOString());
          db.close();
        } else {
          const client = new pg.Client({ connectionString: database.db });
          await client.connect();
          await client.query(
            "CREATE TABLE schema_migrations (id integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL)",
          );
          for (const sql of setUp) await client.query(sql);
          for (const m of earlier)
            await client.query("INSERT INTO schema_migrations VALUES ($1, $2, now())", [m.id, m.name]);
          await client.end();
        }
        const store = await openStore(database.db);
        try {
          const acme = await idOf(store, "acme");
          assert.equal(await store.directory.orgRole(acme, await idOf(store, "alice")), "member");
          assert.equal(await store.directory.isMember(acme, await idOf(store, "alice")), true);
        } finally {
          await store.close();
        }
      } finally {
        await database.drop();
      }
    });
  });
});
