/**
 * Re-authorization of open streams, as pure functions: a stream goes on while a request made now would be answered
 * with the same feed, as a new request would be checked. Nothing here reads the store or touches a socket: the hub
 * (./hub.ts) asks the questions `reauthorize` names, in the order it names them, and hands the answers back, so a
 * stream refused early costs no further read.
 */
import type { Principal } from "../services/authenticator.js";
import type { FeedName, FeedParams } from "../services/feeds.js";
import type { StoreVersion } from "../store/store.js";

/** When a stream ends by the server's clock (epoch ms), and why. */
export interface StreamEnd {
  at: number;
  reason: string;
}

/** Whether anything a stream's right to go on depends on moved between two versions of the store. */
export const moved = (now: StoreVersion, then: StoreVersion): boolean =>
  now.credentials !== then.credentials || now.repos !== then.repos || now.access !== then.access;

/**
 * The earlier of the stream's lease and its token's expiry, or null when neither ends it: no write announces either,
 * so the stream ends at that time and its client reconnects through a request's checks.
 */
export function endOf(lease: { endsAt: number } | undefined, principal: Principal | null): StreamEnd | null {
  const expiry = principal?.kind === "token" ? principal.authorization.expiresAt : null;
  const leased = lease ? { at: lease.endsAt, reason: "reconnect to continue" } : null;
  const expired = expiry ? { at: expiry.getTime(), reason: "the token has expired" } : null;
  if (!leased || !expired) return leased ?? expired;
  return leased.at <= expired.at ? leased : expired;
}

/** Whether a stream that ends at a time has reached it. */
export const due = (end: StreamEnd | null, now: number): boolean => end !== null && end.at <= now;

/**
 * The question an anonymous stream without a lease is asked, which every such stream of the same feed and parameters
 * shares: it is answered once a pass, not once a stream (an ingest moves `repos` or `access` in most batches, and a
 * thousand streams of `/events` would otherwise plan the same feed a thousand times per ingest). null: the stream's
 * own question.
 */
export function sharedQuestion(
  feedKey: string,
  principal: Principal | null,
  request: { feed: FeedName; params: FeedParams; lease?: unknown },
): string | null {
  return principal === null && !request.lease ? `${feedKey}|${request.feed}|${JSON.stringify(request.params)}` : null;
}

/** A stream as its re-authorization sees it. */
export interface StreamStanding {
  /** The key of the feed it was opened on (FeedService's target). */
  feedKey: string;
  /** Who opened it; null: anonymous. */
  principal: Principal | null;
  /** Whether it also lives by a lease (the console's session). */
  leased: boolean;
  /**
   * Whether credentials moved since it was last checked: only then are its lease and principal asked about again.
   * A replay moves `repos` (forks) and `access` (members) in most batches, and those only change what the feed shows.
   */
  credentialsMoved: boolean;
}

/** The answers had so far; each is asked for only when `reauthorize` names it. */
export interface Answers {
  /** Whether the lease still holds. */
  leaseHolds?: boolean;
  /** The principal as its credentials authenticate now; null: they no longer do. */
  principal?: Principal | null;
  /** The key of the feed a request made now would be answered with; null: it would be refused (the feed's 404). */
  feedKey?: string | null;
}

/** What to find out next: the lease, the principal, or the feed as the given principal would be answered it. */
export type Question = { ask: "lease" } | { ask: "principal" } | { ask: "feed"; principal: Principal | null };

export type Verdict = { close: false } | { close: true; reason: string };

const KEEP: Verdict = { close: false };
const close = (reason: string): Verdict => ({ close: true, reason });

/** Whether the stream may go on, or what must be known first to say. */
export function reauthorize(stream: StreamStanding, answers: Answers): Question | Verdict {
  let principal = stream.principal;
  if (stream.credentialsMoved) {
    if (stream.leased) {
      if (answers.leaseHolds === undefined) return { ask: "lease" };
      if (!answers.leaseHolds) return close("the session ended");
    }
    if (stream.principal) {
      if (answers.principal === undefined) return { ask: "principal" };
      if (answers.principal === null) return close("the credentials no longer authenticate");
      principal = answers.principal;
    }
  }
  if (answers.feedKey === undefined) return { ask: "feed", principal };
  if (answers.feedKey === null) return close("the feed is no longer visible to this caller");
  return answers.feedKey === stream.feedKey ? KEEP : close("what the feed shows this caller has changed");
}
