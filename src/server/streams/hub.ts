/**
 * Live streams of the feeds: one hub per app, whatever the number of streams. Streams of the same feed as seen by
 * the same reader (FeedService's target, the page cache's key) form a group, read once per wake-up.
 *
 * A wake-up reads the store's version (the same cheap read every request starts with). When an ingest raised the
 * generation, each group reads its feed's events that arrived after the group's oldest cursor, through the feed's
 * own query, and hands each stream those after its own cursor; a new stream resuming after `Last-Event-ID` is a
 * stream whose cursor is behind, so replay is the same read. When credentials, repositories or access moved, every
 * stream's principal and feed are checked again as a new request would be, and a stream that would now be refused,
 * or would see another feed, is ended (its client reconnects and gets the new answer).
 *
 * The hub joins four parts, one concern each: the registry of streams (./registry.ts), when it looks
 * (./scheduling.ts), the re-authorization of open streams (./reauthorization.ts, pure) and the fan-out with
 * backpressure (./fan-out.ts).
 */
import type { Clock } from "../clock.js";
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from "fastify";
import type { Counter, Gauge } from "prom-client";
import { ApiError } from "../errors.js";
import type { Authenticator, Principal } from "../services/authenticator.js";
import { targetKey, type FeedParams, type FeedName, type FeedService } from "../services/feeds.js";
import type { RememberingStore } from "../store/remembering-store.js";
import {
  arrivalTableOf,
  type ArrivalTable,
  type EventStore,
  type FeedTarget,
  type StoreVersion,
} from "../store/store.js";
import { SseStream } from "./sse.js";
import { gapNotice, resumeAfter, unknownEvent } from "./resume.js";
import { Subscriptions, type StreamRequest, type Subscriber } from "./registry.js";
import { Scheduler } from "./scheduling.js";
import { deliver, heartbeat, WIRE_FORMAT } from "./fan-out.js";
import { due, endOf, moved, reauthorize, sharedQuestion, type Answers, type Verdict } from "./reauthorization.js";

export interface StreamOptions {
  /** Streams one user (or, anonymous, one client IP) may hold open at once; 0: streams are off. */
  maxPerUser: number;
  heartbeatMs: number;
  /** The most events a resumed stream replays; past it, a `gap` event instead (`--stream-replay-max`). */
  replayMax: number;
}

/** The hub's instruments (../metrics.ts). */
export interface StreamMetrics {
  open: Gauge;
  resumed: Counter;
  gaps: Counter;
}

/** What the hub reads, checks with and reports to. */
export interface StreamHubParts {
  events: EventStore;
  /** The store's version, refreshed at each wake-up. */
  remembering: RememberingStore;
  feeds: FeedService;
  authenticator: Authenticator;
  options: StreamOptions;
  log: FastifyBaseLogger;
  metrics: StreamMetrics;
  /** The server's clock: leases and token expiries are reckoned on it, so that tests that move it end streams. */
  clock: Clock;
}

const tooMany = (limit: number) =>
  new ApiError(
    429,
    `Too many open streams: at most ${limit} per user (per IP address when anonymous) at once; ` +
      "close one before opening another",
    { documentationUrl: "https://developer.github.com/v3/#rate-limiting" },
  );

export class StreamHub {
  private readonly registry = new Subscriptions();
  private readonly scheduler: Scheduler;
  /**
   * The version every subscriber was last checked at, together: while the version has not moved from it, a wake-up
   * checks nobody (a new stream is checked as it opens), so that opening ten thousand streams, each waking the hub,
   * does not go over every open stream each time.
   */
  private rechecked: StoreVersion | undefined;
  private generation = -1;
  /** A group has a subscriber whose cursor is behind (a new stream): read even if no ingest happened. */
  private behind = false;
  private readonly events: EventStore;
  private readonly remembering: RememberingStore;
  private readonly feeds: FeedService;
  private readonly authenticator: Authenticator;
  private readonly options: StreamOptions;
  private readonly log: FastifyBaseLogger;
  private readonly metrics: StreamMetrics;
  private readonly clock: Clock;

