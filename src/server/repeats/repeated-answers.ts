/**
 * Repeated answers: a feed request that repeats, byte for byte, one this instance has answered is given the same
 * answer again without running Fastify's pipeline, as long as nothing that answer depends on has changed. Pollers make
 * most of a feed service's traffic and repeat themselves exactly (the same URL, token and If-None-Match every minute),
 * and for them the pipeline (routing, its hooks, header assembly) cost several times what sending the answer does.
 *
 * What an answer depends on, and how each is checked again before it is repeated:
 * - the request: the key is a SHA-256 of the method, the URL as sent, every header as sent (names, values, order)
 *   and the peer's address, so anything the pipeline could read from the request is the same (the token too, which is
 *   never kept in the clear);
 * - the database: the store's version (StoreVersion) read now must equal the one the request read, and a received
 *   feed's follows-and-watches number too (services/feeds.ts PageDependence), the same numbers the page cache and the
 *   remembered look-ups rely on;
 * - the time: within the token's lifetime and the age cap's minute, both from the one clock;
 * - the rate limit: charged again by the rate-limit plugin's own rule (../counters/rate-limit-rule.ts: a 304 charged
 *   and given back), its headers made afresh; a caller over the limit is handed to Fastify, which refuses it as ever;
 * - per request: a new request id, the clock's `Date` when the clock is a test's, the duration metric.
 * Only GET answers of 200 or 304 to anonymous or token callers are kept, and only from routes that say what their
 * answer depends on (request.repeatable): the feeds, and a repository object (`GET /repos/:owner/:repo`). Nothing
 * is repeated while test faults are set, while the server stops, or when requests are logged (`--log-level info`
 * logs each one), and a version read that fails hands the request to Fastify, which answers it stale or 503 as it
 * would have.
 *
 * When a kept answer no longer holds (an ingest changed the feed), the request that found so takes the pipeline, and
 * the same request arriving meanwhile waits for its answer and tries that one (which it checks as any kept answer):
 * a busy poll then runs the pipeline once per change, not once per connection that polled while the first ran.
 */
import { hash } from "node:crypto";
import type { IncomingMessage, OutgoingHttpHeader, OutgoingHttpHeaders, ServerResponse } from "node:http";
import { performance } from "node:perf_hooks";
import type { FastifyReply, FastifyRequest } from "fastify";
import { LRUCache } from "lru-cache";
import type { Counter, Histogram } from "prom-client";
import type { Clock } from "../clock.js";
import type { WindowCounters } from "../counters/counters.js";
import { isOver, RateLimitRule, type RateWindow } from "../counters/rate-limit-rule.js";
import { rateLimitWindow } from "../convert/meta.js";
import type { PageDependence } from "../services/feeds.js";
import type { StoreVersion } from "../store/store.js";

/** Memory the kept answers may take; most bodies are the page cache's own buffers, counted here once more. */
const ANSWERS_BYTES = 32 * 1024 * 1024;
/** What an answer takes besides its body: its headers, key and bookkeeping. */
const ENTRY_OVERHEAD = 2048;

/**
 * Where the values of the headers made afresh for each request are in KeptAnswer.headers. `date` is -1 unless the
 * clock is a test's (RepeatedAnswerParts.dateHeader); otherwise Node writes its own.
 */
interface PerRequestSlots {
  remaining: number;
  reset: number;
  used: number;
  requestId: number;
  date: number;
}

/** An answer as it left, with what it depends on. */
interface KeptAnswer {
  status: number;
  /**
   * The headers as Fastify wrote them, `content-length` included, as one list of names and values in their order:
   * a copy of it with the per-request values put in their places is what writeHead sends fastest, where an object
   * copied and extended cost a repeated answer more than anything but the socket write (perf, issue 27).
   */
  headers: OutgoingHttpHeader[];
  slots: PerRequestSlots;
  body: Buffer | string;
  version: StoreVersion;
  dependence: PageDependence;
  /** The token's expiry (ms), Infinity when it has none or the caller is anonymous. */
  expires: number;
  rate: RateWindow;
  /** The duration metric's series for this route and status. */
  timed: { observe(seconds: number): void };
  /** What other plugins do again when the answer is repeated (stale-if-error confirms its page). */
  again: (() => void) | null;
}

export interface RepeatedAnswerParts {
  clock: Clock;
  /**
   * The store's version, read afresh for a request (RememberingStore.refresh, shared by the requests of one turn of the
   * event loop): throws or rejects when the database is away.
   */
  version: () => StoreVersion | Promise<StoreVersion>;
  receivedVersion: (userId: number) => Promise<number>;
  counters: WindowCounters;
  /** Whether the `Date` header comes from the clock (a test's) rather than from Node. */
  dateHeader: boolean;
  requestId: () => string;
  duration: Histogram<"method" | "route" | "status_code">;
  /** Counts the requests answered again. */
  repeated: Counter;
  /** True while something must see every request (test faults are set). */
  bypassed: () => boolean;
}

