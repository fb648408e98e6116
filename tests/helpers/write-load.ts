/**
 * A steady load of writes through HTTP for the backup tests: writers, each posting one event at a time to
 * `POST /admin/events` of a real server and keeping the ids acknowledged, in order; and the reading back of what a
 * database holds of them, through the API. A writer's n-th event has the id `writer * 1,000,000 + n`, on the
 * repository `load/r<writer>`, so a consistent copy holds, of each writer, its first k events and no other.
 */
import assert from "node:assert/strict";
import { buildApp } from "../../src/server/app.js";
import { loadConfig } from "../../src/server/config.js";
import type { Store } from "../../src/server/store/store.js";
import { event } from "./events.js";
import { basic } from "./test-app.js";
import { TEST_PASSWORD_COST } from "./password-cost.js";

/** The site administrator the load writes as: give the server FEEDGATE_ADMIN=`ADMIN_LOGIN`. */
export const ADMIN_LOGIN = "root:change-me";
const ADMIN = basic("root", "change-me");

export interface WriteLoad {
  /** Each writer's acknowledged event ids, in the order it wrote them. */
  acknowledged: string[][];
  /** Every writer's acknowledged count now. */
  counts(): number[];
  /** Stops the writers after their write in flight; rejects with a writer's failure. */
  stop(): Promise<void>;
}

export function startWriteLoad(url: string, writers: number): WriteLoad {
  const acknowledged: string[][] = Array.from({ length: writers }, () => []);
  let writing = true;
  const writer = async (w: number) => {
    for (let n = 1; writing; n++) {
      const id = String(w * 1_000_000 + n);
      const response = await fetch(`${url}/admin/events`, {
        method: "POST",
        headers: { authorization: ADMIN, "content-type": "application/json" },
        body: JSON.stringify([event(id, "WatchEvent", `writer${w}`, `load/r${w}`, { payload: { action: "started" } })]),
      });
      assert.equal(response.status, 200, await response.clone().text());
      assert.equal(((await response.json()) as { events_added: number }).events_added, 1);
      acknowledged[w]!.push(id);
    }
  };
  const running = Array.from({ length: writers }, (_, w) => writer(w));
  return {
    acknowledged,
    counts: () => acknowledged.map((ids) => ids.length),
    async stop() {
      writing = false;
      await Promise.all(running);
    },
  };
}

/** The first `count` ids of writer `w`: what a consistent copy holding `count` of its writes holds. */
export const firstIds = (w: number, count: number) =>
  Array.from({ length: count }, (_, i) => String(w * 1_000_000 + i + 1));

/** The event ids the feed of each writer's repository holds in the database of `store`, read through the API, in order. */
export async function idsInFeeds(db: string, store: Store, writers: number): Promise<string[][]> {
  const app = await buildApp({
    config: loadConfig({ db, logLevel: "silent", rateLimitAnonymous: 1_000_000, passwordCost: TEST_PASSWORD_COST }, {}),
    store,
  });
  try {
    const ids: string[][] = [];
    for (let writer = 0; writer < writers; writer++) {
      const found: string[] = [];
      for (let page = 1; ; page++) {
        const response = await app.inject({ url: `/repos/load/r${writer}/events?per_page=100&page=${page}` });
        if (response.statusCode === 404 && page === 1) break; // the repository came with the writer's first event
        assert.equal(response.statusCode, 200, response.body);
        const events = response.json<{ id: string }[]>();
        if (events.length === 0) break;
        found.push(...events.map((e) => e.id));
      }
      ids.push(found.sort((a, b) => Number(a) - Number(b)));
    }
    return ids;
  } finally {
    await app.close();
  }
}
