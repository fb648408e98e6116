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
 * Wake-ups come from writes through this app (an ingest, a deleted token), from PostgreSQL's NOTIFY for writes
 * through other instances, and from a check every CHECK_MS that cannot miss anything: it is what finds writes of
 * other processes on a SQLite file (`PRAGMA data_version` moves) and what covers a LISTEN connection being lost.
 */
import type { Clock } from "../clock.js";
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from "fastify";
import type { Counter, Gauge } from "prom-client";
import { ApiError } from "../errors.js";
import type { Authenticator, Principal } from "../services/authenticator.js";
import { targetKey, type FeedName, type FeedParams, type FeedService } from "../services/feeds.js";
import type { RememberingStore } from "../store/remembering-store.js";
import {
  arrivalTableOf,
  type ArrivalTable,
  type ArrivedEvent,
  type Arrivals,
  type EventStore,
  type FeedTarget,
  type StoreVersion,
} from "../store/store.js";
import { toWireEventJson } from "../convert/event.js";
import { SseStream } from "./sse.js";
import { RenderedFrames } from "./frames.js";
import { gapNotice, resumeAfter, unknownEvent } from "./resume.js";

/** How often the version is checked when nothing woke the hub: "within a second" with room to spare. */
const CHECK_MS = 500;
/** Events read per group and read: what replaying far back holds in memory at once. */
const CHUNK = 500;
/**
 * Streams written in one turn of the event loop before the hub lets the rest of the server run: a fan-out's socket
 * writes cost tens of microseconds each (mostly the kernel's), so 10,000 streams written at once would hold an
 * ingest's acknowledgement, and every poll, for a third of a second or more.
 */
export const STREAMS_PER_TURN = 250;
/** A stream whose client has taken nothing of what it was sent for this long is cut (it reconnects when it can). */
const STALLED_MS = 30_000;

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

/** What the route knows of a stream request. */
export interface StreamRequest {
  feed: FeedName;
  params: FeedParams;
  /** Issue-event ids as JSON integers (`--numeric-ids`), as the feed's pages send them. */
  integerIds: boolean;
  /** How each event is written; the API's wire JSON unless given (the console sends its own rendering). */
  format?: StreamFormat;
  /**
   * What else the stream lives by (the console's session): checked whenever credentials move, as a deleted session
   * raises them; and a time (epoch ms) after which the stream ends, so that its client reconnects through the checks
   * a new request passes (a session's expiry is by time, and no write announces it).
   */
  lease?: { stillValid(): Promise<boolean>; endsAt: number };
}

