/**
 * What the caches and live streams read, in the store contract, on every driver: which writes raise which version
 * number, and the order events arrived in.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import type { AuthorizationRow, IngestBatch, StoreVersion, Visibility } from "../../src/server/store/store.js";
import { addEvent, emptyBatch, parseEvent } from "../../src/server/services/event-envelope.js";
import { contractSuite, type OpenedStore } from "../helpers/store-drivers.js";
import { NOW, LATER, newAuthorization } from "../helpers/store-rows.js";
import { COMPLETE_EVENT, theWorld } from "../helpers/store-scenario.js";

contractSuite((driver) => {
  describe("version: which writes raise which number", () => {
    let s: OpenedStore;
    before(async () => {
      s = await driver.open();
      await s.store.ingest.apply(await theWorld(s.store), NOW);
    });
    after(() => s.close());

    /** The numbers a write raised: 0 for one it left alone. */
    async function raisedBy(write: () => Promise<unknown>): Promise<Record<keyof StoreVersion, number>> {
      const before = await s.store.events.version();
      await write();
      const after = await s.store.events.version();
      const raised = { ...after };
      for (const name of Object.keys(after) as (keyof StoreVersion)[])
        raised[name] = Math.sign(after[name] - before[name]);
      return raised;
    }
    const NONE = { generation: 0, credentials: 0, repos: 0, access: 0, received: 0, hooks: 0 };
    /** An ingest raises the generation, and the named numbers. */
    const INGEST = { ...NONE, generation: 1 };
    const id = async (login: string) => (await s.store.users.findByLogin(login))!.id;
    const batchOf = (fill: (batch: IngestBatch) => void) => {
      const batch = emptyBatch();
      fill(batch);
      return () => s.store.ingest.apply(batch, NOW);
    };

    test("new events by new accounts in new repositories raise only the generation", async () => {
      const batch = emptyBatch();
      addEvent(
        batch,
        parseEvent(
          {
            ...COMPLETE_EVENT,
            id: "880000001",
            actor: { ...COMPLETE_EVENT.actor, id: 8801, login: "newcomer" },
            repo: { ...COMPLETE_EVENT.repo, id: 8802, name: "newcomer/fresh" },
          },
          "e0",
        ),
      );
      assert.deepEqual(await raisedBy(() => s.store.ingest.apply(batch, NOW)), INGEST);
      // Applying it again adds nothing, and nothing else moves either.
      assert.deepEqual(await raisedBy(() => s.store.ingest.apply(batch, NOW)), INGEST);
    });

    test("tokens raise credentials only: create, update, delete, revoke", async () => {
      const bob = await id("bob");
      let created: AuthorizationRow | undefined;
      assert.deepEqual(
        await raisedBy(async () => {
          created = await s.store.authorizations.create(newAuthorization(bob, 71), NOW);
        }),
        { ...NONE, credentials: 1 },
      );
      assert.deepEqual(
        await raisedBy(() => s.store.authorizations.update(bob, created!.id, { note: "changed" }, LATER)),
        { ...NONE, credentials: 1 },
      );
      assert.deepEqual(await raisedBy(() => s.store.authorizations.delete(bob, created!.id)), {
        ...NONE,
        credentials: 1,
      });
      const again = await s.store.authorizations.create(newAuthorization(bob, 72), NOW);
      assert.deepEqual(await raisedBy(() => s.store.authorizations.revoke(again.id)), { ...NONE, credentials: 1 });
      // A delete that finds nothing changes nothing.
      assert.deepEqual(await raisedBy(() => s.store.authorizations.delete(bob, again.id)), NONE);
    });

    test("account changes raise credentials", async () => {
      const carol = await id("carol");
      for (const write of [
        () => s.store.users.setPassword(carol, "scrypt$other"),
        () => s.store.users.setOtpSecret(carol, "JBSWY3DPEHPK3PXP"),
        () => s.store.users.setSuspended(carol, NOW),
        () => s.store.users.setSuspended(carol, null),
      ]) {
        assert.deepEqual(await raisedBy(write), { ...NONE, credentials: 1 }, String(write));
      }
    });

    test("each relation raises its number (and the generation, as ingests do)", async () => {
      const cases: Array<[string, () => Promise<unknown>, Partial<StoreVersion>]> = [
        [
          "follow",
          batchOf((b) => b.follows.push({ source: "f", follower: "zed", followee: "alice" })),
          { received: 1 },
        ],
        ["watch", batchOf((b) => b.watches.push({ source: "w", user: "zed", repo: "alice/pub" })), { received: 1 }],
        ["member", batchOf((b) => b.memberships.push({ source: "m", org: "acme", member: "zed" })), { access: 1 }],
        [
          "collaborator",
          batchOf((b) => b.collaborators.push({ source: "c", repo: "dave/solo", user: "zed" })),
          { access: 1 },
        ],
        ["private", batchOf((b) => b.repos.push({ source: "r", fullName: "dave/solo", private: true })), { repos: 1 }],
        [
          "fork",
          batchOf((b) => b.repos.push({ source: "r", fullName: "dave/solo", forkOf: "acme/widgets" })),
          { repos: 1 },
        ],
        // Even a fork the batch creates: a trigger cannot tell a row this transaction inserted from an older one, and
        // forgetting too much costs look-ups, never a stale answer.
        [
          "new fork",
          batchOf((b) => b.repos.push({ source: "r", fullName: "zed/new-fork", forkOf: "acme/widgets" })),
          { repos: 1 },
        ],
        [
          "organization",
          batchOf((b) => b.accounts.push({ source: "o", login: "newcomer", type: "Organization" })),
          { credentials: 1 },
        ],
        ["same follow again", batchOf((b) => b.follows.push({ source: "f", follower: "zed", followee: "alice" })), {}],
      ];
      for (const [what, write, raised] of cases)
        assert.deepEqual(await raisedBy(write), { ...INGEST, ...raised }, what);
    });

    test("follows and watches raise the received number of the user they belong to, and no one else's", async () => {
      const [zed, alice] = [await id("zed"), await id("alice")];
      const received = async () => [
        await s.store.events.receivedVersion(zed),
        await s.store.events.receivedVersion(alice),
      ];
      const [zedBefore, aliceBefore] = await received();
      await batchOf((b) => b.follows.push({ source: "f", follower: "zed", followee: "bob" }))();
      assert.deepEqual(await received(), [zedBefore! + 1, aliceBefore]);
      await batchOf((b) => b.watches.push({ source: "w", user: "zed", repo: "dave/solo" }))();
      assert.deepEqual(await received(), [zedBefore! + 2, aliceBefore]);
      // Deleting the account removes its follows and watches: its number moves again, and so does everyone's (the
      // version's `received`, which tells the server to read users' numbers again).
      assert.equal((await raisedBy(() => s.store.users.delete(zed))).received, 1);
      assert.ok((await s.store.events.receivedVersion(zed)) > zedBefore! + 2);
      assert.equal(await s.store.events.receivedVersion(999_999), 0);
    });
  });

  describe("arrival order: what live streams read", () => {
    let s: OpenedStore;
    before(async () => {
      s = await driver.open();
      await s.store.ingest.apply(await theWorld(s.store), NOW);
    });
    after(() => s.close());

    const ingest = (...events: Record<string, unknown>[]) => {
      const batch = emptyBatch();
      for (const [i, e] of events.entries()) addEvent(batch, parseEvent(e, `events[${i}]`));
      return s.store.ingest.apply(batch, NOW);
    };
    const alicePriv = async () => (await s.store.directory.findRepo("alice", "priv"))!;
    const lived = (id: string, repo: string, created = "2020-01-01T00:00:00Z") => ({
      ...COMPLETE_EVENT,
      id,
      created_at: created,
      repo: { ...COMPLETE_EVENT.repo, id: undefined, name: repo },
      public: repo !== "alice/priv",
    });

    test("numbers events in the order they were stored, whatever their ids and times", async () => {
      const before = await s.store.events.lastArrivals();
      // A smaller id and an older time stored later must still come after.
      await ingest(lived("990000009", "alice/priv", "2025-06-01T00:00:00Z"));
      await ingest(lived("990000001", "alice/priv", "2019-01-01T00:00:00Z"), lived("990000005", "alice/priv"));
      const last = await s.store.events.lastArrivals();
      assert.equal(last.events, before.events + 3);
      assert.equal(last.issueEvents, before.issueEvents);
      const first = await s.store.events.arrivalOf("events", "990000009");
      assert.equal(first, before.events + 1);
      assert.ok((await s.store.events.arrivalOf("events", "990000001"))! > first!);
      assert.equal(await s.store.events.arrivalOf("events", "123456789012345678"), null);
      assert.equal(await s.store.events.arrivalOf("issueEvents", "990000009"), null);
      // Storing an event again gives it no new number.
      await ingest(lived("990000009", "alice/priv"));
      assert.deepEqual(await s.store.events.lastArrivals(), last);
    });

    test("reads a feed's arrivals in (after, upTo] with the feed's own visibility and limit", async () => {
      const start = (await s.store.events.lastArrivals()).events;
      await ingest(lived("990000102", "alice/priv"), lived("990000101", "alice/pub"), lived("990000103", "alice/priv"));
      const repo = await alicePriv();
      const upTo = start + 3;
      const read = async (visibility: Visibility, after = start, limit = 10) =>
        (
          await s.store.events.arrivals(
            { scope: { kind: "repo", repoId: repo.id }, visibility },
            { after, upTo, limit, notBefore: null },
          )
        ).map((e) => [e.id, e.type, e.seq]);
      assert.deepEqual(await read({ kind: "all" }), [
        ["990000102", "IssuesEvent", start + 1],
        ["990000103", "IssuesEvent", start + 3],
      ]);
      assert.deepEqual(await read({ kind: "public" }), []);
      assert.deepEqual(await read({ kind: "all" }, start + 1), [["990000103", "IssuesEvent", start + 3]]);
      assert.deepEqual(await read({ kind: "all" }, start, 1), [["990000102", "IssuesEvent", start + 1]]);
      const bob = (await s.store.users.findByLogin("bob"))!.id;
      assert.deepEqual((await read({ kind: "readable-by", userId: bob })).length, 2);
      const all = await s.store.events.arrivals(
        { scope: { kind: "all" }, visibility: { kind: "public" } },
        { after: start, upTo, limit: 10, notBefore: null },
      );
      assert.deepEqual(
        all.map((e) => e.id),
        ["990000101"],
      );
      assert.equal(all[0]!.body, JSON.stringify(lived("990000101", "alice/pub")));
      // The age cap leaves out what the feed leaves out.
      assert.deepEqual(
        await s.store.events.arrivals(
          { scope: { kind: "all" }, visibility: { kind: "public" } },
          { after: start, upTo, limit: 10, notBefore: new Date("2021-01-01T00:00:00Z") },
        ),
        [],
      );
    });

    test("numbers issue events apart, and reads them by repository", async () => {
      const before = await s.store.events.lastArrivals();
      const batch = emptyBatch();
      batch.issueEvents.push({
        source: "i",
        id: "770000001",
        repoName: "alice/pub",
        actorLogin: "bob",
        createdAt: NOW,
        complete: true,
        body: JSON.stringify({ id: "770000001", event: "closed" }),
      });
      await s.store.ingest.apply(batch, NOW);
      const after = await s.store.events.lastArrivals();
      assert.deepEqual(after, { events: before.events, issueEvents: before.issueEvents + 1 });
      const repo = (await s.store.directory.findRepo("alice", "pub"))!;
      const read = await s.store.events.arrivals(
        { issuesOf: repo.id },
        { after: before.issueEvents, upTo: after.issueEvents, limit: 10, notBefore: null },
      );
      assert.deepEqual(
        read.map((e) => [e.id, e.type]),
        [["770000001", null]],
      );
      assert.equal(await s.store.events.arrivalOf("issueEvents", "770000001"), after.issueEvents);
    });

    test("tells a listener of writes committed through other connections", {
      skip: driver.name !== "postgres",
    }, async () => {
      let heard!: () => void;
      const told = new Promise<void>((resolve) => (heard = resolve));
      const stop = await s.store.events.listenForChanges(() => heard());
      try {
        const bob = (await s.store.users.findByLogin("bob"))!.id;
        await s.store.authorizations.create(newAuthorization(bob, 991), NOW);
        await told;
      } finally {
        await stop();
      }
    });
  });
});
