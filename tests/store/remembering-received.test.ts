/**
 * The remembering store keeps users' received-feed numbers while nobody's follows and watches change (the version's
 * `received`, migration 19): a received feed's poll then reads one version, not a second number per request.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { RememberingStore } from "../../src/server/store/remembering-store.js";
import { emptyBatch } from "../../src/server/services/event-envelope.js";
import { contractSuite, type OpenedStore } from "../helpers/store-drivers.js";
import { NOW } from "../helpers/store-rows.js";
import { theWorld } from "../helpers/store-scenario.js";

contractSuite((driver) => {
  describe("remembered received numbers", () => {
    let s: OpenedStore;
    before(async () => {
      s = await driver.open();
      await s.store.ingest.apply(await theWorld(s.store), NOW);
    });
    after(() => s.close());

    test("are read once while no follow or watch changes, again after anyone's, and move with the user's own", async () => {
      const inner = s.store.events;
      let reads = 0;
      const remembering = new RememberingStore({
        ...s.store,
        events: Object.assign(Object.create(inner) as typeof inner, {
          receivedVersion: (userId: number) => {
            reads++;
            return inner.receivedVersion(userId);
          },
        }),
      });
      const zed = (await s.store.users.findByLogin("zed"))!.id;
      const poll = async () => {
        await remembering.refresh(); // what every request does first
        return remembering.store.events.receivedVersion(zed);
      };
      const follow = (follower: string, followee: string) => {
        const batch = emptyBatch();
        batch.follows.push({ source: "f", follower, followee });
        return s.store.ingest.apply(batch, NOW);
      };

      const first = await poll();
      assert.deepEqual([await poll(), await poll(), reads], [first, first, 1]);
      // An ingest of events alone moves the generation, not `received`: still nothing to read.
      await s.store.ingest.apply(emptyBatch(), NOW);
      assert.deepEqual([await poll(), reads], [first, 1]);

      // Someone else's follow: zed's number is read again, and has not moved.
      await follow("alice", "bob");
      assert.deepEqual([await poll(), await poll(), reads], [first, first, 2]);

      // zed's own follow moves zed's number.
      await follow("zed", "bob");
      const second = await poll();
      assert.ok(second > first, `${second} > ${first}`);
      assert.equal(reads, 3);
    });
  });
});
