/**
 * Callers' write positions in Redis (store/postgres/read-scope.ts), so that every instance sharing the Redis sends a
 * caller's reads to a standby that has replayed the caller's writes, whichever instance took them. A position is
 * kept as 16 hexadecimal digits, so that Lua compares two as strings (its numbers are doubles, short of 64 bits).
 */
import type { Redis } from "ioredis";
import { FLOOR_KEPT_MS, type LsnFloors } from "../store/postgres/read-scope.js";
import { unavailable } from "./redis-counters.js";

// Raises each key to ARGV[1] unless it holds a higher position already; every key kept FLOOR_KEPT_MS from now.
const RAISE = `
  for _, key in ipairs(KEYS) do
    local held = redis.call('GET', key)
    if not held or held < ARGV[1] then redis.call('SET', key, ARGV[1], 'PX', ARGV[2]) end
  end
  return 0`;

const hex = (lsn: bigint) => lsn.toString(16).padStart(16, "0");

export class RedisLsnFloors implements LsnFloors {
  /** @param redis the window counters' connection (redis-counters.ts), which closes it. */
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  private keyOf(caller: string): string {
    return `${this.prefix}lsn:${caller}`;
  }

  async floor(callers: readonly string[]): Promise<bigint> {
    const held = await this.redis.mget(callers.map((c) => this.keyOf(c))).catch(unavailable);
    let floor = 0n;
    for (const value of held) if (value && BigInt(`0x${value}`) > floor) floor = BigInt(`0x${value}`);
    return floor;
  }

  async raise(callers: readonly string[], lsn: bigint): Promise<void> {
    const keys = callers.map((c) => this.keyOf(c));
    await this.redis.eval(RAISE, keys.length, ...keys, hex(lsn), String(FLOOR_KEPT_MS)).catch(unavailable);
  }

  async close(): Promise<void> {}
}
