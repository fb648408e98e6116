/**
 * Feed totals (the `last` link's page count) kept across ingests, so that a poll after an ingest costs the events
 * that ingest added, not a count of the whole feed.
 *
 * A total is kept as two counts on either side of a boundary time: `below`, the events created before it, counted
 * once; and `above`, the events from it on, counted once and then grown at each new generation by the feed's events
 * that arrived since (their arrival numbers say which: migration 9). Events are never deleted, so the
 * count below stays right while no ingest stores an event older than the boundary; the ingest log
 * (EventStore.ingestedSince) says whether one did. The boundary is the time of the feed's ANCHOR_DEPTH-th newest
 * event, so an ingest of recent activity, even somewhat out of order, keeps it, and `above` stays small: it is
 * moved up once `above` passes REANCHOR_ABOVE. Anything else (the boundary crossed, the log pruned, a change to
 * what the feed covers, such as a new follow for a received feed: its `standing`) counts the feed again from scratch.
 *
 * Each full count or move of the boundary starts a new `epoch`. Within one epoch, an equal `above` means the feed
 * holds exactly the same events, which is what lets FeedService keep a page's rows across generations.
 */
import { entryBoundedCache } from "../bounded-cache.js";
import { arrivalTableOf, type EventStore, type FeedTarget, type StoreVersion } from "../store/store.js";

/** Which of the feed's events, from the newest, marks the boundary: 1,000 back is minutes of a busy feed. */
const ANCHOR_DEPTH = 1_000;
/** When this many events sit above the boundary, it moves up to ANCHOR_DEPTH again. */
const REANCHOR_ABOVE = 5_000;
/** Feeds whose totals are kept: one small entry each. */
const FEEDS_KEPT = 50_000;

/** The generation, and the other numbers of the store's version that a feed depends on, as a request read them. */
export interface Standing {
  generation: number;
  standing: string;
}

/**
 * The numbers besides the generation that decide which stored events a feed holds. A repository's, an actor's, an
 * organization's (its repositories' owner never changes) and the global feed depend on none: events only come, so
 * the ingest log covers them. A network's depends on which repositories it holds; a received feed on the user's
 * follows and watches (`received`: EventStore.receivedVersion, read for received feeds only); a feed with the
 * reader's private events on who may read what.
 */
export function feedStanding(target: FeedTarget, version: StoreVersion, received: number): Standing {
  const parts: number[] = [];
  if (!("issuesOf" in target)) {
    if (target.scope.kind === "network") parts.push(version.repos);
    if (target.scope.kind === "received") parts.push(received);
    if (target.visibility.kind === "readable-by") parts.push(version.access);
  }
  return { generation: version.generation, standing: parts.join(".") };
}

/**
 * The same page, read from the boundary on when it lies among the feed's `above` newest events (those are exactly the
 * events at or after the boundary): a received feed's union of a thousand follows and watches then reads minutes of
 * events, not years.
 */
export function fromBoundary<R extends { offset: number; limit: number; notBefore: Date | null }>(
  request: R,
  total: FeedTotal,
): R {
  const notBefore = request.notBefore ? request.notBefore.getTime() / 1000 : 0;
  return request.offset + request.limit <= total.above && total.boundary > notBefore
    ? { ...request, notBefore: new Date(total.boundary * 1000) }
    : request;
}

export interface FeedTotal {
  /** The feed's events (from `notBefore` on). */
  total: number;
  /** Changes whenever a count was made from scratch or the boundary moved. */
  epoch: number;
  /** The events at or after the boundary: within one epoch, the same number means the same events. */
  above: number;
  /** The boundary's time (seconds): the feed's first `above` events, and only they, are at or after it. */
  boundary: number;
  /**
   * The arrival number (EventStore.lastArrivals) up to which `above` holds exactly the feed's events at or after the
   * boundary, so that a later count needs only the events that arrived since; null when events arrived while `above`
   * was being counted, and it cannot say which of them it saw. Within one epoch, every event the feed gained since
   * arrived after it, at or after the boundary: `above` grew by their number.
   */
  arrived: number | null;
}

interface Kept extends FeedTotal {
  /** The generation read before the counts were made: what they are at least as new as. */
  generation: number;
  /** The other numbers the feed depends on, as read then (feedStanding). */
  standing: string;
  below: number;
}

/** A count above the boundary and the arrival number it is exact up to (Kept.arrived). */
interface Above {
  above: number;
  arrived: number | null;
}

export class FeedTotals {
  private readonly kept = entryBoundedCache<string, Kept>(FEEDS_KEPT);
  /** Counts in flight, so that every poller arriving after an ingest waits for one count instead of making its own. */
  private readonly counting = new Map<string, Promise<Kept>>();
  private epochs = 0;

