/**
 * A feed's first page carried across ingests. Within one epoch of the feed's total (./feed-totals.ts) the feed only
 * gains events, each of them arriving at or after the boundary, and the total's `above` grows by their number. So the
 * first page read earlier in the epoch, with the events that arrived since merged in, is the page a read would give
 * now, and costs a read of those arrivals (rows of the ingests just made, by their arrival numbers) instead of the
 * feed's newest rows again: for a received feed, a union over every follow and watch, the costliest read a poll made
 * after an ingest (a third of the server's time when polled under live ingest).
 */
import { entryBoundedCache } from "../bounded-cache.js";
import type { ArrivedEvent, StoredEvent } from "../store/store.js";
import type { PageRows } from "./feed-cache.js";
import type { FeedTotal } from "./feed-totals.js";

/** Past this many new events the page is read again: a merge would read about as many rows as the read does. */
const MERGE_UP_TO = 1_000;
/** First pages remembered (a few numbers each; their rows stay in the page cache). */
const PAGES_KEPT = 50_000;

/** Newest first: by time, then by id (decimal, without leading zeros: the longer is the larger), as feeds order. */
export function newestFirst(a: StoredEvent, b: StoredEvent): number {
  const time = b.createdAt.getTime() - a.createdAt.getTime();
  if (time !== 0) return time;
  return b.id.length - a.id.length || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
}

/** The newest `limit` of a page's rows and of events that arrived since it was read (it may hold some of them). */
export function mergeArrivals(page: PageRows, arrived: readonly ArrivedEvent[], limit: number): PageRows {
  const onPage = new Set(page.rows.map((row) => row.id));
  const rows = [...page.rows];
  let newest = page.newest;
  for (const event of arrived) {
    if (newest === null || event.createdAt > newest) newest = event.createdAt;
    if (onPage.has(event.id)) continue;
    const { seq: _seq, type: _type, ...row } = event;
    rows.push(row);
  }
  return { rows: rows.sort(newestFirst).slice(0, limit), newest };
}

/** Where a first page was read or made: its key in the page cache, and the total it was read under. */
interface FirstPage {
  pageKey: string;
  epoch: number;
  above: number;
  arrived: number;
}

/** What carrying a page forward needs: the earlier page's rows, and the feed's events that arrived in a range. */
export interface FirstPageSources {
  cached(pageKey: string): PageRows | undefined;
  arrivals(after: number, upTo: number, limit: number): Promise<ArrivedEvent[]>;
}

export class FirstPages {
  private readonly pages = entryBoundedCache<string, FirstPage>(PAGES_KEPT);

  /** Notes that the first page of `line` (a feed, page size and standing) is being cached under `pageKey` as of `total`. */
  note(line: string, pageKey: string, total: FeedTotal): void {
    if (total.arrived !== null)
      this.pages.set(line, { pageKey, epoch: total.epoch, above: total.above, arrived: total.arrived });
  }

  /** The first page of `line` as of `total`, made from an earlier one of the same epoch; null when there is none. */
  async carried(line: string, total: FeedTotal, limit: number, sources: FirstPageSources): Promise<PageRows | null> {
    const earlier = this.pages.get(line);
    if (earlier === undefined || total.arrived === null || earlier.epoch !== total.epoch) return null;
    const added = total.above - earlier.above;
    if (added <= 0 || added > MERGE_UP_TO) return null;
    const page = sources.cached(earlier.pageKey);
    if (page === undefined) return null;
    // One more than expected, so that a count that disagrees with the total is noticed (the page is read instead).
    const arrived = await sources.arrivals(earlier.arrived, total.arrived, added + 1);
    return arrived.length === added ? mergeArrivals(page, arrived, limit) : null;
  }
}
