/**
 * The webhooks' part of the store contract, on every driver: hooks kept per owner, the outbox handing out only the
 * head of each hook's queue (so a hook's deliveries keep their order) to one claimer at a time, retries, and the
 * record of attempts read newest first.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { worldBatch } from "../../src/server/services/world.js";
import { addEvent, emptyBatch, parseEvent } from "../../src/server/services/event-envelope.js";
import type { IngestBatch } from "../../src/server/store/store.js";
import { event } from "../helpers/events.js";
import type { DeliveryAttempt, HookOwner, NewHook, QueuedDelivery } from "../../src/server/store/hook-store.js";
import { DRIVERS, type OpenedStore } from "../helpers/store-drivers.js";
import { generateKeyPairSync } from "node:crypto";
import { AppRegistry } from "../../src/server/services/apps/app-registry.js";

const NOW = new Date("2026-01-15T10:00:00Z");
const T = NOW.getTime();

const hook = (owner: HookOwner, url: string, extra: Partial<NewHook> = {}): NewHook => ({
  owner,
  name: "web",
  active: true,
  events: ["push"],
  config: { url, contentType: "json", insecureSsl: "0", sealedSecret: null },
  ...extra,
});

const queued = (hookId: number, guid: string) => ({
  hookId,
  guid,
  event: "ping",
  action: null,
  eventId: null,
  body: `{"zen":"${guid}"}`,
  redelivery: false,
  installationId: null,
});

/** A batch of events, each given as [id, type, repository], by alice, or with an `org` when the repository's owner is acme. */
function eventsBatch(events: [string, string, string][]): IngestBatch {
  const batch = emptyBatch();
  events.forEach(([id, type, repo], i) => {
    const extra = repo.startsWith("acme/") ? { org: { login: "acme" } } : {};
    addEvent(batch, parseEvent(event(id, type, "alice", repo, extra), `events[${i}]`));
  });
  return batch;
}

const attempt = (d: QueuedDelivery, statusCode: number, at = NOW): DeliveryAttempt => ({
  hookId: d.hookId,
  guid: d.guid,
  deliveredAt: at,
  redelivery: d.redelivery,
  duration: 0.25,
  status: statusCode === 200 ? "OK" : `Invalid HTTP Response: ${statusCode}`,
  statusCode,
  event: d.event,
  action: d.action,
  repositoryId: 7,
  url: "http://receiver.test/hook",
  request: { headers: { "X-GitHub-Event": d.event }, payload: d.body ?? "" },
  response: { headers: { "content-type": "text/plain" }, payload: "thanks" },
});

