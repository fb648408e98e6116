/**
 * The event feeds part of the store contract, on every driver: every scope kind seen through every visibility
 * kind serves exactly the reference model's events, newest first, paged, capped by age.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { contractSuite, type OpenedStore } from "../helpers/store-drivers.js";
import { NOW } from "../helpers/store-rows.js";
import {
  REPOS,
  BASE,
  ISSUE_EVENTS,
  ALL_EVENTS,
  COMPLETE_EVENT,
  COMPLETE_MODEL,
  SCOPES,
  VISIBILITIES,
  ALL,
  theWorld,
  resolver,
  ownerOf,
  inScope,
  visible,
  newestFirst,
  label,
  pageIds,
  type ModelScope,
  type ModelVisibility,
} from "../helpers/store-scenario.js";

contractSuite((driver) => {
  describe("event feeds", () => {
    let s: OpenedStore;
    let resolve: Awaited<ReturnType<typeof resolver>>;
    before(async () => {
      s = await driver.open();
      await s.store.ingest.apply(await theWorld(s.store), NOW);
      resolve = await resolver(s.store);
    });
    after(() => s.close());

    test("every scope kind seen through every visibility kind serves exactly the model's events, newest first", async () => {
      let checked = 0;
      for (const scope of SCOPES) {
        for (const visibility of VISIBILITIES) {
          const expected = ALL_EVENTS.filter((e) => inScope(e, scope) && visible(e, visibility)).sort(newestFirst);
          const page = await s.store.events.feed(await resolve.scope(scope), {
            ...ALL,
            visibility: await resolve.visibility(visibility),
          });
          assert.deepEqual(
            pageIds(page),
            expected.map((e) => e.id),
            label(scope, visibility),
          );
          assert.equal(page.total, expected.length, label(scope, visibility));
          assert.deepEqual(
            page.newest,
            expected[0] ? new Date(expected[0].time * 1000) : null,
            label(scope, visibility),
          );
          checked += expected.length;
        }
      }
      assert.ok(checked > 1000, "the scenario is not degenerate");
    });

    test("the model's feeds are neither empty nor all alike", () => {
      // Guards the scenario itself: each visibility kind must change some feed, each scope kind must select.
      const sizes = (v: ModelVisibility) =>
        SCOPES.map((scope) => ALL_EVENTS.filter((e) => inScope(e, scope) && visible(e, v)).length);
      assert.notDeepEqual(sizes({ kind: "public" }), sizes({ kind: "all" }));
      assert.notDeepEqual(sizes({ kind: "readable-by", user: "carol" }), sizes({ kind: "public" }));
      assert.notDeepEqual(sizes({ kind: "readable-by", user: "carol" }), sizes({ kind: "all" }));
      assert.ok(
        ALL_EVENTS.some((e) => e.repo === null && !e.public && visible(e, { kind: "readable-by", user: "dave" })),
      );
      assert.ok(ALL_EVENTS.some((e) => e.org === "umbrella" && e.repo !== null && ownerOf(e.repo) !== "umbrella"));
      const times = ALL_EVENTS.map((e) => e.time);
      assert.ok(new Set(times).size < times.length, "some events share a second");
    });

    test("paging: limit and offset cut the same order; total and newest describe the whole feed", async () => {
      for (const [scope, visibility] of [
        [{ kind: "all" }, { kind: "all" }],
        [{ kind: "all" }, { kind: "public" }],
        [
          { kind: "org", org: "acme" },
          { kind: "readable-by", user: "carol" },
        ],
        [
          { kind: "received", user: "erin" },
          { kind: "readable-by", user: "erin" },
        ],
        [{ kind: "network", root: "alice/pub" }, { kind: "public" }],
      ] as [ModelScope, ModelVisibility][]) {
        const full = await s.store.events.feed(await resolve.scope(scope), {
          ...ALL,
          visibility: await resolve.visibility(visibility),
        });
        const ids: string[] = [];
        for (let offset = 0; offset < full.total + 7; offset += 7) {
          const page = await s.store.events.feed(await resolve.scope(scope), {
            limit: 7,
            offset,
            notBefore: null,
            visibility: await resolve.visibility(visibility),
          });
          assert.equal(page.total, full.total, label(scope, visibility));
          assert.deepEqual(page.newest, full.newest, label(scope, visibility));
          assert.deepEqual(page.rows, full.rows.slice(offset, offset + 7), `${label(scope, visibility)} at ${offset}`);
          ids.push(...pageIds(page));
        }
        assert.deepEqual(ids, pageIds(full));
      }
    });

    test("notBefore leaves older events out of rows, total and newest", async () => {
      const cutoff = BASE + 15 * 60;
      for (const scope of SCOPES) {
        const expected = ALL_EVENTS.filter((e) => inScope(e, scope) && e.time >= cutoff).sort(newestFirst);
        const page = await s.store.events.feed(await resolve.scope(scope), {
          limit: 1000,
          offset: 0,
          notBefore: new Date(cutoff * 1000),
          visibility: { kind: "all" },
        });
        assert.deepEqual(
          pageIds(page),
          expected.map((e) => e.id),
          JSON.stringify(scope),
        );
        assert.equal(page.total, expected.length);
      }
      const future = await s.store.events.feed(
        { kind: "all" },
        { ...ALL, notBefore: new Date("2100-01-01T00:00:00Z"), visibility: { kind: "all" } },
      );
      assert.deepEqual(future, { rows: [], total: 0, newest: null });
    });

    test("an empty feed has no rows, a zero total and no newest time", async () => {
      const zed = await resolve.userId("zed");
      assert.deepEqual(
        await s.store.events.feed({ kind: "actor", actorId: zed }, { ...ALL, visibility: { kind: "all" } }),
        { rows: [], total: 0, newest: null },
      );
      assert.deepEqual(
        await s.store.events.feed({ kind: "repo", repoId: 999999 }, { ...ALL, visibility: { kind: "all" } }),
        { rows: [], total: 0, newest: null },
      );
    });

    test("stored events carry their body, completeness, time and, for partial envelopes, the wire ids", async () => {
      const page = await s.store.events.feed(
        { kind: "actor", actorId: await resolve.userId("erin") },
        { ...ALL, visibility: { kind: "all" } },
      );
      const complete = page.rows.find((r) => JSON.parse(r.body).id === "77")!;
      assert.deepEqual(complete, {
        id: "77",
        body: JSON.stringify(COMPLETE_EVENT),
        complete: true,
        createdAt: new Date(COMPLETE_MODEL.time * 1000),
        actorWireId: null,
        repoWireId: null,
        orgWireId: null,
      });
      const partial = page.rows.find((r) => !r.complete && JSON.parse(r.body).repo.name !== "/")!;
      assert.equal(partial.actorWireId, 9001);
      const repoName = JSON.parse(partial.body).repo.name as string;
      const repo = await resolve.repo(repoName);
      assert.equal(partial.repoWireId, repo.wireId);
      const org = JSON.parse(partial.body).org?.login as string | undefined;
      assert.equal(partial.orgWireId, org ? (await s.store.users.findByLogin(org))!.wireId : null);
    });

    test("issueFeed serves a repository's issue events newest first, with paging and notBefore", async () => {
      for (const { full_name } of REPOS) {
        const expected = ISSUE_EVENTS.filter((e) => e.repo === full_name).sort(newestFirst);
        const repoId = (await resolve.repo(full_name)).id;
        const page = await s.store.events.issueFeed(repoId, ALL);
        assert.deepEqual(
          pageIds(page),
          expected.map((e) => e.id),
          full_name,
        );
        assert.equal(page.total, expected.length);
        assert.deepEqual(page.newest, expected[0] ? new Date(expected[0].time * 1000) : null);
        const second = await s.store.events.issueFeed(repoId, { limit: 1, offset: 1, notBefore: null });
        assert.deepEqual(
          pageIds(second),
          expected.slice(1, 2).map((e) => e.id),
        );
        assert.equal(second.total, expected.length);
        const cutoff = BASE + 3 * 60;
        const recent = await s.store.events.issueFeed(repoId, { ...ALL, notBefore: new Date(cutoff * 1000) });
        assert.deepEqual(
          pageIds(recent),
          expected.filter((e) => e.time >= cutoff).map((e) => e.id),
        );
      }
      const withoutActor = (
        await s.store.events.issueFeed((await resolve.repo(ISSUE_EVENTS[4]!.repo)).id, ALL)
      ).rows.find((r) => JSON.parse(r.body).id === ISSUE_EVENTS[4]!.id)!;
      assert.equal(JSON.parse(withoutActor.body).actor, null);
      assert.equal(withoutActor.actorWireId, null);
    });
  });
});
