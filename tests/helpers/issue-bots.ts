/**
 * Four bots opening issues on a repository of a real server, for the tests that take its database away under writes
 * (a failover, a pooler killed): each write is acknowledged (201, its number kept) or refused, and every status is
 * counted, so that a test can check that the answers were only 201s and 503s and that every acknowledged issue is
 * stored, once.
 */
import assert from "node:assert/strict";
import { eventually, sleep } from "./wait.js";

export interface IssueBots {
  /** The numbers of the issues acknowledged, in the order the answers came. */
  readonly acknowledged: number[];
  /** Answers by status; 0 for a request that got none. */
  readonly statuses: Map<number, number>;
  /** From now on, the first acknowledgement of a write sent after this moment is timed (`firstAfterMark`). */
  mark(): void;
  /** performance.now() of the first acknowledgement of a write sent after mark(); 0 until then. */
  readonly firstAfterMark: number;
  /** Waits until `more` writes past those acknowledged now are acknowledged; fails after 20 s. */
  acknowledgeMore(more: number): Promise<void>;
  /** Stops the bots after their writes in flight. */
  stop(): Promise<void>;
}

/** Starts the bots on `repo` (`owner/name`) of the server at `url`, writing with `token`. */
export function startIssueBots(url: string, token: string, repo = "octo/tools"): IssueBots {
  const acknowledged: number[] = [];
  const statuses = new Map<number, number>();
  let markedAt = 0;
  let firstAfterMark = 0;
  let stopped = false;
  const bot = async (name: string) => {
    for (let i = 0; !stopped; i++) {
      const sentAfterMark = markedAt > 0;
      const res = await fetch(`${url}/repos/${repo}/issues`, {
        method: "POST",
        headers: { authorization: `token ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ title: `${name} ${i}` }),
      }).catch(() => undefined);
      const status = res?.status ?? 0;
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      if (status === 201) {
        acknowledged.push(((await res!.json()) as { number: number }).number);
        if (sentAfterMark && !firstAfterMark) firstAfterMark = performance.now();
      } else {
        await res?.body?.cancel();
        await sleep(20);
      }
    }
  };
  const running = ["a", "b", "c", "d"].map(bot);
  return {
    acknowledged,
    statuses,
    mark: () => void (markedAt = performance.now()),
    get firstAfterMark() {
      return firstAfterMark;
    },
    async acknowledgeMore(more) {
      const target = acknowledged.length + more;
      const reached = await eventually(
        () => acknowledged.length,
        (n) => n >= target,
        { ms: 20_000, every: 10 },
      );
      assert.ok(
        reached >= target,
        `${target - reached} more writes not acknowledged: ${JSON.stringify([...statuses])}`,
      );
    },
    async stop() {
      stopped = true;
      await Promise.all(running);
    },
  };
}

/**
 * What every test of writes under a fault checks: only 201s and 503s, some of each (so the fault was felt), and every
 * acknowledged issue among `stored` (the numbers the database holds), acknowledged once.
 */
export function assertNoneLost(bots: IssueBots, stored: Iterable<number>): void {
  const statuses = JSON.stringify([...bots.statuses]);
  assert.deepEqual(
    [...bots.statuses.keys()].filter((s) => s !== 201 && s !== 503),
    [],
    `only 201s and 503s: ${statuses}`,
  );
  assert.ok((bots.statuses.get(503) ?? 0) > 0, `writes were refused while the database was away: ${statuses}`);
  const numbers = new Set(stored);
  assert.deepEqual(
    bots.acknowledged.filter((n) => !numbers.has(n)),
    [],
    "no acknowledged issue was lost",
  );
  assert.equal(new Set(bots.acknowledged).size, bots.acknowledged.length, "no issue was acknowledged twice");
}
