/**
 * Retention's part of the store contract, on every driver: each batch deletes at most its limit, oldest first, and
 * nothing younger than its cut-off; large request bodies are stored compressed and read back whole. SQLite deletes
 * events row by row (PostgreSQL drops months: tests/store/event-partitions.test.ts).
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { worldBatch } from "../../src/server/services/world.js";
import { emptyBatch } from "../../src/server/services/event-envelope.js";
import { DRIVERS, type OpenedStore } from "../helpers/store-drivers.js";
import { createHook, recordAttempt } from "../helpers/hook-fixtures.js";
import type { HookRow } from "../../src/server/store/hook-store.js";

const NOW = new Date("2026-01-15T10:00:00Z");
const at = (minutes: number) => new Date(NOW.getTime() + minutes * 60_000);

for (const driver of DRIVERS) {
  describe(`retention store contract: ${driver.name}`, { skip: driver.skip }, () => {
    let s: OpenedStore;
    let hook: HookRow;
    let alice: number;
    before(async () => {
      s = await driver.open();
      await s.store.ingest.apply(
        await worldBatch(
          s.store,
          {
            users: [{ login: "alice", password: "pw" }],
            repos: [{ full_name: "alice/tools" }],
          },
          { baseDir: undefined },
        ),
        NOW,
      );
      hook = await createHook(s.store, {
        kind: "repo",
        repoId: (await s.store.directory.findRepo("alice", "tools"))!.id,
      });
      alice = (await s.store.users.findByLogin("alice"))!.id;
    });
    after(async () => s?.close());

    test("webhook attempts: at most a batch at a time, oldest first, none at or after the cut-off", async () => {
      for (const minute of [0, 1, 2, 3, 4])
        await recordAttempt(s.store, hook, { guid: `g${minute}`, deliveredAt: at(minute) });
      const guids = async () => (await s.store.hooks.deliveries(hook.id, 100, null)).map((d) => d.guid);
      assert.equal(await s.store.retention.pruneDeliveries(at(3), 2), 2);
      assert.deepEqual(await guids(), ["g4", "g3", "g2"]);
      assert.equal(await s.store.retention.pruneDeliveries(at(3), 2), 1);
      assert.equal(await s.store.retention.pruneDeliveries(at(3), 2), 0);
      assert.deepEqual(await guids(), ["g4", "g3"]);
    });

    test("a request body past 4 KiB is stored compressed and read back byte for byte", async () => {
      const payload = JSON.stringify({ text: randomBytes(8000).toString("base64"), é: "ü\u2028" });
      await recordAttempt(s.store, hook, { guid: "big", deliveredAt: at(10), request: { headers: {}, payload } });
      const [row] = await s.store.hooks.deliveries(hook.id, 1, null);
      assert.equal(row!.guid, "big");
      assert.equal(row!.request.payload, payload);
      assert.equal((await s.store.hooks.delivery(hook.id, row!.id))!.request.payload, payload);
    });

    test("expired sessions: idle or too old, at most a batch at a time; live ones stay", async () => {
      const session = (n: number) => ({ idHash: `h${n}`, userId: alice, credential: "c", verified: true });
      await s.store.sessions.create(session(1), at(0));
      await s.store.sessions.create(session(2), at(1));
      await s.store.sessions.create(session(3), at(5));
      assert.equal(await s.store.retention.pruneSessions(at(2), at(-100), 1), 1);
      assert.equal(await s.store.retention.pruneSessions(at(2), at(-100), 5), 1);
      assert.deepEqual([await s.store.sessions.find("h1"), await s.store.sessions.find("h2")], [null, null]);
      assert.notEqual(await s.store.sessions.find("h3"), null);
      assert.equal(await s.store.retention.pruneSessions(at(0), at(6), 5), 1, "created before the absolute cut-off");
    });

    test("SQLite events: a batch at a time, oldest first, the generation raised, the newest arrival kept whatever its age", {
      skip: driver.name !== "sqlite" && "PostgreSQL drops whole months (event-partitions.test.ts)",
    }, async () => {
      const batch = emptyBatch();
      batch.accounts.push({ source: "t", login: "alice", type: "User" });
      // Arrival order: 3, 1, 2, 4: the last to arrive (4) is the oldest.
      for (const [id, day] of [
        ["3", 3],
        ["1", 1],
        ["2", 2],
        ["4", 0],
      ] as const) {
        batch.events.push({
          source: id,
          id,
          type: "PushEvent",
          actorLogin: "alice",
          repoName: null,
          orgLogin: null,
          public: true,
          createdAt: new Date(Date.UTC(2025, 0, 1 + day)),
          complete: false,
          body: `{"n":${id}}`,
        });
      }
      await s.store.ingest.apply(batch, NOW);
      const left = async () =>
        (
          await s.store.events.feed(
            { kind: "all" },
            { visibility: { kind: "all" }, notBefore: null, limit: 10, offset: 0 },
          )
        ).rows.map((r) => JSON.parse(r.body).n as number);
      const generation = (await s.store.events.version()).generation;
      const cutOff = new Date(Date.UTC(2025, 0, 4)); // 4, 1 and 2 are older than 3
      assert.deepEqual(await s.store.retention.pruneEvents(cutOff, 1), { rows: 1, partitions: 0 });
      assert.deepEqual(await left(), [3, 2, 4], "the oldest that is not the newest arrival");
      assert.equal((await s.store.events.version()).generation, generation + 1);
      assert.deepEqual(await s.store.retention.pruneEvents(cutOff, 5), { rows: 1, partitions: 0 });
      assert.deepEqual(await s.store.retention.pruneEvents(cutOff, 5), { rows: 0, partitions: 0 });
      assert.equal(
        (await s.store.events.version()).generation,
        generation + 2,
        "a batch that deletes nothing raises nothing",
      );
      assert.deepEqual(await left(), [3, 4]);
    });
  });
}
