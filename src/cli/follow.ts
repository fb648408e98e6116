/**
 * `feedgate events --follow`: tails a feed the way GitHub asks pollers to (wire notes 2.6): conditional
 * requests with the last ETag (a 304 costs no rate limit), `X-Poll-Interval` seconds between polls, and each
 * new event printed once, oldest first. When more events arrived than a page holds, older pages are read
 * until a known event shows up, so a burst is not cut off at the page size.
 */
import type { Client, Event, IssueEvent, Meta, Result, Success } from "../client/index.js";
import { FeedgateError, HttpError, NetworkError, TimeoutError } from "../client/index.js";
import { describeError } from "./client-options.js";

export type FeedItem = Event | IssueEvent;
export type FeedCall = (params: Record<string, unknown>) => Promise<Result<FeedItem[]>>;

/** GitHub's interval when a server sends none (wire notes 2.6). */
const DEFAULT_INTERVAL_SECONDS = 60;
/** A burst deeper than this many pages is printed from its newest part. */
const MAX_CATCH_UP_PAGES = 10;
/** Ids remembered to print each event once; a feed's head never holds more. */
const REMEMBERED_IDS = 10_000;

class SeenIds {
  readonly #ids = new Set<string>();
  has(id: string) {
    return this.#ids.has(id);
  }
  add(id: string) {
    this.#ids.add(id);
    // A Set iterates in insertion order: the first id is the one remembered longest.
    if (this.#ids.size > REMEMBERED_IDS) this.#ids.delete(this.#ids.values().next().value!);
  }
}

function pollInterval(meta: Meta): number {
  const seconds = Number(meta["x-poll-interval"]);
  return Number.isFinite(seconds) && seconds > 0 ? seconds : DEFAULT_INTERVAL_SECONDS;
}

/** Events of `result` (and older pages, after the start) not printed yet, newest first. */
async function unseen(client: Client, result: Success<FeedItem[]>, seen: SeenIds, start: boolean): Promise<FeedItem[]> {
  const fresh = new Map<string, FeedItem>();
  let page = result;
  for (let pages = 1; ; pages++) {
    const items = page.data.filter((event) => !seen.has(event.id));
    // An event can move from one page to the next between two requests: keep its first sighting.
    for (const event of items) if (!fresh.has(event.id)) fresh.set(event.id, event);
    const reachedKnown = items.length < page.data.length;
    if (start || reachedKnown || !client.hasNextPage(page) || pages >= MAX_CATCH_UP_PAGES) break;
    page = await client.getNextPage(page);
  }
  for (const id of fresh.keys()) seen.add(id);
  return [...fresh.values()];
}

/** Seconds to wait before trying again after a failed poll, or the error again when retrying cannot help. */
function retryDelay(error: unknown, interval: number): number {
  if (error instanceof NetworkError || error instanceof TimeoutError || (error instanceof HttpError && error.code >= 500)) {
    return interval;
  }
  if (error instanceof HttpError && error.meta["x-ratelimit-remaining"] === "0" && error.meta["x-ratelimit-reset"]) {
    return Math.max(1, Number(error.meta["x-ratelimit-reset"]) - Math.floor(Date.now() / 1000));
  }
  throw error;
}

const sleep = (seconds: number) => new Promise((resolve) => setTimeout(resolve, seconds * 1000));

/** Polls until the process is stopped; `print` gets each new event once, oldest first, and `warn` each retried failure. */
export async function follow(client: Client, call: FeedCall, params: Record<string, unknown>, print: (event: FeedItem) => void,
  warn: (line: string) => void): Promise<never> {
  const seen = new SeenIds();
  let etag: string | undefined;
  let interval = DEFAULT_INTERVAL_SECONDS;
  for (let start = true; ;) {
    let wait: number;
    try {
      const result = await call({ ...params, ...(etag ? { headers: { "If-None-Match": etag } } : {}) });
      wait = interval = pollInterval(result.meta);
      if (!result.notModified) {
        etag = result.meta.etag;
        for (const event of (await unseen(client, result, seen, start)).reverse()) print(event);
        start = false;
      }
    } catch (error) {
      // retryDelay rethrows anything but the SDK's transient failures.
      wait = retryDelay(error, interval);
      warn(`feedgate: ${describeError(error as FeedgateError)}; trying again in ${wait} s\n`);
    }
    await sleep(wait);
  }
}
