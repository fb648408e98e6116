/**
 * Read-your-writes across standbys: what a request must see, and where it reads.
 *
 * A request is a read scope (AsyncLocalStorage, so the executor deep below the routes finds it without every store
 * method passing it): its callers' keys (its credential and its client address), the floor (the highest WAL position
 * either key last wrote at, from LsnFloors) and, once its first read chose one, the server it reads from. Every read
 * of the request goes to that one server, so a page and the version that keyed it come from one history. A write
 * raises both keys' floors to the primary's position after its commit, so the caller's next request, on any instance
 * that shares the floors, reads from a server that has replayed it. The client address counts too because a token
 * made with a password is used next, by the same client, under another credential.
 *
 * Work outside a request (webhook deliveries, retention) has no scope and reads the primary.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { entryBoundedCache } from "../../bounded-cache.js";
import type { Standby } from "./standbys.js";

export interface ReadScope {
  readonly keys: readonly string[];
  /** The WAL position this request's reads must have replayed. */
  floor: bigint;
  /** The server chosen by the first read: a standby, null for the primary; undefined until then. */
  server: Standby | null | undefined;
}

export const readScopes = new AsyncLocalStorage<ReadScope>();

/** Where the callers' floors are kept: in process for one instance, in Redis for several (redis-lsn-floors.ts). */
export interface LsnFloors {
  /** The highest position any of `keys` wrote at; 0 for keys that never wrote (or long enough ago to be forgotten). */
  floor(keys: readonly string[]): Promise<bigint>;
  raise(keys: readonly string[], lsn: bigint): Promise<void>;
  close(): Promise<void>;
}

/**
 * A standby that fell behind a caller's write by more than this is so far behind that the lag limit leaves it out
 * anyway: a floor older than this need not be kept.
 */
export const FLOOR_KEPT_MS = 10 * 60_000;

/** Callers' floors of this instance only: right for one instance; several need the shared ones. */
export class MemoryLsnFloors implements LsnFloors {
  private readonly floors = entryBoundedCache<string, bigint>(100_000);

  async floor(keys: readonly string[]): Promise<bigint> {
    let floor = 0n;
    for (const key of keys) {
      const lsn = this.floors.get(key);
      if (lsn !== undefined && lsn > floor) floor = lsn;
    }
    return floor;
  }

  async raise(keys: readonly string[], lsn: bigint): Promise<void> {
    for (const key of keys) {
      const known = this.floors.get(key);
      if (known === undefined || known < lsn) this.floors.set(key, lsn);
    }
  }

  async close(): Promise<void> {}
}
