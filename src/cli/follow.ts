/**
 * `feedgate events --follow`: tails a feed the way GitHub asks pollers to (wire notes 2.6): conditional
 * requests with the last ETag (a 304 costs no rate limit), `X-Poll-Interval` seconds between polls, and each
 * new event printed once, oldest first. When more events arrived than a page holds, older pages are read
 * until a known event shows up, so a burst is not cut off at the page size.
 *
 * `--interval` asks for another pace. Against someone else's server the larger of it and X-Poll-Interval wins, as
 * GitHub asks of pollers, unless `--force-interval`; a server on this machine (127.0.0.1, localhost, ::1) is the
 * operator's own, to poll as fast as they like.
 */
import type {
  Client,
  Event,
  IssueEvent,
  Meta,
  Operation,
  Params,
  Result,
  StreamGap,
  Success,
} from "../client/index.js";
import { type FeedgateError, HttpError, NetworkError, StreamUnavailableError, TimeoutError } from "../client/index.js";
import type { Endpoints } from "../api/endpoints.js";

/** Any feed's generated method (`client.events.getFromRepo`). */
export type FeedOperation = Operation<Endpoints["events"]["get"]>;
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

/** The pace the poller was asked for. */
export interface PollPace {
  /** `--interval`, in seconds; without it, the server's X-Poll-Interval. */
  interval?: number;
  /** `--force-interval`, or a server on this machine: `interval` wins even when the server asks for more. */
  mayPollFaster: boolean;
}

const LOCAL_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]"]);

/** A server on this machine, by its URL: `http://localhost:3000`, `http://[::1]:3000`. */
export const isLocalServer = (url: string) => LOCAL_HOSTS.has(new URL(url).hostname.toLowerCase());

/** The server's X-Poll-Interval in seconds, or undefined when it sent none (or nonsense). */
function serverInterval(meta: Meta): number | undefined {
  const seconds = Number(meta["x-poll-interval"]);
  return Number.isFinite(seconds) && seconds > 0 ? seconds : undefined;
}

/** Seconds until the next poll: the asked interval, unless the server asks for more and may not be overruled. */
function nextWait(server: number | undefined, pace: PollPace): number {
  if (pace.interval === undefined) return server ?? DEFAULT_INTERVAL_SECONDS;
  if (server === undefined || pace.mayPollFaster) return pace.interval;
  return Math.max(pace.interval, server);
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
  if (
    error instanceof NetworkError ||
    error instanceof TimeoutError ||
    (error instanceof HttpError && error.code >= 500)
  ) {
    return interval;
  }
  if (error instanceof HttpError && error.meta["x-ratelimit-remaining"] === "0" && error.meta["x-ratelimit-reset"]) {
    return Math.max(1, Number(error.meta["x-ratelimit-reset"]) - Math.floor(Date.now() / 1000));
  }
  throw error;
}

const sleep = (seconds: number) => new Promise((resolve) => setTimeout(resolve, seconds * 1000));

/**
 * Polls until the process is stopped; `print` gets each new event once, oldest first, and `warn` each retried failure.
 * @param first a first page already printed (the live-stream attempt read it): polling goes on from it.
 */
export async function follow(
  client: Client,
  call: FeedCall,
  params: Record<string, unknown>,
  print: (event: FeedItem) => void,
  warn: (line: string) => void,
  pace: PollPace = { mayPollFaster: false },
  first?: Success<FeedItem[]>,
): Promise<never> {
  const seen = new SeenIds();
  for (const event of first?.data ?? []) seen.add(event.id);
  let etag = first?.meta.etag;
  let interval = nextWait(first && serverInterval(first.meta), pace);
  let toldSlower = false;
  if (first) await sleep(interval);
  for (let start = !first; ; ) {
    let wait: number;
    try {
      const result = await call({ ...params, ...(etag ? { headers: { "If-None-Match": etag } } : {}) });
      const server = serverInterval(result.meta);
      wait = interval = nextWait(server, pace);
      if (pace.interval !== undefined && interval > pace.interval && !toldSlower) {
        toldSlower = true; // once: the server's answer is the same on every poll
        warn(
          `feedgate: the server asks for ${server} s between polls; polling every ${interval} s, not ${pace.interval} s ` +
            "(--force-interval to insist)\n",
        );
      }
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

/**
 * `--follow` on a server with live streams: the newest page first, as polling starts, then the feed's stream from
 * its newest event (the server replays whatever arrived in between). A server without streams answers the stream
 * request with a page: polling then goes on from the page already printed.
 */
export async function followLive(
  client: Client,
  feed: FeedOperation,
  params: Record<string, unknown>,
  call: FeedCall,
  print: (event: FeedItem) => void,
  warn: (line: string) => void,
  pace: PollPace,
): Promise<never> {
  const first = await call(params);
  if (first.notModified) throw new Error("a first page without If-None-Match cannot be 304");
  [...first.data].reverse().forEach(print);
  const pathParams = Object.fromEntries(Object.entries(params).filter(([name]) => name !== "per_page"));
  const lastEventId = first.data[0]?.id;
  try {
    // A gap (the stream was away too long for the server to replay it all) is said, not thrown: what was missed is in
    // the feed's pages, and following goes on with what comes next.
    const onGap = (gap: StreamGap) => warn(`feedgate: ${gap.message} (${gap.feed_url})\n`);
    const stream = client.events.stream(
      feed,
      pathParams as Params<typeof feed.endpoint>,
      lastEventId === undefined ? { onGap } : { lastEventId, onGap },
    );
    for await (const event of stream) print(event);
  } catch (error) {
    if (!(error instanceof StreamUnavailableError)) throw error;
  }
  return follow(client, call, params, print, warn, pace, first);
}
