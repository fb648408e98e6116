/** The sessions store contract (console sign-in sessions), on every driver. */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { DRIVERS, type OpenedStore } from "../helpers/store-drivers.js";

const NOW = new Date("2026-01-15T10:00:00Z");
const at = (seconds: number) => new Date(NOW.getTime() + seconds * 1000);
const hash = (n: number) => n.toString(16).padStart(64, "0");

for (const driver of DRIVERS) {
  describe(`sessions store contract: ${driver.name}`, { skip: driver.skip }, () => {
    let s: OpenedStore;
    let userId: number;
    before(async () => {
      s = await driver.open();
      userId = (
        await s.store.users.create({ login: "alice", passwordHash: "scrypt$x", otpSecret: null, siteAdmin: false })
      ).id;
    });
    after(() => s.close());

    test("a session is created, found by its hash, touched and deleted", async () => {
      const created = await s.store.sessions.create({ idHash: hash(1), userId, credential: "c1", verified: true }, NOW);
      assert.deepEqual(created, {
        idHash: hash(1),
        userId,
        credential: "c1",
        verified: true,
        createdAt: NOW,
        lastSeenAt: NOW,
      });
      assert.deepEqual(await s.store.sessions.find(hash(1)), created);
      assert.equal(await s.store.sessions.find(hash(2)), null);
      await s.store.sessions.touch(hash(1), at(60));
      assert.deepEqual((await s.store.sessions.find(hash(1)))?.lastSeenAt, at(60));
      assert.equal(await s.store.sessions.delete(hash(1)), true);
      assert.equal(await s.store.sessions.delete(hash(1)), false);
      assert.equal(await s.store.sessions.find(hash(1)), null);
    });

    test("a pending two-factor session is stored as not verified", async () => {
      await s.store.sessions.create({ idHash: hash(3), userId, credential: "c1", verified: false }, NOW);
      assert.equal((await s.store.sessions.find(hash(3)))?.verified, false);
    });

    test("expired sessions are deleted, by idle time or by age", async () => {
      await s.store.sessions.create({ idHash: hash(10), userId, credential: "c", verified: true }, at(-7200)); // old
      await s.store.sessions.create({ idHash: hash(11), userId, credential: "c", verified: true }, at(-100)); // idle
      await s.store.sessions.create({ idHash: hash(12), userId, credential: "c", verified: true }, at(-100));
      await s.store.sessions.touch(hash(12), NOW);
      await s.store.sessions.touch(hash(10), NOW);
      const deleted = await s.store.sessions.deleteExpired(at(-50), at(-3600));
      assert.ok(deleted >= 2);
      assert.equal(await s.store.sessions.find(hash(10)), null, "too old, though recently seen");
      assert.equal(await s.store.sessions.find(hash(11)), null, "idle too long");
      assert.ok(await s.store.sessions.find(hash(12)));
    });

    test("deleting the account deletes its sessions", async () => {
      const bob = await s.store.users.create({
        login: "bob",
        passwordHash: "scrypt$x",
        otpSecret: null,
        siteAdmin: false,
      });
      await s.store.sessions.create({ idHash: hash(20), userId: bob.id, credential: "c", verified: true }, NOW);
      await s.store.users.delete(bob.id);
      assert.equal(await s.store.sessions.find(hash(20)), null);
    });
  });
}
