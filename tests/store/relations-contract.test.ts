/**
 * The relations part of the store contract, on every driver: stars (with their times, sorted and paged, private
 * repositories shown only to their readers), subscriptions apart from stars, and follows, against the scenario's
 * reference model. Each write answers whether it changed anything, which the actions make their events from.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { contractSuite, type OpenedStore } from "../helpers/store-drivers.js";
import { NOW } from "../helpers/store-rows.js";
import { FOLLOWS, WATCHES, theWorld, resolver } from "../helpers/store-scenario.js";

const WINDOW = { limit: 100, offset: 0 };
const at = (minutes: number) => new Date(NOW.getTime() + minutes * 60_000);

contractSuite((driver) => {
  describe("relations", () => {
    let s: OpenedStore;
    let ids: Awaited<ReturnType<typeof resolver>>;
    before(async () => {
      s = await driver.open();
      await s.store.ingest.apply(await theWorld(s.store), NOW);
      ids = await resolver(s.store);
    });
    after(() => s.close());

    test("stars of the world have no starred_at; a new one has its time, and starring again changes nothing", async () => {
      const { relations } = s.store;
      const zed = await ids.userId("zed");
      const pub = await ids.repo("alice/pub");
      const widgets = await ids.repo("acme/widgets");
      assert.equal(await relations.hasStarred(zed, pub.id), false);
      assert.equal(await relations.star(zed, pub.id, at(1)), true);
      assert.equal(await relations.star(zed, pub.id, at(5)), false, "starred already");
      assert.equal(await relations.star(zed, widgets.id, at(2)), true);
      const page = await relations.starred(zed, { sort: "created", direction: "desc", reader: null }, WINDOW);
      assert.deepEqual(
        page.rows.map((r) => [r.repo.fullName, r.starredAt?.toISOString()]),
        [
          ["acme/widgets", at(2).toISOString()],
          ["alice/pub", at(1).toISOString()],
        ],
      );
      assert.equal(page.total, 2);
      const oldest = await relations.starred(
        zed,
        { sort: "created", direction: "asc", reader: null },
        {
          limit: 1,
          offset: 0,
        },
      );
      assert.deepEqual([oldest.rows.map((r) => r.repo.fullName), oldest.total], [["alice/pub"], 2]);
      const gazers = await relations.stargazers(widgets.id, WINDOW);
      assert.deepEqual(
        gazers.rows.map((g) => [g.user.login, g.starredAt === null]),
        [
          ["bob", true],
          ["zed", false],
        ],
        "the world's star first (no time sorts as the oldest)",
      );
      assert.equal(await relations.unstar(zed, pub.id), true);
      assert.equal(await relations.unstar(zed, pub.id), false);
      assert.equal(await relations.hasStarred(zed, pub.id), false);
    });

    test("a private starred repository shows only to a reader of it", async () => {
      const erin = await ids.userId("erin");
      const order = { sort: "updated", direction: "desc" } as const;
      const shown = async (reader: number | null) =>
        (await s.store.relations.starred(erin, { ...order, reader }, WINDOW)).rows.map((r) => r.repo.fullName).sort();
      assert.deepEqual(await shown(null), []);
      // erin stars alice/priv and umbrella/labs, and collaborates on umbrella/labs only.
      assert.deepEqual(WATCHES.erin, ["alice/priv", "umbrella/labs"]);
      assert.deepEqual(await shown(erin), ["umbrella/labs"]);
      assert.deepEqual(await shown(await ids.userId("bob")), ["alice/priv"], "bob collaborates on alice/priv");
    });

    test("subscriptions: set, changed (keeping when first made), listed when subscribed, deleted", async () => {
      const { relations } = s.store;
      const dave = await ids.userId("dave");
      const pub = await ids.repo("alice/pub");
      assert.equal(await relations.subscription(dave, pub.id), null);
      const made = await relations.setSubscription({
        userId: dave,
        repoId: pub.id,
        subscribed: true,
        ignored: false,
        createdAt: at(3),
      });
      assert.deepEqual(
        [made.subscribed, made.ignored, made.createdAt.toISOString()],
        [true, false, at(3).toISOString()],
      );
      assert.deepEqual(
        (await relations.subscribers(pub.id, WINDOW)).rows.map((u) => u.login),
        ["dave"],
      );
      assert.deepEqual(
        (await relations.subscriptions(dave, null, WINDOW)).rows.map((r) => r.fullName),
        ["alice/pub"],
      );
      assert.equal((await s.store.directory.repoStats(pub.id)).subscribers, 1);
      const ignoring = await relations.setSubscription({ ...made, subscribed: false, ignored: true, createdAt: at(9) });
      assert.deepEqual(
        [ignoring.subscribed, ignoring.ignored, ignoring.createdAt.toISOString()],
        [false, true, at(3).toISOString()],
      );
      assert.equal((await relations.subscribers(pub.id, WINDOW)).total, 0, "ignoring is not watching");
      assert.equal(await relations.deleteSubscription(dave, pub.id), true);
      assert.equal(await relations.deleteSubscription(dave, pub.id), false);
      assert.equal((await s.store.directory.repoStats(pub.id)).subscribers, 0);
    });

    test("follows: the world's, both ways; a new one once; a removal once", async () => {
      const { relations } = s.store;
      const logins = async (page: Promise<{ rows: { login: string }[] }>) =>
        (await page).rows.map((u) => u.login).sort();
      for (const [follower, followees] of Object.entries(FOLLOWS)) {
        assert.deepEqual(await logins(relations.following(await ids.userId(follower), WINDOW)), [...followees].sort());
      }
      const alice = await ids.userId("alice");
      const expected = Object.entries(FOLLOWS)
        .filter(([, followees]) => followees.includes("alice"))
        .map(([follower]) => follower)
        .sort();
      assert.deepEqual(await logins(relations.followers(alice, WINDOW)), expected);
      const zed = await ids.userId("zed");
      assert.equal(await relations.follow(zed, alice), true);
      assert.equal(await relations.follow(zed, alice), false);
      assert.equal(await relations.follows(zed, alice), true);
      assert.equal((await s.store.directory.accountCounts(alice)).followers, expected.length + 1);
      assert.equal(await relations.unfollow(zed, alice), true);
      assert.equal(await relations.unfollow(zed, alice), false);
      assert.equal(await relations.follows(zed, alice), false);
    });
  });
});
