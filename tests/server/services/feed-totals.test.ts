/**
 * Feed totals kept across ingests (src/server/services/feed-totals.ts), checked against the store's own count after
 * every step of random histories: ingests in and out of time order, into the feed and elsewhere, follows (received
 * feeds) and forks (network feeds). The boundary sits 3 events deep and moves at 4 above it, so histories cross and move it all the time.
 * Also: within one epoch, an equal `above` always means the same rows (what the page cache relies on), a page
 * read from the boundary on is the page, and so is a first page carried forward with the arrivals since
 * (src/server/services/first-pages.ts).
 */
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import type { FeedTarget, Store } from "../../../src/server/store/store.js";
import { feedStanding, FeedTotals, fromBoundary } from "../../../src/server/services/feed-totals.js";
import { FirstPages } from "../../../src/server/services/first-pages.js";
import type { PageRows } from "../../../src/server/services/feed-cache.js";
import { IngestService } from "../../../src/server/services/ingest.js";
import { emptyBatch } from "../../../src/server/services/event-envelope.js";
import { testDriver } from "../../helpers/store-drivers.js";

const REPOS = ["ann/one", "ann/two", "bo/three"];
const ACTORS = ["ann", "bo", "cy"];
const T0 = Date.parse("2026-01-01T00:00:00Z");

type Step =
  | { kind: "ingest"; events: { repo: number; actor: number; minute: number; isPublic: boolean }[] }
  | { kind: "follow" }
  | { kind: "fork" };

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 9,
    arbitrary: fc.record({
      kind: fc.constant("ingest" as const),
      events: fc.array(
        fc.record({
          repo: fc.nat(REPOS.length - 1),
          actor: fc.nat(ACTORS.length - 1),
          minute: fc.nat(60),
          isPublic: fc.boolean(),
        }),
        { minLength: 1, maxLength: 4 },
      ),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: "follow" as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: "fork" as const }) },
);

/** The driver this run tests (FEEDGATE_TEST_STORE): SQLite, or PostgreSQL in the driver matrix run. */
const driver = testDriver();

/** The accounts and repositories of the histories, one repository private to its owner. */
async function seedWorld(store: Store): Promise<{ ann: number; repoIds: number[] }> {
  const world = emptyBatch();
  for (const login of ACTORS) world.accounts.push({ source: login, login, type: "User" });
  for (const fullName of REPOS) world.repos.push({ source: fullName, fullName, private: fullName === "ann/two" });
  await store.ingest.apply(world, new Date(T0));
  const ann = (await store.users.findByLogin("ann"))!.id;
  const repoIds = await Promise.all(
    REPOS.map(async (name) => (await store.directory.findRepo(...(name.split("/") as [string, string])))!.id),
  );
  return { ann, repoIds };
}

