/**
 * Fixed-window counters in Redis, shared by every feedgate instance: each update is one atomic Lua script,
 * so instances never lose or double-count a hit. Windows expire in Redis itself (PEXPIRE), on Redis's clock.
 */
import { Redis, ReplyError } from "ioredis";
import type { WindowCounters, WindowState } from "./counters.js";
import { StoreUnavailableError } from "../failures.js";

/**
 * Replies by which Redis says it cannot serve right now: loading its data, busy with a script, a replica cut off
 * from its primary or read-only, out of memory, a cluster not ready. Any other reply is a bug, not an outage.
 */
const OUTAGE_REPLIES = /^(LOADING|BUSY|MASTERDOWN|READONLY|OOM|TRYAGAIN|CLUSTERDOWN)\b/;

/**
 * Without its counters an instance can neither rate-limit nor lock out password guessing: it refuses (the API
 * answers StoreUnavailableError 503, which load balancers and clients retry) rather than serving unguarded or
 * answering 500. Every failure but a reply is the connection's: closed, not writable, timed out, out of retries.
 */
export function unavailable(error: unknown): never {
  const reply = error instanceof ReplyError && error instanceof Error;
  if (reply && !OUTAGE_REPLIES.test(error.message)) throw error;
  throw new StoreUnavailableError("the rate-limit store", error);
}

// INCR, and start the window's expiry with the first hit; returns the count and the milliseconds left.
const HIT = `
  local count = redis.call('INCR', KEYS[1])
  if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
  local ttl = redis.call('PTTL', KEYS[1])
  if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
  return {count, ttl}`;

// DECR only a window that still exists and has hits, so a refund never creates or underflows a window.
const REFUND = `
  local count = tonumber(redis.call('GET', KEYS[1]) or '0')
  if count > 0 then redis.call('DECR', KEYS[1]) end
  return 0`;

/** A window update is one small script: far under a millisecond on a healthy Redis. */
const COMMAND_TIMEOUT_MS = 1000;

export class RedisWindowCounters implements WindowCounters {
  private readonly redis: Redis;

  /**
   * @param prefix namespaces the keys, so deployments (or test runs) sharing one Redis keep separate windows.
   */
  constructor(
    url: string,
    private readonly prefix = "feedgate:",
  ) {
    // Fail requests fast while Redis is away rather than queueing them without bound. A command already sent when
    // the connection drops is otherwise held for a resend that a dead connection never makes: the timeout ends it.
    this.redis = new Redis(url, {
      lazyConnect: true,
      maxRetriesPerRequest: 1,
      enableOfflineQueue: false,
      commandTimeout: COMMAND_TIMEOUT_MS,
      connectTimeout: COMMAND_TIMEOUT_MS * 2,
      // A command whose request was already answered 503 must not count later, when the connection is back.
      autoResendUnfulfilledCommands: false,
    });
    // ioredis reconnects by itself; an outage shows as 503s and on /readyz, not as unhandled error events.
    this.redis.on("error", (error: Error) => (this.lastError = error));
  }

  /** The socket's own error (ECONNREFUSED...), which says more than the "Connection is closed." connect() gives. */
  private lastError: Error | undefined;

  async connect(): Promise<void> {
    await this.redis.connect().catch((error: unknown) => {
      throw this.lastError ?? error;
    });
  }

  async hit(key: string, windowSeconds: number, now: Date): Promise<WindowState> {
    const [count, ttl] = (await this.redis
      .eval(HIT, 1, this.prefix + key, String(windowSeconds * 1000))
      .catch(unavailable)) as [number, number];
    return { count, resetAt: new Date(now.getTime() + ttl) };
  }

  async refund(key: string): Promise<void> {
    await this.redis.eval(REFUND, 1, this.prefix + key).catch(unavailable);
  }

  async peek(key: string, windowSeconds: number, now: Date): Promise<WindowState> {
    const [count, ttl] = await Promise.all([
      this.redis.get(this.prefix + key),
      this.redis.pttl(this.prefix + key),
    ]).catch(unavailable);
    if (count === null || ttl < 0) return { count: 0, resetAt: new Date(now.getTime() + windowSeconds * 1000) };
    return { count: Number(count), resetAt: new Date(now.getTime() + ttl) };
  }

  /** The connection, for what else keeps its keys in the same Redis (redis-lsn-floors.ts); closed by close(). */
  get connection(): Redis {
    return this.redis;
  }

  async ping(): Promise<void> {
    await this.redis.ping();
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