declare module "fastify" {
  interface FastifyRequest {
    /** Set by a route whose answer may be repeated: what it depends on besides the request and the store's version. */
    repeatable: PageDependence | null;
    /** What a plugin does again each time this answer is repeated. */
    onRepeat: (() => void) | null;
  }
}

const sameNumbers = (a: StoreVersion, b: StoreVersion) =>
  a.generation === b.generation && a.credentials === b.credentials && a.repos === b.repos && a.access === b.access;

/**
 * Everything the pipeline could read from a request, as one key (`url` as it arrived). Header values cannot hold NUL
 * (Node refuses them).
 */
function keyOf(request: IncomingMessage, url: string | undefined): string {
  return hash(
    "sha256",
    `${request.method}\0${url}\0${request.socket.remoteAddress}\0${request.rawHeaders.join("\0")}`,
    "base64",
  );
}

/**
 * Each request's key, made as it arrived, or (for a URL no answer was kept for, whose key is made only if its answer
 * is kept) the URL as it arrived: Fastify then rewrites `url` (an /api/v3 request's loses its prefix), and a key made
 * from the rewritten one would hand an /api/v3 answer, whose links carry the prefix, to a request without.
 */
const KEY = Symbol("feedgate.repeatKey");
const SENT_URL = Symbol("feedgate.sentUrl");
type Keyed = IncomingMessage & { [KEY]?: string; [SENT_URL]?: string };

/** URLs (as sent) whose answers were kept, beyond which it starts again: their keys are the only ones worth making. */
const KEPT_URLS = 10_000;

type Next = (request: IncomingMessage, response: ServerResponse) => void;

export class RepeatedAnswers {
  private readonly kept = new LRUCache<string, KeptAnswer>({
    maxSize: ANSWERS_BYTES,
    sizeCalculation: (answer) =>
      (typeof answer.body === "string" ? answer.body.length * 3 : answer.body.length) + ENTRY_OVERHEAD,
  });
  /** Keys whose kept answer is being made afresh by a request in the pipeline, with the requests waiting for it. */
  private readonly refreshing = new Map<string, (() => void)[]>();
  /**
   * The URLs (as sent) of the kept answers, and more (a URL stays when its answers are dropped): a request for any
   * other URL cannot have one, and goes to Fastify without the SHA-256 of its headers (most requests: only feed
   * routes' answers are kept).
   */
  private readonly keptUrls = new Set<string>();
  private stopped = false;
  private readonly rule: RateLimitRule;

  /** @param enabled false keeps nothing and repeats nothing (requests logged one by one). */
  constructor(
    private readonly parts: RepeatedAnswerParts,
    private readonly enabled = true,
  ) {
    this.rule = new RateLimitRule(parts.counters);
  }

  /** No answer is repeated from now on: the server is stopping, and every answer must go through Fastify's. */
  stop(): void {
    this.stopped = true;
    this.kept.clear();
    this.keptUrls.clear();
    for (const key of [...this.refreshing.keys()]) this.refreshed(key);
  }

  private get active(): boolean {
    return this.enabled && !this.stopped && !this.parts.bypassed();
  }

  /**
   * Keeps the answer about to be sent, when it may be repeated: called from the last onSend hook, where the status,
   * headers and body are final but for `content-length`, which Fastify adds after the hooks (set here as it does).
   */
  record(request: FastifyRequest, reply: FastifyReply, payload: unknown): void {
    const dependence = request.repeatable;
    const version = request.storeVersion;
    const principal = request.principal;
    const state = request.rateLimit;
    const raw = request.raw as Keyed;
    const url = raw[SENT_URL];
    if (
      (raw[KEY] === undefined && url === undefined) ||
      dependence === null ||
      version === null ||
      state === null ||
      !this.active
    )
      return;
    if (request.method !== "GET" || (reply.statusCode !== 200 && reply.statusCode !== 304)) return;
    if (typeof payload !== "string" && !Buffer.isBuffer(payload)) return;
    // A body, or a Basic password (its checks count failures): such requests always take the whole pipeline.
    if (
      principal?.kind === "password" ||
      request.headers["content-length"] !== undefined ||
      request.headers["transfer-encoding"] !== undefined
    )
      return;
    const headers = reply.getHeaders() as OutgoingHttpHeaders; // typed by Fastify per name; Node's writeHead takes them as they are
    if (headers["x-ratelimit-remaining"] === undefined) return; // the counters were away: an answer of its own
    const length = Buffer.byteLength(payload);
    if (!headers["content-length"] || Number(headers["content-length"]) !== length)
      headers["content-length"] = String(length);
    const key = raw[KEY] ?? keyOf(raw, url);
    if (raw[KEY] === undefined) {
      if (this.keptUrls.size >= KEPT_URLS) this.keptUrls.clear();
      this.keptUrls.add(url!);
    }
    const expires = principal?.authorization.expiresAt?.getTime() ?? Infinity;
    const route = request.routeOptions.url ?? request.url;
    const list: OutgoingHttpHeader[] = [];
    for (const [name, value] of Object.entries(headers)) if (value !== undefined) list.push(name, value);
    // A value's place, after its name; a header the answer lacks goes at the end, as setting it on the object did.
    const slot = (name: string) => {
      const at = list.indexOf(name);
      return at >= 0 ? at + 1 : list.push(name, "") - 1;
    };
    const slots = {
      remaining: slot("x-ratelimit-remaining"),
      reset: slot("x-ratelimit-reset"),
      used: slot("x-ratelimit-used"),
      requestId: slot("x-github-request-id"),
      date: this.parts.dateHeader ? slot("date") : -1,
    };
    this.kept.set(key, {
      status: reply.statusCode,
      headers: list,
      slots,
      body: payload,
      version,
      dependence,
      expires,
      rate: { key: state.key, limit: state.limit, seconds: state.seconds },
      timed: this.parts.duration.labels("GET", route, String(reply.statusCode)),
      again: request.onRepeat,
    });
    this.refreshed(key);
  }