for (const driver of DRIVERS) {
  describe(`hooks store contract: ${driver.name}`, { skip: driver.skip }, () => {
    let s: OpenedStore;
    let repo: HookOwner;
    let otherRepo: HookOwner;
    let org: HookOwner;
    before(async () => {
      s = await driver.open();
      await s.store.ingest.apply(
        await worldBatch(
          s.store,
          {
            users: [{ login: "alice", password: "pw" }],
            orgs: [{ login: "acme", members: ["alice"] }],
            repos: [{ full_name: "alice/tools" }, { full_name: "alice/other" }],
          },
          { baseDir: undefined },
        ),
        NOW,
      );
      repo = { kind: "repo", repoId: (await s.store.directory.findRepo("alice", "tools"))!.id };
      otherRepo = { kind: "repo", repoId: (await s.store.directory.findRepo("alice", "other"))!.id };
      org = { kind: "org", orgId: (await s.store.users.findByLogin("acme"))!.id };
    });
    after(() => s.close());

    test("a hook is found, listed, changed and deleted through its owner only", async () => {
      const created = await s.store.hooks.create(hook(repo, "http://a.test/1", { events: ["push", "issues"] }), NOW);
      assert.deepEqual(created.owner, repo);
      assert.deepEqual(created.events, ["push", "issues"]);
      assert.equal(created.active, true);
      assert.deepEqual(created.lastResponse, { code: null, status: "unused", message: null });
      assert.equal(created.createdAt.getTime(), T);
      assert.equal(await s.store.hooks.find(otherRepo, created.id), null, "another repository's hook is not found");
      assert.equal(await s.store.hooks.find(org, created.id), null);
      const orgHook = await s.store.hooks.create(hook(org, "http://a.test/org", { events: ["*"] }), NOW);
      const listed = await s.store.hooks.list(repo, { limit: 10, offset: 0 });
      assert.deepEqual(
        listed.rows.map((h) => h.id),
        [created.id],
      );
      assert.equal(listed.total, 1);
      assert.deepEqual(
        (await s.store.hooks.list(org, { limit: 10, offset: 0 })).rows.map((h) => h.id),
        [orgHook.id],
      );

      const later = new Date(T + 60_000);
      const changed = await s.store.hooks.update(
        repo,
        created.id,
        {
          active: false,
          config: { ...created.config, contentType: "form", sealedSecret: "sealed" },
        },
        later,
      );
      assert.equal(changed!.active, false);
      assert.deepEqual(changed!.events, ["push", "issues"], "what the change does not name stays");
      assert.equal(changed!.config.contentType, "form");
      assert.equal(changed!.config.sealedSecret, "sealed");
      assert.equal(changed!.updatedAt.getTime(), later.getTime());
      assert.equal(await s.store.hooks.update(otherRepo, created.id, { active: true }, later), null);

      assert.equal(await s.store.hooks.delete(otherRepo, created.id), false);
      assert.equal(await s.store.hooks.delete(repo, created.id), true);
      assert.equal(await s.store.hooks.find(repo, created.id), null);
      assert.equal(await s.store.hooks.delete(repo, created.id), false);
      await s.store.hooks.delete(org, orgHook.id);
    });

    test("the outbox hands out the head of each hook's queue, leased, and the next one only after it is finished", async () => {
      const first = await s.store.hooks.create(hook(repo, "http://a.test/first"), NOW);
      const second = await s.store.hooks.create(hook(otherRepo, "http://a.test/second"), NOW);
      await s.store.hooks.enqueue([queued(first.id, "f1"), queued(first.id, "f2"), queued(second.id, "s1")], NOW);
      assert.equal(await s.store.hooks.queued(first.id), 2);
      assert.equal(await s.store.hooks.nextDue(T), T);

      const claimed = await s.store.hooks.claim(T, 60_000, 10);
      assert.deepEqual(claimed.map((d) => d.guid).sort(), ["f1", "s1"], "one per hook: its oldest");
      assert.deepEqual(await s.store.hooks.claim(T + 1, 60_000, 10), [], "leased deliveries are not handed out again");
      assert.equal(
        await s.store.hooks.nextDue(T + 1),
        T + 60_000,
        "leased heads can be claimed when their lease runs out",
      );

      const f1 = claimed.find((d) => d.guid === "f1")!;
      assert.equal(f1.attempts, 0);
      await s.store.hooks.finish(f1, attempt(f1, 500), { kind: "retry", dueAt: T + 1_000 });
      assert.deepEqual(await s.store.hooks.claim(T + 500, 60_000, 10), [], "not due yet, and f2 waits behind it");
      const again = await s.store.hooks.claim(T + 1_000, 60_000, 10);
      assert.deepEqual(
        again.map((d) => [d.guid, d.attempts]),
        [["f1", 1]],
      );
      await s.store.hooks.finish(again[0]!, attempt(again[0]!, 200), { kind: "done" });
      const next = await s.store.hooks.claim(T + 1_001, 60_000, 10);
      assert.deepEqual(
        next.map((d) => d.guid),
        ["f2"],
      );

      // A claim whose claimer died runs out: another claimer gets the delivery once the lease has passed.
      const s1 = claimed.find((d) => d.guid === "s1")!;
      const expired = await s.store.hooks.claim(T + 60_001, 60_000, 10);
      assert.deepEqual(expired.map((d) => d.guid).sort(), ["s1"], "f2's lease (from T + 1,001) still runs");
      await s.store.hooks.finish(s1, attempt(s1, 200), { kind: "done" });
      await s.store.hooks.finish(next[0]!, attempt(next[0]!, 200), { kind: "done" });
      assert.equal(await s.store.hooks.nextDue(T), null);
      await s.store.hooks.delete(repo, first.id);
      await s.store.hooks.delete(otherRepo, second.id);
    });

    test("a claim of several per hook takes each hook's queue in order behind its head; finishAll records them and gives the rest back at once", async () => {
      const first = await s.store.hooks.create(hook(repo, "http://a.test/run-first"), NOW);
      const second = await s.store.hooks.create(hook(otherRepo, "http://a.test/run-second"), NOW);
      await s.store.hooks.enqueue(
        ["f1", "f2", "f3", "f4"].map((g) => queued(first.id, g)),
        NOW,
      );
      await s.store.hooks.enqueue([queued(second.id, "s1")], NOW);

      const claimed = await s.store.hooks.claim(T, 60_000, 10, 3);
      const guids = claimed.map((d) => d.guid);
      assert.deepEqual(
        guids.filter((g) => g.startsWith("f")),
        ["f1", "f2", "f3"],
        "the head, then those behind it, in order, up to 3",
      );
      assert.deepEqual(
        guids.slice(guids.indexOf("f1"), guids.indexOf("f1") + 3),
        ["f1", "f2", "f3"],
        "a hook's deliveries listed together",
      );
      assert.ok(guids.includes("s1"));
      assert.deepEqual(
        await s.store.hooks.claim(T + 1, 60_000, 10, 3),
        [],
        "leased, behind leased heads: nothing to hand out",
      );

      // f1 delivered, f2 failed (retried later): f3, not sent, is given back in the same transaction.
      const [f1, f2, f3] = ["f1", "f2", "f3"].map((g) => claimed.find((d) => d.guid === g)!);
      const disabled = await s.store.hooks.finishAll(
        [
          { delivery: f1!, attempt: attempt(f1!, 200), outcome: { kind: "done" } },
          { delivery: f2!, attempt: attempt(f2!, 500), outcome: { kind: "retry", dueAt: T + 1_000 } },
        ],
        [f3!.id],
      );
      assert.deepEqual(disabled, [false, false]);
      assert.deepEqual(
        (await s.store.hooks.deliveries(first.id, 10, null)).map((d) => [d.guid, d.statusCode]),
        [
          ["f2", 500],
          ["f1", 200],
        ],
      );
      assert.equal(await s.store.hooks.queued(first.id), 3, "f2 to retry, f3 and f4 behind it");
      assert.deepEqual(
        (await s.store.hooks.claim(T + 2, 60_000, 10, 3)).map((d) => d.guid),
        [],
        "f2 not due yet; f3 waits behind it",
      );
      const again = await s.store.hooks.claim(T + 1_000, 60_000, 10, 3);
      assert.deepEqual(
        again.map((d) => [d.guid, d.attempts]),
        [
          ["f2", 1],
          ["f3", 0],
          ["f4", 0],
        ],
        "in order again, f3 given back",
      );
      await s.store.hooks.delete(repo, first.id);
      await s.store.hooks.delete(otherRepo, second.id);
    });

    test("an inactive hook's deliveries wait; attempts are recorded newest first, with the hook's last response", async () => {
      const h = await s.store.hooks.create(hook(repo, "http://a.test/r"), NOW);
      await s.store.hooks.enqueue([queued(h.id, "r1"), queued(h.id, "r2"), queued(h.id, "r3")], NOW);
      await s.store.hooks.update(repo, h.id, { active: false }, NOW);
      assert.deepEqual(await s.store.hooks.claim(T, 1_000, 10), []);
      assert.equal(await s.store.hooks.nextDue(T), null, "nothing an active hook waits for");
      await s.store.hooks.update(repo, h.id, { active: true }, NOW);
      for (const [i, code] of [
        [0, 200],
        [1, 500],
        [2, 200],
      ] as const) {
        const [d] = await s.store.hooks.claim(T + i, 1, 10);
        assert.equal(d!.guid, `r${i + 1}`);
        await s.store.hooks.finish(d!, attempt(d!, code, new Date(T + i)), { kind: "done" });
        if (code === 500)
          assert.deepEqual((await s.store.hooks.find(repo, h.id))!.lastResponse, {
            code: 500,
            status: "misconfigured",
            message: "Invalid HTTP Response: 500",
          });
      }
      assert.deepEqual((await s.store.hooks.find(repo, h.id))!.lastResponse, {
        code: 200,
        status: "active",
        message: "OK",
      });
      const newest = await s.store.hooks.deliveries(h.id, 2, null);
      assert.deepEqual(
        newest.map((d) => d.guid),
        ["r3", "r2"],
      );
      const older = await s.store.hooks.deliveries(h.id, 2, newest.at(-1)!.id);
      assert.deepEqual(
        older.map((d) => d.guid),
        ["r1"],
      );
      const one = await s.store.hooks.delivery(h.id, older[0]!.id);
      assert.deepEqual(one!.request, { headers: { "X-GitHub-Event": "ping" }, payload: '{"zen":"r1"}' });
      assert.deepEqual(one!.response, { headers: { "content-type": "text/plain" }, payload: "thanks" });
      assert.equal(one!.duration, 0.25);
      assert.equal(one!.deliveredAt.getTime(), T);
      assert.equal(await s.store.hooks.delivery(h.id + 1000, older[0]!.id), null, "through its own hook only");
      await s.store.hooks.delete(repo, h.id);
      assert.equal(await s.store.hooks.delivery(h.id, older[0]!.id), null, "a deleted hook's record goes with it");
    });

    test("claims made at the same moment never share a delivery", async () => {
      const hooks = await Promise.all(
        ["a", "b", "c", "d", "e"].map((name) => s.store.hooks.create(hook(repo, `http://a.test/${name}`), NOW)),
      );
      await s.store.hooks.enqueue(
        hooks.map((h) => queued(h.id, `c${h.id}`)),
        NOW,
      );
      const claims = await Promise.all(Array.from({ length: 4 }, () => s.store.hooks.claim(T, 60_000, 2)));
      const guids = claims.flat().map((d) => d.guid);
      assert.equal(new Set(guids).size, guids.length, `handed out twice: ${guids.join(", ")}`);
      assert.equal(guids.length, 5);
      for (const h of hooks) await s.store.hooks.delete(repo, h.id);
    });

    test("an ingest queues, in its own transaction, one delivery per new event for each hook subscribed to its name", async () => {
      await s.store.ingest.apply(eventsBatch([["900", "CreateEvent", "acme/app"]]), NOW);
      const app: HookOwner = { kind: "repo", repoId: (await s.store.directory.findRepo("acme", "app"))!.id };
      const pushes = await s.store.hooks.create(hook(repo, "http://a.test/pushes", { events: ["push"] }), NOW);
      const all = await s.store.hooks.create(hook(org, "http://a.test/all", { events: ["*"] }), NOW);
      const appIssues = await s.store.hooks.create(hook(app, "http://a.test/issues", { events: ["issues"] }), NOW);
      const off = await s.store.hooks.create(hook(repo, "http://a.test/off", { events: ["*"], active: false }), NOW);

      const result = await s.store.ingest.apply(
        eventsBatch([
          ["901", "PushEvent", "alice/tools"],
          ["902", "IssuesEvent", "acme/app"],
          ["903", "WatchEvent", "acme/app"],
          ["904", "PushEvent", "alice/other"],
          ["905", "GistEvent", "alice/tools"],
          ["900", "CreateEvent", "acme/app"],
        ]),
        NOW,
      );
      assert.equal(result.eventsAdded, 5);
      assert.equal(result.hooksFull, undefined);
      const claimedAll = async () => {
        const out: QueuedDelivery[] = [];
        for (;;) {
          const batch = await s.store.hooks.claim(T, 1, 100);
          if (!batch.length) return out;
          for (const d of batch) await s.store.hooks.finish(d, attempt(d, 200), { kind: "done" });
          out.push(...batch);
        }
      };
      const delivered = (await claimedAll()).map((d) => [d.hookId, d.event, d.eventId]);
      assert.deepEqual(
        delivered.sort(),
        [
          [pushes.id, "push", "901"],
          [all.id, "issues", "902"],
          [all.id, "watch", "903"],
          [appIssues.id, "issues", "902"],
        ].sort(),
        "event 900 was stored before the hooks: never delivered; GistEvent has no webhook; the inactive hook gets none",
      );
      const guids = await Promise.all(
        [all.id, appIssues.id].map(
          async (id) => (await s.store.hooks.deliveries(id, 10, null)).find((d) => d.event === "issues")!.guid,
        ),
      );
      assert.equal(guids[0], guids[1], "one GUID an event, shared by its deliveries to every hook");

      const none = await s.store.ingest.apply(eventsBatch([["906", "PushEvent", "alice/tools"]]), NOW, {
        webhooks: null,
      });
      assert.equal(none.eventsAdded, 1);
      assert.equal(await s.store.hooks.queued(pushes.id), 0, "an import with --no-webhooks queues nothing");

      const full = await s.store.ingest.apply(
        eventsBatch([
          ["907", "PushEvent", "alice/tools"],
          ["908", "PushEvent", "alice/tools"],
          ["909", "PushEvent", "alice/tools"],
        ]),
        NOW,
        { webhooks: { maxQueue: 2 } },
      );
      assert.deepEqual(full.hooksFull, [pushes.id]);
      assert.equal(await s.store.hooks.queued(pushes.id), 2, "the queue stops at its bound");
      for (const h of [
        [repo, pushes],
        [org, all],
        [app, appIssues],
        [repo, off],
      ] as const)
        await s.store.hooks.delete(h[0], h[1].id);
    });

    test("sealed secrets are listed by hook id in pages, and resealed only while unchanged, leaving updated_at", async () => {
      const sealed = (secret: string) => ({
        config: {
          url: "http://k.test/",
          contentType: "json" as const,
          insecureSsl: "0" as const,
          sealedSecret: secret,
        },
      });
      const a = await s.store.hooks.create(hook(repo, "http://k.test/a", sealed("v1:a")), NOW);
      const none = await s.store.hooks.create(hook(repo, "http://k.test/none"), NOW);
      const b = await s.store.hooks.create(hook(org, "http://k.test/b", sealed("v1:b")), NOW);
      const first = await s.store.hooks.sealedSecrets(0, 1);
      assert.deepEqual(first, [{ hookId: a.id, sealed: "v1:a" }]);
      assert.deepEqual(
        await s.store.hooks.sealedSecrets(a.id, 10),
        [{ hookId: b.id, sealed: "v1:b" }],
        "hooks without a secret are left out",
      );
      assert.equal(await s.store.hooks.reseal(a.id, "v1:a", "v2:a"), true);
      assert.equal(
        await s.store.hooks.reseal(b.id, "v1:stale", "v2:b"),
        false,
        "a secret changed meanwhile is not overwritten",
      );
      const [afterA, afterB] = [await s.store.hooks.get(a.id), await s.store.hooks.get(b.id)];
      assert.equal(afterA!.config.sealedSecret, "v2:a");
      assert.equal(afterA!.updatedAt.getTime(), T);
      assert.equal(afterB!.config.sealedSecret, "v1:b");
      for (const [owner, h] of [
        [repo, a],
        [repo, none],
        [org, b],
      ] as const)
        await s.store.hooks.delete(owner, h.id);
    });

    test("a bulk redelivery queues each failed delivery since a time once, by hook and GUID, none delivered or queued, by scope", async () => {
      const a = await s.store.hooks.create(hook(repo, "http://a.test/"), NOW);
      const o = await s.store.hooks.create(hook(org, "http://o.test/"), NOW);
      const record = (hookId: number, guid: string, statusCode: number, minutesAgo: number) => {
        const d = { id: 0, ...queued(hookId, guid), body: `{"attempt":${minutesAgo}}`, attempts: 0 };
        return s.store.hooks.finish(d, attempt(d, statusCode, new Date(T - minutesAgo * 60_000)), { kind: "done" });
      };
      try {
        await record(a.id, "old", 500, 180); // before the window
        await record(a.id, "x", 500, 60);
        await record(a.id, "x", 503, 30); // its last failed attempt is the one queued
        await record(a.id, "y", 500, 60);
        await record(a.id, "y", 200, 50); // delivered since
        await record(a.id, "z", 500, 60);
        await s.store.hooks.enqueue([queued(a.id, "z")], NOW); // queued already
        await record(o.id, "w", 500, 60);
        const since = new Date(T - 2 * 3_600_000);

        assert.deepEqual(await s.store.hooks.redeliverFailed(repo, since, NOW), { queued: 1, hooks: 1 });
        assert.deepEqual(await s.store.hooks.redeliverFailed(repo, since, NOW), { queued: 0, hooks: 0 }, "once");
        assert.deepEqual(await s.store.hooks.redeliverFailed(otherRepo, since, NOW), { queued: 0, hooks: 0 });
        assert.deepEqual(
          await s.store.hooks.redeliverFailed({ kind: "all" }, since, NOW),
          { queued: 1, hooks: 1 },
          "the org's w",
        );
        assert.deepEqual(
          await s.store.hooks.redeliverFailed({ kind: "all" }, new Date(T - 4 * 3_600_000), NOW),
          { queued: 1, hooks: 1 },
          "a wider window takes the old one",
        );
        assert.deepEqual(await s.store.hooks.queueStats(T + 5_000), { depth: 4, oldestDue: T });

        const claimed = await s.store.hooks.claim(T, 60_000, 10);
        assert.deepEqual(
          claimed.map((d) => [d.hookId, d.guid, d.redelivery]).sort(),
          [
            [a.id, "z", false],
            [o.id, "w", true],
          ].sort(),
        );
        const [w] = claimed.filter((d) => d.guid === "w");
        assert.equal(w!.body, '{"attempt":60}', "the failed attempt's body");
      } finally {
        await s.store.hooks.delete(repo, a.id);
        await s.store.hooks.delete(org, o.id);
      }
      assert.deepEqual(await s.store.hooks.queueStats(T), { depth: 0, oldestDue: null });
    });

    test("an attempt keeps the hook's failing streak, and a rule turns off a hook failing since before it; reactivating clears both", async () => {
      const h = await s.store.hooks.create(hook(repo, "http://h.test/"), NOW);
      const d = { id: 0, ...queued(h.id, "s"), attempts: 0 };
      const rule = {
        failingBefore: T - 3_600_000,
        reason: "every delivery failed for 1 hour; the last: Invalid HTTP Response: 500",
      };
      try {
        assert.equal(
          await s.store.hooks.finish(d, attempt(d, 500, new Date(T - 2 * 3_600_000)), { kind: "done" }),
          false,
        );
        assert.equal(
          await s.store.hooks.finish(d, attempt(d, 200, new Date(T - 90 * 60_000)), { kind: "done" }, rule),
          false,
        );
        assert.equal((await s.store.hooks.get(h.id))!.failingSince, null, "a success ends the streak");
        assert.equal(
          await s.store.hooks.finish(d, attempt(d, 500, new Date(T - 70 * 60_000)), { kind: "done" }, rule),
          true,
        );
        const off = (await s.store.hooks.get(h.id))!;
        assert.deepEqual(
          [off.active, off.failingSince, off.disabled],
          [false, new Date(T - 70 * 60_000), { at: new Date(T - 70 * 60_000), reason: rule.reason }],
        );
        const on = (await s.store.hooks.update(repo, h.id, { active: true }, NOW))!;
        assert.deepEqual([on.active, on.failingSince, on.disabled], [true, null, null]);
      } finally {
        await s.store.hooks.delete(repo, h.id);
      }
    });

    // Last: the app and its hook stay.
    test("an app's hook gets the events of the repositories its installation selected, naming the installation", async () => {
      const registry = new AppRegistry(s.store, () => NOW);
      const { privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
      const app = await registry.register({
        name: "Contract Bot",
        owner: "alice",
        key: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
        webhookUrl: "http://a.test/app",
        permissions: { issues: "read" },
        events: ["push"],
      });
      const installation = await registry.install(app, "alice", ["other"]);
      const [appHook] = (await s.store.hooks.list({ kind: "app", appId: app.id }, { limit: 10, offset: 0 })).rows;
      assert.deepEqual([appHook!.config.url, appHook!.events], ["http://a.test/app", ["push"]]);
      assert.equal(await s.store.hooks.hasActiveHook((otherRepo as { repoId: number }).repoId), true);

      await s.store.ingest.apply(
        eventsBatch([
          ["991", "PushEvent", "alice/tools"],
          ["992", "PushEvent", "alice/other"],
          ["993", "IssuesEvent", "alice/other"],
        ]),
        NOW,
      );
      const claimed = await s.store.hooks.claim(T, 1, 100, 10);
      const toApp = claimed.filter((d) => d.hookId === appHook!.id);
      assert.deepEqual(
        toApp.map((d) => [d.event, d.action, d.eventId, d.installationId]),
        [
          ["installation", "created", null, installation.id],
          ["push", null, "992", installation.id],
        ],
        "installation.created was queued with the installation; alice/tools is not selected, and the installation " +
          "did not subscribe to issues",
      );
      for (const d of claimed) await s.store.hooks.finish(d, attempt(d, 200), { kind: "done" });
    });

    // After the app's: its installation is suspended and removed here.
    test("the hooks number rises with each change to who would receive webhooks, and not with a delivery's outcome", async () => {
      const number = async () => (await s.store.events.version()).hooks;
      const rises = async (what: string, change: () => Promise<unknown>, by = 1) => {
        const before = await number();
        await change();
        assert.equal(await number(), before + by, what);
      };
      let made: { id: number } | undefined;
      await rises("a hook made", async () => (made = await s.store.hooks.create(hook(repo, "http://a.test/n"), NOW)));
      const id = made!.id;
      await rises("turned off", () => s.store.hooks.update(repo, id, { active: false }, NOW));
      await rises("turned on", () => s.store.hooks.update(repo, id, { active: true }, NOW));
      await s.store.hooks.enqueue([queued(id, "number-1")], NOW);
      const [claimedOne] = (await s.store.hooks.claim(T, 1, 100, 10)).filter((d) => d.hookId === id);
      await rises(
        "an attempt recorded, failing",
        () => s.store.hooks.finish(claimedOne!, attempt(claimedOne!, 500), { kind: "done" }),
        0,
      );
      const app = (await s.store.apps.ownedBy((await s.store.users.findByLogin("alice"))!.id))[0]!;
      const [installation] = await s.store.apps.installations(app.id);
      await rises("an installation suspended", () => s.store.apps.setSuspended(installation!.id, NOW, NOW));
      await rises("and unsuspended", () => s.store.apps.setSuspended(installation!.id, null, NOW));
      await rises(
        "its repositories changed",
        () =>
          s.store.apps.setRepositories(
            installation!.id,
            installation!.repositoryIds,
            [],
            { action: "removed", body: "{}" },
            NOW,
          ),
        0,
      );
      await rises("an installation removed", () => s.store.apps.uninstall(installation!.id, "{}", NOW));
      await rises("a hook deleted", () => s.store.hooks.delete(repo, id));
    });
  });
}
