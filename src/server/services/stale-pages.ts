/**
 * Stale-if-error (RFC 5861 section 4, as a cache in front of the origin applies it): public feed pages as last
 * answered, kept so that while the database cannot be reached a poller still gets the page it last saw, for a bounded
 * time after the database last confirmed it, instead of a 503. No Fastify and no SQL: the plugin that records and
 * serves them is plugins/stale-if-error.ts.
 *
 * Only pages answered to anonymous requests are ever kept (the plugin's rule), so everything here is what anyone may
 * see: no private event, no caller's own view. The key names everything the bytes depend on besides the database.
 */
import { LRUCache } from "lru-cache";
import type { Clock } from "../clock.js";

/** A page as sent: its body and the headers that describe it. */
export interface StalePage {
  body: Buffer;
  contentType: string;
  etag: string;
  link: string | undefined;
  pollInterval: string | undefined;
  lastModified: Date | null;
}

interface Kept extends StalePage {
  /** When the database last gave (or confirmed, with a 304) exactly these bytes. */
  confirmedAt: number;
}

/** What a stale answer carries besides the page: its age in whole seconds (RFC 9111 5.1 `Age`). */
export interface StaleAnswer extends StalePage {
  ageSeconds: number;
}

/** Bytes an entry takes besides its body: its key, headers and bookkeeping. */
const ENTRY_OVERHEAD = 512;

export class StalePages {
  private readonly pages: LRUCache<string, Kept> | null;

  /**
   * @param windowMs `--stale-if-error`: how long after its last confirmation a page may still be served; 0 turns it off.
   * @param maxBytes memory the kept pages may take (`--feed-cache-mb`; most bodies are the page cache's own buffers).
   */
  constructor(
    private readonly windowMs: number,
    maxBytes: number,
    private readonly clock: Clock,
  ) {
    this.pages =
      windowMs > 0 && maxBytes > 0
        ? new LRUCache<string, Kept>({
            maxSize: maxBytes,
            sizeCalculation: (page) => page.body.length + ENTRY_OVERHEAD,
          })
        : null;
  }

  get enabled(): boolean {
    return this.pages !== null;
  }

  /**
   * The database gave the page kept under `key` again, unchanged (the same ETag): it is confirmed as of now, and true.
   * False when nothing is kept there or it changed: the caller records the new page. A poller's repeated page costs
   * no copy this way, only the comparison.
   */
  confirm(key: string, etag: string): boolean {
    const kept = this.pages?.get(key);
    if (kept?.etag !== etag) return false;
    kept.confirmedAt = this.clock().getTime();
    return true;
  }

  /** The page as the database gave it just now, to the request named by `key`. */
  record(key: string, page: StalePage): void {
    this.pages?.set(key, { ...page, confirmedAt: this.clock().getTime() });
  }

  /** The page last recorded under `key`, when it was confirmed within the window; null otherwise. */
  answer(key: string): StaleAnswer | null {
    const kept = this.pages?.get(key);
    if (!kept) return null;
    const ageMs = Math.max(0, this.clock().getTime() - kept.confirmedAt);
    if (ageMs > this.windowMs) {
      this.pages!.delete(key); // never served again: a later success records it afresh
      return null;
    }
    const { confirmedAt: _confirmedAt, ...page } = kept;
    return { ...page, ageSeconds: Math.floor(ageMs / 1000) };
  }
}
