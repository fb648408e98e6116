/**
 * The users part of the store contract, on every driver: login users, their claims on imported accounts, and the
 * administration of accounts (suspension, two-factor secrets, every token, deletion).
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { DuplicateError } from "../../src/server/store/store.js";
import { addEvent, emptyBatch, parseEvent } from "../../src/server/services/event-envelope.js";
import { worldBatch } from "../../src/server/services/world.js";
import { contractSuite, type OpenedStore } from "../helpers/store-drivers.js";
import { NOW, LATER, HASH, newUser, newAuthorization } from "../helpers/store-rows.js";
import { COMPLETE_EVENT } from "../helpers/store-scenario.js";
import { snapshot } from "../helpers/ingest-fixtures.js";
import { event } from "../helpers/events.js";

contractSuite((driver) => {
  describe("users", () => {
    let s: OpenedStore;
    before(async () => {
      s = await driver.open();
    });
    after(() => s.close());

    test("create returns the login user, and findByLogin finds it whatever the letter case", async () => {
      const alice = await s.store.users.create(newUser("Alice", { siteAdmin: true, otpSecret: "JBSWY3DPEHPK3PXP" }));
      assert.equal(alice.login, "Alice");
      assert.equal(alice.type, "User");
      assert.equal(alice.wireId, alice.id);
      assert.equal(alice.passwordHash, HASH);
      assert.equal(alice.otpSecret, "JBSWY3DPEHPK3PXP");
      assert.equal(alice.siteAdmin, true);
      assert.ok(alice.createdAt instanceof Date && !Number.isNaN(alice.createdAt.getTime()));
      for (const login of ["Alice", "alice", "ALICE"])
        assert.deepEqual(await s.store.users.findByLogin(login), alice, login);
      assert.equal(await s.store.users.findByLogin("alic"), null);
      assert.deepEqual(await s.store.users.findById(alice.id), alice);
      assert.equal(await s.store.users.findById(alice.id + 1000), null);
    });

    test("a login taken in any letter case is a DuplicateError", async () => {
      await assert.rejects(s.store.users.create(newUser("aLiCe")), DuplicateError);
    });

    test("create claims an account known only from imported events: same row, GitHub's id kept", async () => {
      const batch = emptyBatch();
      addEvent(
        batch,
        parseEvent({ ...COMPLETE_EVENT, actor: { ...COMPLETE_EVENT.actor, login: "Importee" } }, "events[0]"),
      );
      await s.store.ingest.apply(batch, NOW);
      const imported = (await s.store.users.findByLogin("importee"))!;
      assert.equal(imported.passwordHash, null);
      assert.equal(imported.wireId, 9001);
      assert.equal(imported.createdAt.getTime(), NOW.getTime());

      const claimed = await s.store.users.create(newUser("IMPORTEE"));
      assert.equal(claimed.id, imported.id);
      assert.equal(claimed.login, "Importee");
      assert.equal(claimed.wireId, 9001);
      assert.equal(claimed.passwordHash, HASH);
      // Once claimed it has a password: a second claim is a duplicate.
      await assert.rejects(s.store.users.create(newUser("importee")), DuplicateError);
    });

    test("an organization's login cannot be claimed as a user", async () => {
      const batch = emptyBatch();
      batch.accounts.push({ source: "orgs[0]", login: "acme", type: "Organization" });
      await s.store.ingest.apply(batch, NOW);
      await assert.rejects(s.store.users.create(newUser("ACME")), DuplicateError);
      assert.equal((await s.store.users.findByLogin("acme"))!.passwordHash, null);
    });

    test("list and count cover only accounts that can log in, in creation order", async () => {
      const bob = await s.store.users.create(newUser("bob"));
      const listed = await s.store.users.list();
      assert.deepEqual(
        listed.map((u) => u.login),
        ["Alice", "Importee", "bob"],
      );
      assert.deepEqual(
        listed.map((u) => u.id),
        [...listed.map((u) => u.id)].sort((a, b) => a - b),
      );
      assert.equal(await s.store.users.count(), 3);
      assert.deepEqual(listed[2], bob);
      // The imported actor of the repository and the organization exist, but are not login users.
      assert.equal((await s.store.users.findByLogin("dave"))?.passwordHash, null);
      assert.equal((await s.store.users.findByLogin("acme"))?.type, "Organization");
    });

    test("setPassword replaces the hash", async () => {
      const bob = (await s.store.users.findByLogin("bob"))!;
      await s.store.users.setPassword(bob.id, "scrypt$another");
      assert.equal((await s.store.users.findById(bob.id))!.passwordHash, "scrypt$another");
      assert.equal((await s.store.users.findByLogin("alice"))!.passwordHash, HASH);
    });
  });

  describe("account administration", () => {
    let s: OpenedStore;
    const id = async (login: string) => (await s.store.users.findByLogin(login))!.id;
    /** The rows of a relation table that name the account, in any column. */
    const rowsNaming = async (table: string, accountId: number) =>
      ((await snapshot(s.db))[table] as Record<string, unknown>[]).filter((row) =>
        Object.entries(row).some(
          ([column, value]) => column !== "id" && column.endsWith("_id") && Number(value) === accountId,
        ),
      );
    before(async () => {
      s = await driver.open();
      // zoe has relations of every kind and no history; ivy acts in an event; both hold tokens.
      await s.store.ingest.apply(
        await worldBatch(
          s.store,
          {
            users: [
              {
                login: "zoe",
                password: "zoe-pw",
                otp_secret: "JBSWY3DPEHPK3PXP",
                site_admin: true,
                following: ["bob"],
                watching: ["bob/repo"],
              },
              { login: "bob", password: "bob-pw", following: ["zoe", "ivy"] },
              { login: "ivy", password: "ivy-pw" },
            ],
            orgs: [{ login: "acme", members: ["zoe", "ivy"] }],
            repos: [{ full_name: "bob/repo", collaborators: ["zoe"] }],
            events: [event("501", "PushEvent", "ivy", "bob/repo", { public: true })],
          },
          { baseDir: undefined },
        ),
        NOW,
      );
      for (const [n, login] of [
        [1, "zoe"],
        [2, "zoe"],
        [3, "bob"],
        [4, "ivy"],
      ] as const) {
        await s.store.authorizations.create(newAuthorization(await id(login), n), new Date(NOW.getTime() + n * 1000));
      }
    });
    after(() => s.close());

    test("a new user is not suspended; setSuspended sets and clears the time, setOtpSecret the secret", async () => {
      const bob = await id("bob");
      assert.equal((await s.store.users.findById(bob))!.suspendedAt, null);
      await s.store.users.setSuspended(bob, LATER);
      assert.deepEqual((await s.store.users.findByLogin("BOB"))!.suspendedAt, LATER);
      assert.deepEqual((await s.store.users.list()).find((u) => u.id === bob)!.suspendedAt, LATER);
      await s.store.users.setSuspended(bob, null);
      assert.equal((await s.store.users.findById(bob))!.suspendedAt, null);
      await s.store.users.setOtpSecret(bob, "KRSXG5CTMVRXEZLU");
      assert.equal((await s.store.users.findById(bob))!.otpSecret, "KRSXG5CTMVRXEZLU");
      await s.store.users.setOtpSecret(bob, null);
      assert.equal((await s.store.users.findById(bob))!.otpSecret, null);
    });

    test("listAll gives every token with its owner's login, oldest first, or one user's; countByUser counts them", async () => {
      const all = await s.store.authorizations.listAll();
      assert.deepEqual(
        all.map((a) => [a.login, a.note]),
        [
          ["zoe", "note 1"],
          ["zoe", "note 2"],
          ["bob", "note 3"],
          ["ivy", "note 4"],
        ],
      );
      assert.deepEqual(all[0], { ...(await s.store.authorizations.find(await id("zoe"), all[0]!.id))!, login: "zoe" });
      assert.deepEqual(
        (await s.store.authorizations.listAll(await id("zoe"))).map((a) => a.note),
        ["note 1", "note 2"],
      );
      assert.deepEqual(await s.store.authorizations.listAll(await id("acme")), []);
      assert.deepEqual(
        await s.store.authorizations.countByUser(),
        new Map([
          [await id("zoe"), 2],
          [await id("bob"), 1],
          [await id("ivy"), 1],
        ]),
      );
    });

    test("revoke deletes a token by id whoever owns it, once", async () => {
      const [bobs] = await s.store.authorizations.listAll(await id("bob"));
      const { login, ...row } = bobs!;
      assert.equal(login, "bob");
      assert.deepEqual(await s.store.authorizations.revoke(row.id), row);
      assert.equal(await s.store.authorizations.revoke(row.id), null);
      assert.deepEqual(await s.store.authorizations.findByTokenLastEight(row.tokenLastEight), []);
      assert.equal((await s.store.authorizations.countByUser()).get(await id("bob")), undefined);
    });

    test("delete of an account history does not name removes its row, tokens and every relation, and raises the generation", async () => {
      const zoe = await id("zoe");
      const before = await s.store.events.version();
      assert.deepEqual(await s.store.users.delete(zoe), { authorizationsDeleted: 2, rowKept: false });
      assert.equal(await s.store.users.findByLogin("zoe"), null);
      for (const table of ["authorizations", "follows", "watches", "org_members", "collaborators"]) {
        assert.deepEqual(await rowsNaming(table, zoe), [], table);
      }
      const after = await s.store.events.version();
      assert.equal(after.generation, before.generation + 1);
      assert.ok(after.credentials > before.credentials && after.access > before.access);
      assert.ok((await s.store.events.receivedVersion(zoe)) > 0);
      // Other accounts' relations stay.
      assert.equal((await rowsNaming("follows", await id("ivy"))).length, 1);
      assert.ok(await s.store.directory.isMember(await id("acme"), await id("ivy")));
      // The login is free again.
      assert.equal((await s.store.users.create(newUser("zoe"))).login, "zoe");
    });

    test("delete of an account an event names keeps the row without credentials, and the event", async () => {
      const ivy = await id("ivy");
      await s.store.users.setSuspended(ivy, NOW);
      assert.deepEqual(await s.store.users.delete(ivy), { authorizationsDeleted: 1, rowKept: true });
      const kept = (await s.store.users.findById(ivy))!;
      assert.deepEqual(
        [kept.login, kept.passwordHash, kept.otpSecret, kept.siteAdmin, kept.suspendedAt],
        ["ivy", null, null, false, null],
      );
      assert.ok(!(await s.store.users.list()).some((u) => u.id === ivy));
      for (const table of ["authorizations", "follows", "org_members"])
        assert.deepEqual(await rowsNaming(table, ivy), [], table);
      const feed = await s.store.events.feed(
        { kind: "actor", actorId: ivy },
        { limit: 10, offset: 0, visibility: { kind: "public" }, notBefore: null },
      );
      assert.equal(feed.total, 1);
    });
  });
});