  /** @param depths the boundary's depth and when it moves (reanchorAbove at least anchor); tests make them small to cross them often. */
  constructor(
    private readonly events: EventStore,
    private readonly depths = { anchor: ANCHOR_DEPTH, reanchorAbove: REANCHOR_ABOVE },
  ) {}

  /**
   * The feed's total as of `version` or newer.
   * @param key names the feed (target and notBefore) among all others.
   * @param notBefore the age cap's start, in seconds (0 for none).
   */
  async get(key: string, target: FeedTarget, notBefore: number, version: Standing): Promise<FeedTotal> {
    const kept = this.kept.get(key);
    if (kept && kept.standing === version.standing && kept.generation >= version.generation) return kept;
    const flightKey = `${key}|${version.generation}|${version.standing}`;
    let counted = this.counting.get(flightKey);
    if (!counted) {
      counted = this.count(target, notBefore, version, kept).finally(() => this.counting.delete(flightKey));
      this.counting.set(flightKey, counted);
    }
    const fresh = await counted;
    const now = this.kept.get(key);
    // A slower count for an older version must not replace a newer one.
    if (!now || now.standing !== fresh.standing || now.generation <= fresh.generation) this.kept.set(key, fresh);
    return fresh;
  }

  private async count(target: FeedTarget, notBefore: number, version: Standing, kept: Kept | undefined): Promise<Kept> {
    const { generation, standing } = version;
    if (kept && kept.standing === standing && (await this.boundaryHolds(target, kept, generation))) {
      const { above, arrived } = await this.aboveSince(target, kept);
      if (above <= this.depths.reanchorAbove) return { ...kept, generation, above, arrived, total: kept.below + above };
      // Move the boundary up: what lies between the old and the new one joins the count below. The new one lies among
      // the `above` events (more of them than ANCHOR_DEPTH), so only those are read for it, not the whole feed.
      const boundary = await this.boundary(target, kept.boundary);
      const below = kept.below + (await this.events.countBetween(target, kept.boundary, boundary));
      return this.entry(version, boundary, below, await this.countAbove(target, boundary));
    }
    const boundary = await this.boundary(target, notBefore);
    const below = boundary > notBefore ? await this.events.countBetween(target, notBefore, boundary) : 0;
    return this.entry(version, boundary, below, await this.countAbove(target, boundary));
  }

  private entry({ generation, standing }: Standing, boundary: number, below: number, { above, arrived }: Above): Kept {
    return { generation, standing, boundary, below, above, arrived, total: below + above, epoch: ++this.epochs };
  }

  /**
   * The kept count above the boundary plus the feed's events that arrived since it was made (events arrive in commit
   * order, migration 9): at every ingest, a count of what the ingest added, not of everything above the boundary
   * (for a received feed, a union over every follow and watch). Past REANCHOR_ABOVE arrivals, the feed's own events
   * from the boundary on are counted instead, through its indexes: once arrivals outnumber them (a received feed
   * polled rarely under a heavy ingest), reading every arrival costs more than counting them does.
   */
  private async aboveSince(target: FeedTarget, kept: Kept): Promise<Above> {
    if (kept.arrived === null) return this.countAbove(target, kept.boundary);
    const upTo = (await this.events.lastArrivals())[arrivalTableOf(target)];
    if (upTo - kept.arrived > this.depths.reanchorAbove) return this.countAbove(target, kept.boundary);
    const added =
      upTo > kept.arrived
        ? await this.events.countArrivals(target, { after: kept.arrived, upTo, from: kept.boundary })
        : 0;
    return { above: kept.above + added, arrived: upTo };
  }

  /**
   * The feed's events at or after the boundary, counted, and the arrival number the count is exact up to: the same
   * number read before and after it says that no event arrived meanwhile.
   */
  private async countAbove(target: FeedTarget, boundary: number): Promise<Above> {
    const table = arrivalTableOf(target);
    const before = (await this.events.lastArrivals())[table];
    const above = await this.events.countBetween(target, boundary, null);
    const after = (await this.events.lastArrivals())[table];
    return { above, arrived: before === after ? after : null };
  }

  /** The time of the ANCHOR_DEPTH-th newest event from `from` on, or `from` when there are fewer. */
  private async boundary(target: FeedTarget, from: number): Promise<number> {
    return (await this.events.timeAtDepth(target, this.depths.anchor, from)) ?? from;
  }

  /** Whether every ingest since the kept count stored only events at or after its boundary (for this kind of feed). */
  private async boundaryHolds(target: FeedTarget, kept: Kept, generation: number): Promise<boolean> {
    if (kept.generation === generation) return true;
    const since = await this.events.ingestedSince(kept.generation, generation);
    if (!since) return false;
    const oldest = "issuesOf" in target ? since.oldestIssueEvent : since.oldestEvent;
    return oldest === null || oldest >= kept.boundary;
  }
}