/** An event's `event:` name and `data` on a stream. Streams are grouped by feed; each format renders an event once. */
export interface StreamFormat {
  name: string;
  kind(row: ArrivedEvent): string;
  data(row: ArrivedEvent, baseUrl: string, integerIds: boolean): string;
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

interface Subscriber {
  sink: SseStream;
  request: StreamRequest;
  /**
   * When the stream ends by the server's clock (epoch ms), and why: its lease running out, or its token expiring
   * (no write announces either). Its client reconnects, and the new request passes, or fails, a request's checks.
   */
  ends: { at: number; reason: string } | null;
  principal: Principal | null;
  baseUrl: string;
  /** How its events are rendered (format, base URL, integer ids): streams that share it are written the same bytes. */
  variant: string;
  owner: string;
  group: Group;
  /** Every event of the feed with an arrival number up to this one has been sent (or was before the stream). */
  cursor: number;
  /** The version the subscriber's principal and feed were last checked at. */
  checked: StoreVersion;
  /** Since when its client has left too much unsent (SseStream.congested), while it does. */
  congestedSince?: number;
}

interface Group {
  key: string;
  target: FeedTarget;
  table: ArrivalTable;
  members: Set<Subscriber>;
}

const tooMany = (limit: number) =>
  new ApiError(
    429,
    `Too many open streams: at most ${limit} per user (per IP address when anonymous) at once; ` +
      "close one before opening another",
    { documentationUrl: "https://developer.github.com/v3/#rate-limiting" },
  );

/** The kind of an event for the `event:` field: its type, or an issue event's `event` ("closed"). */
function kindOf(row: ArrivedEvent): string {
  if (row.type !== null) return row.type;
  const { event } = JSON.parse(row.body) as { event?: unknown };
  return typeof event === "string" ? event : "IssueEvent";
}

/** The API's: the event's type as `event:`, its wire JSON as `data`. */
const WIRE_FORMAT: StreamFormat = { name: "wire", kind: kindOf, data: toWireEventJson };

/** After the I/O that is waiting (setImmediate runs after the poll phase). */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

const moved = (now: StoreVersion, then: StoreVersion) =>
  now.credentials !== then.credentials || now.repos !== then.repos || now.access !== then.access;

export class StreamHub {
  private readonly groups = new Map<string, Group>();
  private readonly owners = new Map<string, number>();
  /** The subscribers that end at a time (`ends`): the only ones a wake-up looks at for that. */
  private readonly ending = new Set<Subscriber>();
  /**
   * The version every subscriber was last checked at, together: while the version has not moved from it, a wake-up
   * checks nobody (a new stream is checked as it opens), so that opening ten thousand streams, each waking the hub,
   * does not go over every open stream each time.
   */
  private rechecked: StoreVersion | undefined;
  private subscribers = 0;
  private checkTimer: NodeJS.Timeout | undefined;
  private heartbeatTimer: NodeJS.Timeout | undefined;
  private stopListening: Promise<() => Promise<void>> | undefined;
  private generation = -1;
  /** A group has a subscriber whose cursor is behind (a new stream): read even if no ingest happened. */
  private behind = false;
  private running: Promise<void> | undefined;
  private again = false;
  private closed = false;

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
    const held = this.owners.get(owner) ?? 0;
    if (held >= this.options.maxPerUser) throw tooMany(this.options.maxPerUser);
    if (this.closed) throw new ApiError(503, "Service Unavailable: the server is shutting down");

    const sink = new SseStream(reply.raw);
    if (after !== null) this.metrics.resumed.inc();
    if (skipTo !== null) {
      // Too much to replay: the client reads it from the feed's pages, and the stream goes on from the newest arrival.
      sink.notice("gap", gapNotice(request, after!, this.options.replayMax));
      this.metrics.gaps.inc();
      cursor = skipTo;
    }
    const key = targetKey(target);
    let group = this.groups.get(key);
    if (!group) this.groups.set(key, (group = { key, target, table, members: new Set() }));
    const subscriber: Subscriber = {
      sink,
      request: stream,
      ends: endOf(stream, principal),
      principal,
      baseUrl: request.baseUrl,
      owner,
      group,
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
    if (this.subscribers === 0 || this.closed) return;
    if (this.running !== undefined) {
      this.again = true;
      return;
    }
    this.running = this.run().finally(() => (this.running = undefined));
  }

  /** Ends every stream and stops listening: before the server waits for its requests to finish. */
  async close(): Promise<void> {
    this.closed = true;
    for (const group of this.groups.values())
      for (const subscriber of group.members) subscriber.sink.end("closed: the server is shutting down");
    this.stopTimers();
    await this.running;
  }

  private add(subscriber: Subscriber): void {
    subscriber.group.members.add(subscriber);
    if (subscriber.ends) this.ending.add(subscriber);
    this.owners.set(subscriber.owner, (this.owners.get(subscriber.owner) ?? 0) + 1);
    this.metrics.open.inc();
    if (this.subscribers++ === 0) this.startTimers();
  }

  private remove(subscriber: Subscriber): void {
    const { group, owner } = subscriber;
    if (!group.members.delete(subscriber)) return;
    this.ending.delete(subscriber);
    if (group.members.size === 0 && this.groups.get(group.key) === group) this.groups.delete(group.key);
    const held = this.owners.get(owner)! - 1;
    if (held === 0) this.owners.delete(owner);
    else this.owners.set(owner, held);
    this.metrics.open.dec();
    if (--this.subscribers === 0) this.stopTimers();
  }

