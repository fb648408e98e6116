/**
 * Feed pages' rows kept in memory between requests, because feeds are polled constantly. The key names the state of
 * the feed the rows were read in (FeedService: the numbers the feed depends on and its total's epoch and count, all read
 * from the database before the rows), so a page is never served after anything it shows has changed, on this
 * instance or any other sharing the database.
 *
 * Each page is kept under its slot too (a feed, page size, standing and offset: the key without the state), and a
 * slot keeps only its newest page: on a live feed every ingest makes a new state, and the pages of the states before
 * it would otherwise fill the cache until evicted, tens of megabytes no request asks for again.
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

interface Kept {
  page: PageRows;
  slot: string;
}

interface Fetching {
  load: Load;
  slot: string;
}

export class FeedPageCache {
  private readonly pages: LRUCache<string, Kept, Fetching> | null;
  /** Each slot's newest key: the one page of the slot kept. */
  private readonly newest = new Map<string, string>();

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
        ? new LRUCache<string, Kept, Fetching>({
            maxSize: maxBytes,
            sizeCalculation: (kept) => kept.page.rows.reduce((bytes, row) => bytes + row.body.length, 256),
            fetchMethod: async (_key, _stale, { context }) => ({ page: await context.load(), slot: context.slot }),
            // A load whose entry is evicted meanwhile (other pages needing the room) still answers its requests.
            ignoreFetchAbort: true,
            dispose: (kept, key) => {
              if (this.newest.get(kept.slot) === key) this.newest.delete(kept.slot);
            },
          })
        : null;
  }

  get enabled(): boolean {
    return this.pages !== null;
  }

  /** How many pages are kept and the bytes they count for. */
  get size(): { pages: number; bytes: number } {
    return { pages: this.pages?.size ?? 0, bytes: this.pages?.calculatedSize ?? 0 };
  }

  /** The page cached under `key`, if it is (no load, no count). */
  peek(key: string): PageRows | undefined {
    return this.pages?.peek(key)?.page;
  }

  /**
   * @param key names the page and everything its rows depend on: a new state of the feed is a new entry.
   * @param slot names the page without its state: the slot's page kept before is dropped once this one is loaded (its
   *   load may still read it: ./first-pages.ts carries a first page forward).
   */
  async get(key: string, slot: string, load: Load): Promise<PageRows> {
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
    const kept = await this.pages.fetch(key, { context: { load: loadHere, slot } });
    this.requests?.inc({ result: loaded ? "miss" : "hit" });
    const before = this.newest.get(slot);
    if (before !== key && this.pages.has(key)) {
      this.newest.set(slot, key);
      if (before !== undefined) this.pages.delete(before);
    }
    // fetch answers undefined only when the load does, and a load always gives a page.
    return kept!.page;
  }
}
