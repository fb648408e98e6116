/**
 * Feed pages' rows kept in memory between requests, because feeds are polled constantly. The key names the state of
 * the feed the rows were read in (FeedService: the numbers the feed depends on and its total's epoch and count, all read
 * from the database before the rows), so a page is never served after anything it shows has changed, on this
 * instance or any other sharing the database.
 *
 * Concurrent misses for one page share one load (lru-cache's fetch): right after an ingest every poller of a
 * busy feed misses at once, and each would otherwise read the page again.
 */
import { LRUCache } from "lru-cache";
import type { Counter } from "prom-client";
import type { FeedPage } from "../store/store.js";

/** A page's rows and its feed's newest time; the total is kept apart (./feed-totals.ts). */
export type PageRows = Omit<FeedPage, "total">;
type Load = () => Promise<PageRows>;

export class FeedPageCache {
  private readonly pages: LRUCache<string, PageRows, Load> | null;

  /**
   * @param maxBytes the memory pages may take (their JSON text); 0 turns caching off.
   * @param requests counts each request as a `hit` (no load of its own) or a `miss` (it loaded the page).
   */
  constructor(
    maxBytes: number,
    private readonly requests?: Counter<"result">,
  ) {
    this.pages =
      maxBytes > 0
        ? new LRUCache<string, PageRows, Load>({
            maxSize: maxBytes,
            sizeCalculation: (page) => page.rows.reduce((bytes, row) => bytes + row.body.length, 256),
            fetchMethod: (_key, _stale, { context: load }) => load(),
            // A load whose entry is evicted meanwhile (other pages needing the room) still answers its requests.
            ignoreFetchAbort: true,
          })
        : null;
  }

  get enabled(): boolean {
    return this.pages !== null;
  }

  /** The page cached under `key`, if it is (no load, no count). */
  peek(key: string): PageRows | undefined {
    return this.pages?.peek(key);
  }

  /** @param key names the page and everything its rows depend on: a new state of the feed is a new entry. */
  async get(key: string, load: Load): Promise<PageRows> {
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
    const page = await this.pages.fetch(key, { context: loadHere });
    this.requests?.inc({ result: loaded ? "miss" : "hit" });
    // fetch answers undefined only when the load does, and a load always gives a page.
    return page!;
  }
}