  private startTimers(): void {
    this.checkTimer = setInterval(() => this.wake(), CHECK_MS).unref();
    this.heartbeatTimer = setInterval(() => void this.heartbeat(), this.options.heartbeatMs).unref();
    // Listening starts with the first stream and stops with the last: an instance nobody streams from holds no connection.
    this.stopListening = this.events.listenForChanges(() => this.wake());
    this.stopListening.catch((error: unknown) =>
      this.log.warn({ err: error }, "streams: cannot listen for changes; checking every 500 ms"),
    );
  }

  /**
   * A heartbeat to every stream, STREAMS_PER_TURN per turn of the event loop, as a fan-out is written: what the
   * heartbeat timer runs, callable as wake() is, so that a round can run at a moment of the caller's choosing.
   */
  async heartbeat(): Promise<void> {
    const sinks = [...this.groups.values()].flatMap((group) => [...group.members].map((member) => member.sink));
    for (let i = 0; i < sinks.length; i++) {
      if (i > 0 && i % STREAMS_PER_TURN === 0) await nextTurn();
      sinks[i]!.heartbeat();
    }
  }

  private stopTimers(): void {
    clearInterval(this.checkTimer);
    clearInterval(this.heartbeatTimer);
    const stopping = this.stopListening;
    this.stopListening = undefined;
    void stopping?.then(
      (stop) => stop(),
      () => undefined,
    );
  }

  private async run(): Promise<void> {
    do {
      this.again = false;
      try {
        const version = await this.remembering.refresh();
        this.endLeases(this.clock().getTime());
        await this.recheck(version);
        if (version.generation !== this.generation || this.behind) {
          this.behind = false;
          await this.deliver(await this.events.lastArrivals());
          this.generation = version.generation;
        }
      } catch (error) {
        // The database is away: cursors have not moved, so the next check sends what this one could not.
        this.behind = true;
        this.log.warn({ err: error }, "streams: reading new events failed; trying again");
        return;
      }
    } while (this.again && !this.closed);
  }

  /** Ends the streams whose lease ran out or whose token expired: their clients reconnect through a request's checks. */
  private endLeases(now: number): void {
    for (const subscriber of this.ending) {
      if (subscriber.ends!.at <= now) subscriber.sink.end(`closed: ${subscriber.ends!.reason}`);
    }
  }

  /** Ends the streams that a request made now would refuse, or would answer with another feed. */
  private async recheck(version: StoreVersion): Promise<void> {
    if (this.rechecked && !moved(version, this.rechecked)) return;
    // Anonymous streams without a lease are asked the same question by their feed and parameters: it is answered once
    // a pass, not once a stream (an ingest moves `repos` or `access` in most batches, and a thousand streams of
    // `/events` would otherwise plan the same feed a thousand times per ingest).
    const answered = new Map<string, Promise<string | null>>();
    for (const group of [...this.groups.values()]) {
      for (const subscriber of [...group.members]) {
        if (!moved(version, subscriber.checked)) continue;
        // Credentials are checked again only when they moved; a replay moves `repos` (forks) and `access` (members) in
        // most batches, and those only change what the feed shows.
        const credentialsMoved = version.credentials !== subscriber.checked.credentials;
        const { principal, request } = subscriber;
        const question =
          principal === null && !request.lease
            ? `${group.key}|${request.feed}|${JSON.stringify(request.params)}`
            : null;
        let answer = question === null ? undefined : answered.get(question);
        if (!answer) {
          answer = this.refusal(subscriber, credentialsMoved);
          if (question !== null) answered.set(question, answer);
        }
        const reason = await answer;
        if (reason) subscriber.sink.end(`closed: ${reason}`);
        else subscriber.checked = version;
      }
    }
    this.rechecked = version;
  }

