/**
 * An LRU cache bounded by its number of entries, without lru-cache's `max`: that option fills arrays of `max` slots
 * up front, a large part of an app's start for the caches it holds (the test double starts one per test).
 * A size of one per entry gives the same bound on arrays that grow as entries arrive.
 */
import { LRUCache } from "lru-cache";

export function entryBoundedCache<K extends {}, V extends {}>(entries: number): LRUCache<K, V> {
  return new LRUCache<K, V>({ maxSize: entries, sizeCalculation: () => 1 });
}
