/**
 * The registry of open streams: each stream (a subscriber) sits in the group of its feed as seen by its reader
 * (FeedService's target, the page cache's key), is counted against its owner (a user, or an anonymous client's IP)
 * for the per-user limit, and is listed apart when it ends at a time. Nothing here reads, writes or waits.
 */
import type { Principal } from "../services/authenticator.js";
import type { FeedName, FeedParams } from "../services/feeds.js";
import type { ArrivalTable, ArrivedEvent, FeedTarget, StoreVersion } from "../store/store.js";
import type { StreamEnd } from "./reauthorization.js";
import type { SseStream } from "./sse.js";

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

export interface Subscriber {
  sink: SseStream;
  request: StreamRequest;
  /**
   * When the stream ends by the server's clock, and why: its lease running out, or its token expiring (no write
   * announces either). Its client reconnects, and the new request passes, or fails, a request's checks.
   */
  ends: StreamEnd | null;
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

/** The streams of one feed as seen by one reader: read once per wake-up. */
export interface Group {
  key: string;
  target: FeedTarget;
  table: ArrivalTable;
  members: Set<Subscriber>;
}

export class Subscriptions {
  private readonly groups = new Map<string, Group>();
  private readonly owners = new Map<string, number>();
  /** The subscribers that end at a time (`ends`): the only ones a wake-up looks at for that. */
  private readonly endingAtTime = new Set<Subscriber>();
  private count = 0;

  /** How many streams are open. */
  get size(): number {
    return this.count;
  }

  /** How many streams the owner holds open. */
  held(owner: string): number {
    return this.owners.get(owner) ?? 0;
  }

  /** The group of the feed with that key, made (empty) when no stream reads it yet. */
  group(key: string, target: FeedTarget, table: ArrivalTable): Group {
    let group = this.groups.get(key);
    if (!group) this.groups.set(key, (group = { key, target, table, members: new Set() }));
    return group;
  }

  /** Adds the subscriber to its group; true when it is the only stream open. */
  add(subscriber: Subscriber): boolean {
    subscriber.group.members.add(subscriber);
    if (subscriber.ends) this.endingAtTime.add(subscriber);
    this.owners.set(subscriber.owner, this.held(subscriber.owner) + 1);
    return this.count++ === 0;
  }

  /** Takes the subscriber out; true when it was, and no stream is left open. */
  remove(subscriber: Subscriber): { removed: boolean; last: boolean } {
    const { group, owner } = subscriber;
    if (!group.members.delete(subscriber)) return { removed: false, last: false };
    this.endingAtTime.delete(subscriber);
    if (group.members.size === 0 && this.groups.get(group.key) === group) this.groups.delete(group.key);
    const held = this.owners.get(owner)! - 1;
    if (held === 0) this.owners.delete(owner);
    else this.owners.set(owner, held);
    return { removed: true, last: --this.count === 0 };
  }

  /** The groups as they stand now: a pass goes over these while streams come and go. */
  groupsNow(): Group[] {
    return [...this.groups.values()];
  }

  /** Every open stream, group by group; one that leaves meanwhile is passed over. */
  *subscribers(): IterableIterator<Subscriber> {
    for (const group of this.groups.values()) yield* group.members;
  }

  /** The open streams that end at a time; one that leaves meanwhile is passed over. */
  ending(): Iterable<Subscriber> {
    return this.endingAtTime;
  }
}