  constructor(parts: StreamHubParts) {
    ({
      events: this.events,
      remembering: this.remembering,
      feeds: this.feeds,
      authenticator: this.authenticator,
      options: this.options,
      log: this.log,
      metrics: this.metrics,
      clock: this.clock,
    } = parts);
    this.scheduler = new Scheduler({
      pass: () => this.pass(),
      heartbeat: () => this.heartbeat(),
      heartbeatMs: this.options.heartbeatMs,
      listenForChanges: (listener) => this.events.listenForChanges(listener),
      log: this.log,
    });
  }

  get enabled(): boolean {
    return this.options.maxPerUser > 0;
  }

  /**
   * Answers a stream request: the feed's 404s and the resume point's errors first, then the stream.
   * @param principal who reads: the request's API credentials, unless the caller (the console, whose requests carry
   * a session instead) says otherwise.
   */
  async serve(
    request: FastifyRequest,
    reply: FastifyReply,
    stream: StreamRequest,
    principal: Principal | null = request.principal,
  ): Promise<FastifyReply> {
    const target = await this.feeds.plan(stream.feed, stream.params, principal);
    const table = arrivalTableOf(target);
    const after = resumeAfter(request);
    let cursor = after === null ? (await this.events.lastArrivals())[table] : await this.events.arrivalOf(table, after);
    if (cursor === null) throw unknownEvent(after!);
    // Read before the per-user count is checked: from that check to the stream's count nothing may wait.
    const skipTo = after === null ? null : await this.beyondReplay(target, table, cursor);
    const owner = principal ? `user:${principal.user.id}` : `ip:${request.ip}`;
    if (this.registry.held(owner) >= this.options.maxPerUser) throw tooMany(this.options.maxPerUser);
    if (this.scheduler.closed) throw new ApiError(503, "Service Unavailable: the server is shutting down");

    const sink = new SseStream(reply.raw);
    if (after !== null) this.metrics.resumed.inc();
    if (skipTo !== null) {
      // Too much to replay: the client reads it from the feed's pages, and the stream goes on from the newest arrival.
      sink.notice("gap", gapNotice(request, after!, this.options.replayMax));
      this.metrics.gaps.inc();
      cursor = skipTo;
    }
    const subscriber: Subscriber = {
      sink,
      request: stream,
      ends: endOf(stream.lease, principal),
      principal,
      baseUrl: request.baseUrl,
      owner,
      group: this.registry.group(targetKey(target), target, table),
      cursor,
      checked: this.remembering.version,
      variant: `${(stream.format ?? WIRE_FORMAT).name}|${request.baseUrl}|${stream.integerIds}`,
    };
    this.add(subscriber);
    sink.onClose(() => this.remove(subscriber));
    if (after !== null) this.behind = true;
    this.wake();
    return reply.type("text/event-stream; charset=utf-8").header("X-Accel-Buffering", "no").send(sink.body);
  }

  /**
   * Whether a stream resuming at `cursor` would replay more than `replayMax` of its feed's events: then the newest
   * arrival number, where it goes on instead; else null. Arrival numbers are counted over every feed, so a distance
   * within the bound needs no read; a longer one reads at most `replayMax + 1` of the feed's events to count them.
   */
  private async beyondReplay(target: FeedTarget, table: ArrivalTable, cursor: number): Promise<number | null> {
    const top = (await this.events.lastArrivals())[table];
    if (top - cursor <= this.options.replayMax) return null;
    const missed = await this.feeds.arrivals(target, cursor, top, this.options.replayMax + 1);
    return missed.length > this.options.replayMax ? top : null;
  }

  /** Something may have been written: check now rather than at the next tick. */
  wake(): void {
    this.scheduler.wake();
  }

  /** Ends every stream and stops listening: before the server waits for its requests to finish. */
  async close(): Promise<void> {
    this.scheduler.close();
    for (const subscriber of this.registry.subscribers()) subscriber.sink.end("closed: the server is shutting down");
    this.scheduler.stop();
    await this.scheduler.idle();
  }