describe(`feed totals across ingests: ${driver.name}`, { skip: driver.skip }, () => {
  test("after every step of random histories, every feed's kept total is the store's count", async () => {
    let run = 0;
    let carriedPages = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 25 }), fc.nat(30), async (steps, cap) => {
        const { store, close } = await driver.openScratch();
        try {
          const ingest = new IngestService(store, () => new Date(T0));
          const totals = new FeedTotals(store.events, { anchor: 3, reanchorAbove: 4 });
          let nextId = 1;
          const { ann, repoIds } = await seedWorld(store);
          const targets: FeedTarget[] = [
            { scope: { kind: "all" }, visibility: { kind: "public" } },
            { scope: { kind: "repo", repoId: repoIds[0]! }, visibility: { kind: "all" } },
            { scope: { kind: "actor", actorId: ann }, visibility: { kind: "public" } },
            { scope: { kind: "received", userId: ann }, visibility: { kind: "readable-by", userId: ann } },
            { scope: { kind: "network", networkId: repoIds[0]! }, visibility: { kind: "public" } },
          ];
          // The age cap, in whole minutes after T0 (0: none), as FeedService passes it.
          const notBefore = cap === 0 ? 0 : Math.floor(T0 / 1000) + cap * 60;
          const rowsSeen = new Map<string, string>();
          // First pages of two events, as FeedService keeps them: by the total's state, carried forward when they can be.
          const firstPages = new FirstPages();
          const pages = new Map<string, PageRows>();
          for (const s of steps) {
            if (s.kind === "follow") {
              const batch = emptyBatch();
              batch.follows.push({ source: "f", follower: "ann", followee: ACTORS[run++ % ACTORS.length]! });
              await store.ingest.apply(batch, new Date(T0));
            } else if (s.kind === "fork") {
              // bo/three, and the events it has, join ann/one's network: no event is added.
              const batch = emptyBatch();
              batch.repos.push({ source: "r", fullName: "bo/three", forkOf: "ann/one" });
              await store.ingest.apply(batch, new Date(T0));
            } else {
              await ingest.ingestEvents(
                s.events.map((e) => ({
                  id: String(nextId++),
                  type: "PushEvent",
                  actor: { login: ACTORS[e.actor] },
                  repo: { name: REPOS[e.repo] },
                  payload: {},
                  public: e.isPublic && REPOS[e.repo] !== "ann/two",
                  created_at: new Date(T0 + e.minute * 60_000).toISOString(),
                })),
              );
            }
            const version = await store.events.version();
            for (const [i, target] of targets.entries()) {
              const received =
                "scope" in target && target.scope.kind === "received" ? await store.events.receivedVersion(ann) : 0;
              const standing = feedStanding(target, version, received);
              const kept = await totals.get(`${i}|${notBefore}`, target, notBefore, standing);
              const request = { offset: 0, limit: 100, notBefore: notBefore ? new Date(notBefore * 1000) : null };
              const truth =
                "issuesOf" in target
                  ? await store.events.issueFeed(target.issuesOf, request)
                  : await store.events.feed(target.scope, { ...request, visibility: target.visibility });
              assert.equal(kept.total, truth.total, `feed ${i} after ${JSON.stringify(s)}`);
              // The page FeedService reads from the boundary on is the page.
              for (const window of [
                { offset: 0, limit: 2 },
                { offset: 2, limit: 3 },
              ]) {
                const page = { ...request, ...window };
                const bounded = await store.events.feedRows(target, fromBoundary(page, kept));
                assert.deepEqual(
                  bounded.rows,
                  truth.rows.slice(window.offset, window.offset + window.limit),
                  `feed ${i} rows ${JSON.stringify(window)}`,
                );
                assert.deepEqual(bounded.newest, truth.newest, `feed ${i} newest`);
              }
              const line = `${i}|${standing.standing}`;
              const pageKey = `${line}|${kept.epoch}|${kept.above}`;
              if (!pages.has(pageKey)) {
                const carried = await firstPages.carried(line, kept, 2, {
                  cached: (key) => pages.get(key),
                  arrivals: (after, upTo, limit) =>
                    store.events.arrivals(target, { after, upTo, limit, notBefore: request.notBefore }),
                });
                if (carried) {
                  carriedPages++;
                  assert.deepEqual(carried.rows, truth.rows.slice(0, 2), `feed ${i}: the first page carried forward`);
                  assert.deepEqual(carried.newest, truth.newest, `feed ${i}: its newest`);
                }
                pages.set(pageKey, carried ?? { rows: truth.rows.slice(0, 2), newest: truth.newest });
              }
              firstPages.note(line, pageKey, kept);
              const state = `${i}|${standing.standing}|${kept.epoch}|${kept.above}`;
              const rows = JSON.stringify(truth.rows.map((r) => r.body));
              assert.equal(rowsSeen.get(state) ?? rows, rows, `feed ${i}: same epoch and count above, other rows`);
              rowsSeen.set(state, rows);
            }
          }
        } finally {
          await close();
        }
      }),
      { numRuns: driver.name === "sqlite" ? 60 : 15 },
    );
    assert.ok(carriedPages > 20, `first pages were carried forward (${carriedPages})`);
  });

  test("arrivals since the kept count are read while they are few; past the count that moves the boundary, the feed's own events are counted", async () => {
    const { store, close } = await driver.open();
    try {
      const ingest = new IngestService(store, () => new Date(T0));
      const { repoIds } = await seedWorld(store);
      let arrivalCounts = 0;
      const events = new Proxy(store.events, {
        get(target, key) {
          if (key === "countArrivals") arrivalCounts++;
          const value = Reflect.get(target, key) as unknown;
          return typeof value === "function" ? value.bind(target) : value;
        },
      });
      const totals = new FeedTotals(events, { anchor: 3, reanchorAbove: 4 });
      const target: FeedTarget = { scope: { kind: "repo", repoId: repoIds[0]! }, visibility: { kind: "all" } };
      let nextId = 1;
      /** Ingests `count` events, one of them in the feed's repository, and gives the kept total against the store's. */
      const ingestAndCount = async (count: number) => {
        await ingest.ingestEvents(
          Array.from({ length: count }, (_, i) => ({
            id: String(nextId++),
            type: "PushEvent",
            actor: { login: "bo" },
            repo: { name: i === 0 ? "ann/one" : "bo/three" },
            payload: {},
            public: true,
            created_at: new Date(T0 + nextId * 60_000).toISOString(),
          })),
        );
        const kept = await totals.get("repo", target, 0, feedStanding(target, await store.events.version(), 0));
        const truth = await store.events.feed(target.scope, {
          offset: 0,
          limit: 1,
          notBefore: null,
          visibility: target.visibility,
        });
        return [kept.total, truth.total];
      };
      assert.deepEqual(await ingestAndCount(1), [1, 1]);
      assert.deepEqual(await ingestAndCount(4), [2, 2]);
      assert.equal(arrivalCounts, 1, "four arrivals are read");
      assert.deepEqual(await ingestAndCount(5), [3, 3]);
      assert.equal(arrivalCounts, 1, "five arrivals are counted through the feed, not read");
    } finally {
      await close();
    }
  });
});
