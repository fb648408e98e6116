/**
 * Feed pages kept in memory between requests: feeds are polled constantly, and a page's rows, total and
 * newest time cost a count over the whole feed. Entries are keyed by the ingest generation, which every
 * ingest raises in its transaction and every lookup reads from the database, so a page is never served after
 * anything it shows has changed, on this instance or any other sharing the database.
 */
import { LRUCache } from "lru-cache";
import type { FeedPage } from "../store/store.js";

export class FeedPageCache {
  private readonly pages: LRUCache<string, FeedPage> | null;

  /** @param maxBytes the memory pages may take (their JSON text); 0 turns caching off. */
  constructor(maxBytes: number) {
    this.pages = maxBytes > 0 ? new LRUCache<string, FeedPage>({
      maxSize: maxBytes,
      sizeCalculation: (page) => page.rows.reduce((bytes, row) => bytes + row.body.length, 256),
    }) : null;
  }

  async get(key: string, generation: () => Promise<number>, load: () => Promise<FeedPage>): Promise<FeedPage> {
    if (!this.pages) return load();
    const versioned = `${await generation()}|${key}`;
    const cached = this.pages.get(versioned);
    if (cached) return cached;
    const page = await load();
    this.pages.set(versioned, page);
    return page;
  }
}
