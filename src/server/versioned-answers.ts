/**
 * Answers kept under the store's version (StoreVersion) that stood when they were made, and given again only while
 * every one of its numbers stands: each is raised in the transaction of the writes it covers (ingests and actions
 * raise the generation, triggers the others; store/remembering-store.ts), and a reset raises them all, so a kept
 * answer can never outlive a write. A look-up made after the version was read is at least as new as it: keeping what
 * it found under that version can hand a later request a newer answer, never an older one.
 *
 * Each instance keeps its own (a shared app's doubles have their own databases, whose numbers may coincide).
 * Values are frozen, all the way down: what is kept cannot be changed by a request it is handed to.
 */
import { entryBoundedCache } from "./bounded-cache.js";
import type { StoreVersion } from "./store/store.js";

const sameVersion = (a: StoreVersion, b: StoreVersion) =>
  a === b ||
  (a.generation === b.generation &&
    a.credentials === b.credentials &&
    a.repos === b.repos &&
    a.access === b.access &&
    a.received === b.received);

interface Kept<V> {
  version: StoreVersion;
  value: V;
}

export class VersionedAnswers<V extends object> {
  private readonly kept;

  constructor(entries: number) {
    this.kept = entryBoundedCache<string, Kept<V>>(entries);
  }

  /** The answer kept for `key`, when it was made under `version`'s very numbers. */
  get(key: string, version: StoreVersion | null): V | undefined {
    if (version === null) return undefined;
    const kept = this.kept.get(key);
    return kept !== undefined && sameVersion(kept.version, version) ? kept.value : undefined;
  }

  /** Keeps `value` (frozen here) as the answer for `key` under `version`, the one read before it was made. */
  set(key: string, version: StoreVersion | null, value: V): V {
    if (version === null) return value;
    const frozen = deepFreeze(value);
    this.kept.set(key, { version, value: frozen });
    return frozen;
  }
}

/** The objects deepFreeze froze, each with everything in it. */
const deeplyFrozen = new WeakSet<object>();

/** Whether `value` is an object deepFreeze froze: it and everything in it can never change. */
export const isDeeplyFrozen = (value: object): boolean => deeplyFrozen.has(value);

/** `value` and every object in it, frozen. */
export function deepFreeze<T>(value: T): T {
  if (typeof value !== "object" || value === null || deeplyFrozen.has(value)) return value;
  for (const inner of Object.values(value)) deepFreeze(inner);
  Object.freeze(value);
  deeplyFrozen.add(value);
  return value;
}
