/**
 * An LRU cache bounded by its number of entries, without lru-cache's `max`: that option fills arrays of `max` slots
 * up front, which for the ten caches an app holds was 55 ms of every start (the test double starts one per test).
 * A size of one per entry gives the same bound on arrays that grow as entries arrive.
 */
import { LRUCache } from "lru-cache";

export function entryBoundedCache<K extends {}, V extends {}>(entries: number): LRUCache<K, V> {
  return new LRUCache<K, V>({ maxSize: entries, sizeCalculation: () => 1 });
}
