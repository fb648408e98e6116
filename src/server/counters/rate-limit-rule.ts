/**
 * The rate-limit rule, written once: which window a request counts against, charging it, and settling the charge by
 * the answer's status. The rate-limit plugin and the repeated answers both charge through it, so a request answered
 * either way costs the same (wire notes 3.2: a window per user when authenticated, per client IP otherwise; 2.x: a
 * 304 does not use up rate limit). It reads time only from the `now` it is handed.
 */
import type { OwnRateLimit, RateLimitState } from "../../api/rate-limit.js";
import type { WindowCounters } from "./counters.js";

/** The limits of the core window, from the settings (`--rate-limit-*`). */
export interface CoreLimits {
  authenticated: number;
  anonymous: number;
  windowSeconds: number;
}

/** Who is asking, as far as the rule cares. */
export interface Caller {
  /** The authenticated user's id; null when anonymous. */
  userId: number | null;
  /** The client address (through trusted proxies, the forwarded one). */
  ip: string;
  /** The operation's own window, from its endpoint-table row (credential revocation), counted per client IP. */
  own?: OwnRateLimit | undefined;
  /** An installation token's installation, with its scale (FineGrainedGrant.rateScale): a window of its own. */
  installation?: { id: number; scale: number } | undefined;
}

/** A window a request counts against: its counter key, its limit and its length. */
export interface RateWindow {
  key: string;
  limit: number;
  seconds: number;
}

/** A window after a request was charged to it: the hits counted so far (this one too) and when it ends. */
export type Charge = RateLimitState & { seconds: number };

/**
 * The caller's window: the operation's own (per client IP, or per user when it says so), else the core one per
 * installation for an installation token, per user when authenticated otherwise, per IP for anyone else.
 */
export function windowFor(caller: Caller, limits: CoreLimits): RateWindow {
  const { own } = caller;
  if (own?.per === "user" && caller.userId !== null)
    return { key: `rate:${own.resource}:user:${caller.userId}`, limit: own.limit, seconds: own.windowSeconds };
  if (own)
    return {
      key: `rate:${own.resource}:ip:${caller.ip}`,
      limit: (own.per === "user" ? own.anonymousLimit : undefined) ?? own.limit,
      seconds: own.windowSeconds,
    };
  const seconds = limits.windowSeconds;
  if (caller.installation) {
    // GitHub: 5,000 an hour and 50 more per repository over 20 and per organization member over 20, to 12,500. Here
    // the base is the authenticated limit, and each step a hundredth of it, to two and a half times it.
    const { id, scale } = caller.installation;
    const limit = Math.min(
      Math.floor(limits.authenticated * 2.5),
      limits.authenticated + Math.floor((limits.authenticated * scale) / 100),
    );
    return { key: `rate:installation:${id}`, limit, seconds };
  }
  return caller.userId !== null
    ? { key: `rate:user:${caller.userId}`, limit: limits.authenticated, seconds }
    : { key: `rate:ip:${caller.ip}`, limit: limits.anonymous, seconds };
}

/** Whether the charged request is over its limit and must be refused. */
export const isOver = (charge: Charge): boolean => charge.used > charge.limit;

/** Whether an answer of `status` gives its hit back: a 304 within the limit (free on GitHub; pollers rely on it). */
export const givesHitBack = (charge: Charge, status: number): boolean => status === 304 && !isOver(charge);

export class RateLimitRule {
  constructor(private readonly counters: WindowCounters) {}

  /** Counts one request against `window`, opening it when none is open at `now`. */
  async charge(window: RateWindow, now: Date): Promise<Charge> {
    const { count, resetAt } = await this.counters.hit(window.key, window.seconds, now);
    return { key: window.key, limit: window.limit, seconds: window.seconds, used: count, resetAt };
  }

  /** The charge as the answer of `status` leaves it: a 304's hit given back, any other kept. */
  async settle(charge: Charge, status: number, now: Date): Promise<Charge> {
    if (!givesHitBack(charge, status)) return charge;
    await this.counters.refund(charge.key, now);
    return { ...charge, used: charge.used - 1 };
  }

  /** Takes a charge back whole: the request is handed to be charged again elsewhere (a repeat handed to Fastify). */
  async cancel(charge: Charge, now: Date): Promise<void> {
    await this.counters.refund(charge.key, now);
  }

  /**
   * `window` as it stands at `now`, without counting (`GET /rate_limit`, which "does not count against your limit"):
   * a closed window reads as a fresh one, no hits and ending a window's length from now.
   */
  async status(window: RateWindow, now: Date): Promise<Charge> {
    const { count, resetAt } = await this.counters.peek(window.key, window.seconds, now);
    return { key: window.key, limit: window.limit, seconds: window.seconds, used: count, resetAt };
  }
}
