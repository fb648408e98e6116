/**
 * Feed pages kept in memory between requests: feeds are polled constantly, and a page's rows, total and
 * newest time cost a count over the whole feed. Entries are keyed by the ingest generation, which every
 * ingest raises in its transaction and every lookup reads from the database, so a page is never served after
 * anything it shows has changed, on this instance or any other sharing the database.
 *
 * Concurrent misses for one page share one load (lru-cache's fetch): right after an ingest every poller of a
 * busy feed misses at once, and each would otherwise count the whole feed again.
 */
import { LRUCache } from "lru-cache";
import type { Counter } from "prom-client";
import type { FeedPage } from "../store/store.js";

type Load = () => Promise<FeedPage>;

export class FeedPageCache {
  private readonly pages: LRUCache<string, FeedPage, Load> | null;

  /**
   * @param maxBytes the memory pages may take (their JSON text); 0 turns caching off.
   * @param requests counts each request as a `hit` (no load of its own) or a `miss` (it loaded the page).
   */
  constructor(maxBytes: number, private readonly requests?: Counter<"result">) {
    this.pages = maxBytes > 0 ? new LRUCache<string, FeedPage, Load>({
      maxSize: maxBytes,
      sizeCalculation: (page) => page.rows.reduce((bytes, row) => bytes + row.body.length, 256),
      fetchMethod: (_key, _stale, { context: load }) => load(),
      // A load whose entry is evicted meanwhile (other pages needing the room) still answers its requests.
      ignoreFetchAbort: true,
    }) : null;
  }

  async get(key: string, generation: () => Promise<number>, load: Load): Promise<FeedPage> {
    if (!this.pages) {
      this.requests?.inc({ result: "miss" });
      return load();
    }
    // A request that joins another's load in flight runs none of its own: that is a hit.
    let loaded = false;
    const loadHere: Load = () => {
      loaded = true;
      return load();
    };
    const page = await this.pages.fetch(`${await generation()}|${key}`, { context: loadHere });
    this.requests?.inc({ result: loaded ? "miss" : "hit" });
    // fetch answers undefined only when the load does, and a load always gives a page.
    return page!;
  }
}
