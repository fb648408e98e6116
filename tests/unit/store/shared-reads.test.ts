/**
 * Shared reads (store/postgres/shared-reads.ts): concurrent callers share one round trip, but never one that started
 * before they arrived, whose snapshot could miss a write committed just before them. The reads here are the
 * database as a counter that a "write" raises, each read settled by hand, so every interleaving is chosen.
 */
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { SharedReads } from "../../../src/server/store/postgres/shared-reads.js";

/** A database of numbers by key; each read takes its snapshot when it starts and answers when `finish()` says. */
function database(stalledMs?: number) {
  const values = new Map<string, number>();
  const pending: { key: string; finish: (fail?: Error) => void }[] = [];
  const reads = new SharedReads<string, number>((key) => {
    const snapshot = values.get(key) ?? 0;
    return new Promise<number>((resolve, reject) => {
      pending.push({ key, finish: (fail) => (fail ? reject(fail) : resolve(snapshot)) });
    });
  }, stalledMs);
  return {
    reads,
    write: (key: string) => values.set(key, (values.get(key) ?? 0) + 1),
    /** Reads started and not yet answered. */
    pending,
    /** Answers the oldest read in flight, and lets the callers' continuations run. */
    async finishOldest(fail?: Error) {
      pending.shift()!.finish(fail);
      await new Promise((resolve) => setImmediate(resolve));
    },
  };
}

describe("shared reads", () => {
  test("a caller never gets a read that started before it came: it waits for the next, which sees a write in between", async () => {
    const db = database();
    const first = db.reads.get("version");
    db.write("version"); // committed after the first read took its snapshot, before the next caller came
    const second = db.reads.get("version");
    const third = db.reads.get("version");
    assert.equal(db.pending.length, 1, "one read at a time per key: the later callers queue behind it");
    await db.finishOldest();
    assert.equal(await first, 0);
    assert.equal(db.pending.length, 1, "the queued read starts once the one in flight is done");
    await db.finishOldest();
    assert.equal(await second, 1, "the write committed before the second caller came is seen");
    assert.equal(await third, 1);
    assert.equal(second, third, "callers queued together share one read");
  });

  test("callers that come while the queued read is in flight queue a read of their own", async () => {
    const db = database();
    const first = db.reads.get("version");
    const second = db.reads.get("version");
    await db.finishOldest(); // the second's read starts now
    db.write("version");
    const third = db.reads.get("version");
    assert.notEqual(third, second);
    await db.finishOldest();
    await db.finishOldest();
    assert.deepEqual([await first, await second, await third], [0, 0, 1]);
  });

  test("keys are read apart, and a key whose reads are done starts the next read at once", async () => {
    const db = database();
    const a = db.reads.get("user 1");
    const b = db.reads.get("user 2");
    assert.deepEqual(
      db.pending.map((read) => read.key),
      ["user 1", "user 2"],
    );
    await db.finishOldest();
    await db.finishOldest();
    assert.deepEqual([await a, await b], [0, 0]);
    db.write("user 1");
    const again = db.reads.get("user 1");
    assert.equal(db.pending.length, 1, "nothing in flight: no waiting behind an older read");
    await db.finishOldest();
    assert.equal(await again, 1);
  });

  test("a read in flight that stalls is not waited for past the limit: the queued read starts, and the stalled one's end leaves it be", async () => {
    const db = database(20);
    const stalled = db.reads.get("version");
    db.write("version");
    const queued = db.reads.get("version");
    await new Promise((resolve) => setTimeout(resolve, 60));
    assert.equal(db.pending.length, 2, "the queued read started while the first was still in flight");
    const [first, second] = db.pending.splice(0, 2) as [(typeof db.pending)[0], (typeof db.pending)[0]];
    second.finish();
    assert.equal(await queued, 1, "it saw the write made before its callers came");
    // A caller now queues behind nothing stale: the stalled read's end must not drop the entry of a read started later.
    const later = db.reads.get("version");
    assert.equal(db.pending.length, 1, "nothing in flight after the queued read settled: a read of its own");
    first.finish();
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(await stalled, 0);
    const queuedBehindLater = db.reads.get("version");
    assert.equal(
      db.pending.length,
      1,
      "the read started later is still in flight, and the new caller queues behind it",
    );
    await db.finishOldest();
    await db.finishOldest();
    assert.deepEqual([await later, await queuedBehindLater], [1, 1]);
  });

  test("a failed read fails its callers only; queued callers get a read of their own, and so does the next caller", async () => {
    const db = database();
    const failing = db.reads.get("version");
    const queued = db.reads.get("version");
    const outage = new Error("connection terminated");
    db.write("version");
    await Promise.all([assert.rejects(failing, outage), db.finishOldest(outage)]);
    await db.finishOldest();
    assert.equal(await queued, 1);
    const thrown = new SharedReads<string, number>(() => {
      throw outage;
    });
    await assert.rejects(thrown.get("version"), outage, "a read that throws rejects, and leaves nothing behind");
    await assert.rejects(thrown.get("version"), outage);
  });
});
