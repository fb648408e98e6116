/**
 * The authorizations part of the store contract, on every driver: tokens kept hashed, found by their last eight
 * characters, paged, updated and deleted only by their owner.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { DuplicateError } from "../../src/server/store/store.js";
import { hashToken } from "../../src/server/services/credentials.js";
import { contractSuite, type OpenedStore } from "../helpers/store-drivers.js";
import { NOW, LATER, newUser, token, newAuthorization } from "../helpers/store-rows.js";

contractSuite((driver) => {
  describe("authorizations", () => {
    let s: OpenedStore;
    before(async () => {
      s = await driver.open();
    });
    after(() => s.close());

    let made = 0;
    /** Two users of the calling test's own, so that a test reads only what it wrote (its tokens' numbers are its own too). */
    async function owners(): Promise<[alice: number, bob: number]> {
      made++;
      const alice = await s.store.users.create(newUser(`alice${made}`));
      const bob = await s.store.users.create(newUser(`bob${made}`));
      return [alice.id, bob.id];
    }

    test("create stores every field and both times; find returns it only to its owner", async () => {
      const [alice, bob] = await owners();
      const created = await s.store.authorizations.create(
        {
          ...newAuthorization(alice, 1, { scopes: ["repo", "user"] }),
          noteUrl: "https://ci.example",
          fingerprint: "fp",
        },
        NOW,
      );
      assert.deepEqual(
        { ...created, id: 0 },
        {
          id: 0,
          userId: alice,
          hashedToken: hashToken(token(1)),
          tokenLastEight: token(1).slice(-8),
          scopes: ["repo", "user"],
          note: "note 1",
          noteUrl: "https://ci.example",
          fingerprint: "fp",
          createdAt: NOW,
          updatedAt: NOW,
          expiresAt: null,
          fineGrained: null,
          oauthAppId: null,
        },
      );
      assert.deepEqual(await s.store.authorizations.find(alice, created.id), created);
      assert.equal(await s.store.authorizations.find(bob, created.id), null);
      assert.equal(await s.store.authorizations.find(alice, created.id + 1000), null);
    });

    test("a token already stored is a DuplicateError, for any user", async () => {
      const [alice, bob] = await owners();
      await s.store.authorizations.create(newAuthorization(alice, 10), NOW);
      await assert.rejects(s.store.authorizations.create(newAuthorization(alice, 10), NOW), DuplicateError);
      await assert.rejects(s.store.authorizations.create(newAuthorization(bob, 10), NOW), DuplicateError);
    });

    test("list pages oldest first with the user's total", async () => {
      const [alice, bob] = await owners();
      for (let n = 11; n <= 15; n++)
        await s.store.authorizations.create(newAuthorization(alice, n), new Date(NOW.getTime() + n * 1000));
      await s.store.authorizations.create(newAuthorization(bob, 16), NOW);
      const all = await s.store.authorizations.list(alice, { limit: 100, offset: 0 });
      assert.equal(all.total, 5);
      assert.deepEqual(
        all.rows.map((a) => a.note),
        ["note 11", "note 12", "note 13", "note 14", "note 15"],
      );
      const second = await s.store.authorizations.list(alice, { limit: 2, offset: 2 });
      assert.deepEqual(second, { rows: all.rows.slice(2, 4), total: 5 });
      assert.deepEqual(await s.store.authorizations.list(alice, { limit: 2, offset: 4 }), {
        rows: all.rows.slice(4),
        total: 5,
      });
      assert.deepEqual(await s.store.authorizations.list(alice, { limit: 2, offset: 10 }), { rows: [], total: 5 });
      const bobs = await s.store.authorizations.list(bob, { limit: 100, offset: 0 });
      assert.deepEqual(
        bobs.rows.map((a) => a.note),
        ["note 16"],
      );
      assert.equal(bobs.total, 1);
    });

    test("a fine-grained token keeps its grant whole, and each kind is listed apart from the other", async () => {
      const [alice, bob] = await owners();
      const classicRow = await s.store.authorizations.create(newAuthorization(alice, 41), NOW);
      const grant = {
        ownerId: bob,
        repositorySelection: "subset" as const,
        repositoryIds: [7, 3],
        permissions: { metadata: "read" as const, repository_hooks: "write" as const },
        description: "hooks of two repositories",
      };
      const created = await s.store.authorizations.create(
        { ...newAuthorization(alice, 40, { scopes: [] }), fineGrained: grant },
        NOW,
      );
      assert.deepEqual(created.fineGrained, grant);
      assert.deepEqual(await s.store.authorizations.find(alice, created.id), created);
      const fineGrained = await s.store.authorizations.list(alice, { limit: 100, offset: 0 }, "fine-grained");
      assert.deepEqual(fineGrained, { rows: [created], total: 1 });
      const classic = await s.store.authorizations.list(alice, { limit: 100, offset: 0 });
      assert.deepEqual(classic, { rows: [classicRow], total: 1 });
      assert.ok(await s.store.authorizations.delete(alice, created.id));
    });

    test("update sets the fields given (null included), keeps the absent ones, and moves only updatedAt", async () => {
      const [alice, bob] = await owners();
      const first = await s.store.authorizations.create(
        { ...newAuthorization(alice, 30), noteUrl: "https://ci.example", fingerprint: "fp" },
        NOW,
      );
      const cleared = await s.store.authorizations.update(alice, first.id, { note: null, scopes: ["gist"] }, LATER);
      assert.deepEqual(cleared, { ...first, note: null, scopes: ["gist"], updatedAt: LATER });

      const later = new Date(LATER.getTime() + 60_000);
      const untouched = await s.store.authorizations.update(alice, first.id, {}, later);
      assert.deepEqual(untouched, { ...cleared!, updatedAt: later });

      const fingerprinted = await s.store.authorizations.update(
        alice,
        first.id,
        { fingerprint: "fp2", noteUrl: null },
        later,
      );
      assert.deepEqual(fingerprinted, { ...untouched!, fingerprint: "fp2", noteUrl: null });
      assert.deepEqual(await s.store.authorizations.find(alice, first.id), fingerprinted);

      assert.equal(await s.store.authorizations.update(bob, first.id, { note: "stolen" }, later), null);
      assert.equal((await s.store.authorizations.find(alice, first.id))!.note, null);
    });

    test("an expiry is stored, found by the token's last eight, set, kept when unmentioned, and cleared with null", async () => {
      const [alice] = await owners();
      const expiresAt = new Date(NOW.getTime() + 30 * 86_400_000);
      const created = await s.store.authorizations.create(newAuthorization(alice, 9, { expiresAt }), NOW);
      assert.deepEqual(created.expiresAt, expiresAt);
      assert.deepEqual(await s.store.authorizations.find(alice, created.id), created);
      assert.deepEqual(await s.store.authorizations.findByTokenLastEight(created.tokenLastEight), [created]);

      const sooner = new Date(NOW.getTime() + 7 * 86_400_000);
      const moved = await s.store.authorizations.update(alice, created.id, { expiresAt: sooner }, LATER);
      assert.deepEqual(moved, { ...created, expiresAt: sooner, updatedAt: LATER });
      const noted = await s.store.authorizations.update(alice, created.id, { note: "kept expiry" }, LATER);
      assert.deepEqual(noted!.expiresAt, sooner);
      const cleared = await s.store.authorizations.update(alice, created.id, { expiresAt: null }, LATER);
      assert.equal(cleared!.expiresAt, null);
      assert.equal((await s.store.authorizations.find(alice, created.id))!.expiresAt, null);
      assert.equal(await s.store.authorizations.delete(alice, created.id), true);
    });

    test("findByTokenLastEight returns every candidate with those last eight characters", async () => {
      const [alice, bob] = await owners();
      const shared = "zzzz0000";
      const a = await s.store.authorizations.create(newAuthorization(alice, 7, { lastEight: shared }), NOW);
      const b = await s.store.authorizations.create(newAuthorization(bob, 8, { lastEight: shared }), NOW);
      const found = await s.store.authorizations.findByTokenLastEight(shared);
      assert.deepEqual(
        found.sort((x, y) => x.id - y.id),
        [a, b],
      );
      assert.deepEqual(await s.store.authorizations.findByTokenLastEight("nothing!"), []);
    });

    test("delete removes only the owner's row, once", async () => {
      const [alice, bob] = await owners();
      const row = await s.store.authorizations.create(newAuthorization(alice, 50), NOW);
      const kept = await s.store.authorizations.create(newAuthorization(alice, 51), LATER);
      assert.equal(await s.store.authorizations.delete(bob, row.id), false);
      assert.ok(await s.store.authorizations.find(alice, row.id));
      assert.equal(await s.store.authorizations.delete(alice, row.id), true);
      assert.equal(await s.store.authorizations.delete(alice, row.id), false);
      assert.equal(await s.store.authorizations.find(alice, row.id), null);
      assert.deepEqual(await s.store.authorizations.findByTokenLastEight(row.tokenLastEight), []);
      assert.deepEqual(await s.store.authorizations.list(alice, { limit: 100, offset: 0 }), { rows: [kept], total: 1 });
    });

    test("revokeByHashes deletes every listed token of any owner in one go, passes over unknown hashes, and raises the credentials version", async () => {
      const [alice, bob] = await owners();
      const a = await s.store.authorizations.create(newAuthorization(alice, 20), NOW);
      const b = await s.store.authorizations.create(newAuthorization(bob, 21), NOW);
      const kept = await s.store.authorizations.create(newAuthorization(bob, 22), NOW);
      const before = await s.store.events.version();
      const revoked = await s.store.authorizations.revokeByHashes([
        hashToken(token(20)),
        hashToken(token(21)),
        hashToken("unknown"),
      ]);
      assert.deepEqual(
        revoked.sort((x, y) => x.id - y.id),
        [a, b],
      );
      assert.equal(await s.store.authorizations.find(alice, a.id), null);
      assert.equal(await s.store.authorizations.find(bob, b.id), null);
      assert.deepEqual(await s.store.authorizations.find(bob, kept.id), kept);
      assert.ok((await s.store.events.version()).credentials > before.credentials);
      assert.deepEqual(await s.store.authorizations.revokeByHashes([hashToken(token(20))]), []);
      assert.deepEqual(await s.store.authorizations.revokeByHashes([]), []);
    });

    test("a token of an OAuth app keeps its app; the app's grant revocation deletes only the user's tokens of it", async () => {
      const [alice, bob] = await owners();
      const app = await s.store.oauthApps.create(
        {
          clientId: `client${made}`,
          clientSecretHash: hashToken("secret"),
          name: "App",
          ownerId: null,
          url: "http://127.0.0.1/",
          callbackUrl: "http://127.0.0.1/cb",
          deviceFlow: false,
          suspended: false,
        },
        NOW,
      );
      const mine = await s.store.authorizations.create({ ...newAuthorization(alice, 9030), oauthAppId: app.id }, NOW);
      await s.store.authorizations.create({ ...newAuthorization(bob, 9031), oauthAppId: app.id }, NOW);
      assert.equal(mine.oauthAppId, app.id);
      assert.deepEqual(await s.store.oauthApps.tokensOf(app.id, alice), [{ id: mine.id, scopes: mine.scopes }]);
      assert.equal(await s.store.oauthApps.revokeGrant(app.id, alice, '{"action":"revoked"}', NOW), 1);
      assert.equal(await s.store.oauthApps.revokeGrant(app.id, alice, '{"action":"revoked"}', NOW), 0);
      assert.equal(await s.store.authorizations.find(alice, mine.id), null);
      assert.equal((await s.store.oauthApps.tokensOf(app.id, bob)).length, 1);
    });
  });
});