  /**
   * A heartbeat to every stream, a slice per turn of the event loop, as a fan-out is written: what the heartbeat
   * timer runs, callable as wake() is, so that a round can run at a moment of the caller's choosing.
   */
  async heartbeat(): Promise<void> {
    await heartbeat([...this.registry.subscribers()].map((subscriber) => subscriber.sink));
  }

  private add(subscriber: Subscriber): void {
    const first = this.registry.add(subscriber);
    this.metrics.open.inc();
    if (first) this.scheduler.start();
  }

  private remove(subscriber: Subscriber): void {
    const { removed, last } = this.registry.remove(subscriber);
    if (!removed) return;
    this.metrics.open.dec();
    if (last) this.scheduler.stop();
  }

  /** One wake-up: end what is due, recheck what moved, send what arrived. False when the database is away. */
  private async pass(): Promise<boolean> {
    try {
      const version = await this.remembering.refresh();
      this.endLeases(this.clock().getTime());
      await this.recheck(version);
      if (version.generation !== this.generation || this.behind) {
        this.behind = false;
        const top = await this.events.lastArrivals();
        const read = (target: FeedTarget, after: number, upTo: number, limit: number) =>
          this.feeds.arrivals(target, after, upTo, limit);
        if (await deliver(this.registry.groupsNow(), top, read)) this.behind = true;
        this.generation = version.generation;
      }
      return true;
    } catch (error) {
      // The database is away: cursors have not moved, so the next check sends what this one could not.
      this.behind = true;
      this.log.warn({ err: error }, "streams: reading new events failed; trying again");
      return false;
    }
  }

  /** Ends the streams whose lease ran out or whose token expired: their clients reconnect through a request's checks. */
  private endLeases(now: number): void {
    for (const subscriber of this.registry.ending()) {
      if (due(subscriber.ends, now)) subscriber.sink.end(`closed: ${subscriber.ends!.reason}`);
    }
  }

  /** Ends the streams that a request made now would refuse, or would answer with another feed. */
  private async recheck(version: StoreVersion): Promise<void> {
    if (this.rechecked && !moved(version, this.rechecked)) return;
    const answered = new Map<string, Promise<Verdict>>();
    for (const group of this.registry.groupsNow()) {
      for (const subscriber of [...group.members]) {
        if (!moved(version, subscriber.checked)) continue;
        const credentialsMoved = version.credentials !== subscriber.checked.credentials;
        const question = sharedQuestion(group.key, subscriber.principal, subscriber.request);
        let answer = question === null ? undefined : answered.get(question);
        if (!answer) {
          answer = this.verdictOn(subscriber, credentialsMoved);
          if (question !== null) answered.set(question, answer);
        }
        const verdict = await answer;
        if (verdict.close) subscriber.sink.end(`closed: ${verdict.reason}`);
        else subscriber.checked = version;
      }
    }
    this.rechecked = version;
  }

  /** Asks what reauthorize() needs, in its order, until it keeps or closes the stream. */
  private async verdictOn(subscriber: Subscriber, credentialsMoved: boolean): Promise<Verdict> {
    const { request } = subscriber;
    const stream = {
      feedKey: subscriber.group.key,
      principal: subscriber.principal,
      leased: Boolean(request.lease),
      credentialsMoved,
    };
    const answers: Answers = {};
    for (;;) {
      const next = reauthorize(stream, answers);
      if (!("ask" in next)) return next;
      if (next.ask === "lease") answers.leaseHolds = await request.lease!.stillValid();
      else if (next.ask === "principal") answers.principal = await this.authenticator.recheck(subscriber.principal!);
      else answers.feedKey = await this.feedKeyFor(request.feed, request.params, next.principal);
    }
  }

  /** The key of the feed a request made now would be answered with; null for the feed's own refusal (404). */
  private async feedKeyFor(feed: FeedName, params: FeedParams, principal: Principal | null): Promise<string | null> {
    try {
      return targetKey(await this.feeds.plan(feed, params, principal));
    } catch (error) {
      if (error instanceof ApiError) return null;
      throw error;
    }
  }
}
