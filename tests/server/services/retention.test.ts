/**
 * The retention loop alone, over a store that counts its calls: a backlog goes in batches with the event loop free
 * between two, a stop ends a run after its batch, and every cut-off comes from the clock it was given.
 */
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { Retention, type RetentionPolicy } from "../../../src/server/services/retention.js";
import type { EventsPruned, RetentionStore } from "../../../src/server/store/store.js";
import { turnCounter, until } from "../../helpers/wait.js";

const NOW = new Date("2026-01-15T10:00:00Z");
const POLICY: RetentionPolicy = {
  webhookDeliveriesMs: 30 * 86_400_000,
  eventsMs: null,
  intervalMs: 600_000,
  batchSize: 10,
};
const quiet = { info: () => undefined, warn: () => undefined };

/** A store holding `backlog` old webhook attempts, and nothing else to prune. */
function backlogStore(backlog: number, onBatch: () => void = () => undefined) {
  const cutOffs: Date[] = [];
  const store: RetentionStore = {
    async pruneDeliveries(before, limit) {
      cutOffs.push(before);
      onBatch();
      const n = Math.min(limit, backlog);
      backlog -= n;
      return n;
    },
    pruneSessions: async () => 0,
    pruneEvents: async (): Promise<EventsPruned> => ({ rows: 0, partitions: 0 }),
    prepareEvents: async () => undefined,
  };
  return { store, cutOffs, left: () => backlog };
}

describe("the retention loop", () => {
  test("a backlog goes a batch at a time, with the event loop free between two batches; cut-offs from the clock", async () => {
    const loop = turnCounter();
    const batchesSeen: number[] = [];
    const s = backlogStore(95, () => batchesSeen.push(loop.turn));
    const pruned: number[] = [];
    const retention = new Retention({
      store: s.store,
      clock: () => NOW,
      policy: POLICY,
      report: { pruned: (_kind, n) => pruned.push(n), ran: () => undefined },
      log: quiet,
    });
    try {
      const result = await retention.run();
      assert.equal(result.webhook_deliveries, 95);
      assert.deepEqual(pruned, [10, 10, 10, 10, 10, 10, 10, 10, 10, 5]);
    } finally {
      loop.stop();
    }
    assert.equal(s.left(), 0);
    assert.equal(s.cutOffs[0]!.toISOString(), "2025-12-16T10:00:00.000Z", "30 days before the clock's time");
    // setImmediate between batches lets I/O and timers run: the loop turns between any two batches.
    assert.ok(
      batchesSeen.every((turn, i) => i === 0 || turn > batchesSeen[i - 1]!),
      `the event loop turned between batches: ${batchesSeen.join(",")}`,
    );
  });

  test("stop() ends a run after the batch in progress, and no run starts after it", async () => {
    let retention: Retention | undefined;
    let stopped: Promise<void> | undefined;
    const s = backlogStore(1_000, () => {
      if (s.cutOffs.length === 3) stopped = retention!.stop();
    });
    const ran: Date[] = [];
    retention = new Retention({
      store: s.store,
      clock: () => NOW,
      policy: POLICY,
      report: { pruned: () => undefined, ran: (at) => ran.push(at) },
      log: quiet,
    });
    retention.start();
    // However loaded the machine: the third batch asks for the stop.
    await until(() => stopped !== undefined, "the third batch", { every: 5 });
    await stopped;
    assert.equal(s.cutOffs.length, 3, "three batches, the third finished");
    assert.equal(s.left(), 970);
    retention.wake();
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(s.cutOffs.length, 3, "a stopped retention does not run again");
  });

  test("off keeps everything: no webhook attempt is asked for", async () => {
    const s = backlogStore(5);
    await new Retention({
      store: s.store,
      clock: () => NOW,
      policy: { ...POLICY, webhookDeliveriesMs: null },
      report: { pruned: () => undefined, ran: () => undefined },
      log: quiet,
    }).run();
    assert.equal(s.cutOffs.length, 0);
  });
});