  /** Why the subscriber may no longer have its stream, or null. Errors other than the feed's own (404) propagate. */
  private async refusal(subscriber: Subscriber, credentialsMoved: boolean): Promise<string | null> {
    let principal = subscriber.principal;
    if (credentialsMoved) {
      if (subscriber.request.lease && !(await subscriber.request.lease.stillValid())) return "the session ended";
      principal = subscriber.principal && (await this.authenticator.recheck(subscriber.principal));
      if (subscriber.principal && !principal) return "the credentials no longer authenticate";
    }
    try {
      const target = await this.feeds.plan(subscriber.request.feed, subscriber.request.params, principal);
      return targetKey(target) === subscriber.group.key ? null : "what the feed shows this caller has changed";
    } catch (error) {
      if (error instanceof ApiError) return "the feed is no longer visible to this caller";
      throw error;
    }
  }

  /** Whether to skip the member for now: its client is congested (cut once it has stayed so for STALLED_MS). */
  private waitsForClient(member: Subscriber): boolean {
    if (!member.sink.congested) {
      member.congestedSince = undefined;
      return false;
    }
    // How long a client has not read is a transport timeout, measured in real time like the sockets' own; the
    // server's clock (which a test may hold still) is for rules.
    const now = performance.now();
    member.congestedSince ??= now;
    if (now - member.congestedSince > STALLED_MS) member.sink.cut();
    this.behind = true;
    return true;
  }

  /** Sends each group's new events to the members that have not had them, CHUNK at a time. */
  private async deliver(top: Arrivals): Promise<void> {
    for (const group of [...this.groups.values()]) {
      const upTo = top[group.table];
      for (;;) {
        // Members that join while this group is read wait for the next pass (`behind`), as their cursors are not here.
        // A member whose client has not taken what it was sent is left out of this pass, its cursor where it is: the next
        // check (at most CHECK_MS away) tries again. A large ingest then reaches a slow reader at its own pace.
        const members = [...group.members].filter((m) => !m.sink.ended && !this.waitsForClient(m));
        if (members.length === 0) break;
        const after = Math.min(...members.map((m) => m.cursor));
        if (after >= upTo) break;
        const rows = await this.feeds.arrivals(group.target, after, upTo, CHUNK);
        // Each event is rendered and encoded once per way of rendering it (format, base URL, integer ids), not once per
        // stream, and each stream gets its new events in one write of those same bytes.
        const seqs = rows.map((row) => row.seq);
        const rendered = new Map<string, RenderedFrames>();
        for (let i = 0; i < members.length; i++) {
          // The event loop's other work (an ingest's acknowledgement, polls) waits for one slice, not the whole fan-out.
          if (i > 0 && i % STREAMS_PER_TURN === 0) await nextTurn();
          const member = members[i]!;
          let frames = rendered.get(member.variant);
          if (!frames) {
            const format = member.request.format ?? WIRE_FORMAT;
            frames = new RenderedFrames(
              seqs,
              rows.map((row) =>
                SseStream.frame(row.id, format.kind(row), format.data(row, member.baseUrl, member.request.integerIds)),
              ),
            );
            rendered.set(member.variant, frames);
          }
          const bytes = frames.after(member.cursor);
          if (bytes) member.sink.frames(bytes);
        }
        const reached = rows.length < CHUNK ? upTo : rows[rows.length - 1]!.seq;
        for (const member of members) member.cursor = Math.max(member.cursor, reached);
        if (rows.length < CHUNK) break;
      }
    }
  }
}

/** The earlier of the stream's lease and its token's expiry, or null when neither ends it. */
function endOf(stream: StreamRequest, principal: Principal | null): Subscriber["ends"] {
  const expiry = principal?.kind === "token" ? principal.authorization.expiresAt : null;
  const lease = stream.lease ? { at: stream.lease.endsAt, reason: "reconnect to continue" } : null;
  const expired = expiry ? { at: expiry.getTime(), reason: "the token has expired" } : null;
  if (!lease || !expired) return lease ?? expired;
  return lease.at <= expired.at ? lease : expired;
}