  /** The node:http request listener's first step: a kept answer when it still holds, else `next` (Fastify). */
  handle(request: Keyed, response: ServerResponse, next: Next): void {
    if (request.method !== "GET" || !this.active) {
      next(request, response);
      return;
    }
    const url = request.url;
    if (url === undefined || !this.keptUrls.has(url)) {
      request[SENT_URL] = url;
      next(request, response);
      return;
    }
    this.answer((request[KEY] = keyOf(request, url)), request, response, next);
  }

  /** The kept answer for `key` when it still holds; else waits for another request making it afresh, or makes it. */
  private answer(key: string, request: Keyed, response: ServerResponse, next: Next): void {
    const answer = this.active ? this.kept.get(key) : undefined;
    if (answer === undefined) {
      if (!this.waitForRefresh(key, request, response, next)) next(request, response);
      return;
    }
    this.repeat(answer, response).then(
      (repeated) => {
        if (repeated || this.waitForRefresh(key, request, response, next)) return;
        this.kept.delete(key);
        const waiters: (() => void)[] = [];
        this.refreshing.set(key, waiters);
        // Recorded (record() wakes them) or not (an error, another status), its waiters go on once this one is done.
        response.once("close", () => this.refreshed(key, waiters));
        next(request, response);
      },
      () => {
        // The database or the counters went away before anything was sent: Fastify answers as it would.
        if (!response.headersSent) next(request, response);
      },
    );
  }

  /** When another request is making `key`'s answer afresh, this one tries what it sends (unless its client left). */
  private waitForRefresh(key: string, request: Keyed, response: ServerResponse, next: Next): boolean {
    const waiting = this.refreshing.get(key);
    waiting?.push(() => {
      if (!request.socket.destroyed) this.answer(key, request, response, next);
    });
    return waiting !== undefined;
  }

  /**
   * The requests waiting for `key`'s answer made afresh try the kept answers again: after any answer was recorded
   * for the key, or when the request making it is done (`only` its own waiters: a later one may be refreshing).
   */
  private refreshed(key: string, only?: (() => void)[]): void {
    const waiting = this.refreshing.get(key);
    if (waiting === undefined || (only !== undefined && waiting !== only)) return;
    this.refreshing.delete(key);
    for (const retry of waiting) retry();
  }

  /** Sends `answer` again if everything it depends on still stands; false, having sent nothing, when not. */
  private async repeat(answer: KeptAnswer, response: ServerResponse): Promise<boolean> {
    const started = performance.now();
    const { clock } = this.parts;
    const now = clock();
    const ms = now.getTime();
    const { dependence, rate } = answer;
    if (ms >= answer.expires || ms < dependence.from || ms >= dependence.until) return false;
    const read = this.parts.version();
    const version = read instanceof Promise ? await read : read;
    if (version !== answer.version && !sameNumbers(version, answer.version)) return false;
    if (dependence.wholeVersion && version.received !== answer.version.received) return false;
    const received = dependence.received;
    if (received !== null && (await this.parts.receivedVersion(received.userId)) !== received.version) return false;
    // Charged by the rate-limit plugin's own rule; over the limit, the charge is taken back and Fastify refuses it.
    const charged = await this.rule.charge(rate, now);
    if (isOver(charged)) {
      await this.rule.cancel(charged, now);
      return false;
    }
    const settled = await this.rule.settle(charged, answer.status, now);
    const headers = answer.headers.slice();
    const { slots } = answer;
    const { remaining, reset, used } = rateLimitWindow(settled);
    headers[slots.remaining] = String(remaining);
    headers[slots.reset] = String(reset);
    headers[slots.used] = String(used);
    headers[slots.requestId] = this.parts.requestId();
    if (slots.date >= 0) headers[slots.date] = now.toUTCString();
    response.writeHead(answer.status, headers);
    response.end(answer.body);
    answer.again?.();
    this.parts.repeated.inc();
    answer.timed.observe((performance.now() - started) / 1000);
    return true;
  }
}
