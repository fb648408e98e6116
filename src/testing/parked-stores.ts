/**
 * The stores of closed test doubles, kept for the next double of the same settings, world and time (issue 47: after
 * the shared app, a start's largest costs were its database: the image opened and its schema read, the world seeded,
 * its statements prepared, the image resets return to taken). A closed double's store is parked, and put back at its
 * start when taken (its reset(): one rollback to the image it is held at), so the next start that would build
 * the very same database sees what a fresh one would have built.
 *
 * A world seeded on a running clock bears its start's second (start.ts), so its store serves the starts of that second
 * only, and is closed rather than parked once the second is past. A store whose reset fails when taken is closed, and
 * the start builds its own.
 */
import { createHash } from "node:crypto";
import type { Config } from "../server/config.js";
import { settingsKey } from "../server/shared-app.js";
import type { SecretBox } from "../server/webhooks/secret-box.js";
import type { SqliteStore } from "../server/store/sqlite/sqlite-store.js";

/** A closed double's store, the box its world's webhook secrets were sealed with, and how to put it back at its start. */
export interface ParkedStore {
  store: SqliteStore;
  secrets: SecretBox;
  /** The closed double's reset(): called when the store is taken, so that a store never taken costs its close nothing. */
  backToStart: () => Promise<void>;
  /** The wall clock's time (ms) from which no start can take it: the end of its second on a running clock. */
  takenUntil: number;
}

/** Stores kept per key, and in all: each holds its world's rows and its image. */
const PER_KEY = 2;
const IN_ALL = 8;

/** By key, each key's stores oldest first; the keys in the order they were first parked (a Map's). */
const parked = new Map<string, ParkedStore[]>();
let count = 0;

/**
 * What makes two starts build the same database: their settings (shared-app.ts's key, the port aside), the world (as
 * read) and its base, and the time.
 */
export function parkingKey(config: Config, world: unknown, baseDir: string | undefined, now: Date): string {
  return createHash("sha256")
    .update(JSON.stringify([settingsKey(config), world ?? null, baseDir ?? null, now.toISOString()]))
    .digest("base64");
}

/** A parked store for `key`, taken out of the lot and put back at its start; undefined when there is none. */
export async function takeParked(key: string): Promise<ParkedStore | undefined> {
  const stores = parked.get(key);
  const taken = stores?.pop();
  if (!taken) return undefined;
  count--;
  if (stores?.length === 0) parked.delete(key);
  try {
    await taken.backToStart();
    return taken;
  } catch {
    await taken.store.close().catch(() => undefined);
    return undefined;
  }
}

/** Parks `parking` under `key`; closes its store instead when the lot is full for the key. */
export async function park(key: string, parking: ParkedStore): Promise<void> {
  await closePast();
  const stores = parked.get(key) ?? [];
  if (stores.length >= PER_KEY || parking.takenUntil <= Date.now()) return parking.store.close();
  // When the lot is full in all, the key parked longest gives up its oldest store.
  if (count >= IN_ALL) await closeOldest();
  stores.push(parking);
  parked.set(key, stores);
  count++;
}

async function closeOldest(): Promise<void> {
  const [key, stores] = parked.entries().next().value ?? [];
  const oldest = stores?.shift();
  if (!oldest || key === undefined) return;
  count--;
  if (stores?.length === 0) parked.delete(key);
  await oldest.store.close();
}

/** Closes the stores no start can take any more (their second is past), so they hold no memory and no place. */
async function closePast(): Promise<void> {
  const now = Date.now();
  for (const [key, stores] of parked) {
    const past = stores.filter((store) => store.takenUntil <= now);
    if (past.length === 0) continue;
    const kept = stores.filter((store) => store.takenUntil > now);
    if (kept.length === 0) parked.delete(key);
    else parked.set(key, kept);
    count -= past.length;
    for (const store of past) await store.store.close();
  }
}

/** Closes every parked store (a test of the lot; a process that ends frees them anyway). */
export async function closeParked(): Promise<void> {
  while (count > 0) await closeOldest();
}
