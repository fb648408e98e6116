/**
 * When a token stops being accepted: GitHub's expiring personal access tokens (2021; the token page offers 7, 30, 60
 * and 90 days, a custom date, or no expiration). An expiry is an ISO 8601 time with its zone, after the request's
 * time and, when the operator set `--token-max-lifetime`, at most that long after it. Time comes from the caller's
 * clock, never from the wall clock itself: the test double moves it.
 */
import { InvalidInputError } from "../failures.js";

const FIELD = "expires_at";

/**
 * `2026-01-15T10:00:00Z`, `2026-01-15T12:00+02:00`, fractions of a second allowed. A zone is required: a time
 * without one would mean whatever zone the server runs in.
 */
const ISO_8601 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-](\d{2}):(\d{2}))$/;

export interface ExpiryPolicy {
  /** `--token-max-lifetime`; null lets a token live for ever, as on github.com. */
  maxLifetimeMs: number | null;
}

export const NO_MAX_LIFETIME: ExpiryPolicy = { maxLifetimeMs: null };

const refuse = (problem: string): never => {
  throw new InvalidInputError(`${FIELD} ${problem}`, { field: FIELD });
};

/** Whether the token may no longer be used at `now`: its expiry has come (the very second included). */
export const hasExpired = (expiresAt: Date | null, now: Date): boolean => expiresAt !== null && expiresAt <= now;

/** The instant an ISO 8601 text names, refusing the malformed and the impossible (February 30th, hour 24). */
export function parseExpiry(raw: string): Date {
  const match = ISO_8601.exec(raw);
  if (!match)
    return refuse(`must be an ISO 8601 time with a zone, such as 2026-01-15T10:00:00Z, got "${raw.slice(0, 40)}"`);
  const [year, month, day, hour, minute, second, , zoneHour, zoneMinute] = match
    .slice(1)
    .map((part) => Number(part ?? 0));
  // Date.UTC rolls February 30th over into March: a day that comes back changed did not exist.
  const calendar = new Date(Date.UTC(year!, month! - 1, day!));
  const realDay = calendar.getUTCMonth() === month! - 1 && calendar.getUTCDate() === day;
  if (!realDay || hour! > 23 || minute! > 59 || second! > 59 || zoneHour! > 23 || zoneMinute! > 59) {
    return refuse(`is not a real time: "${raw.slice(0, 40)}"`);
  }
  // To the second, as every time on the wire: the expiry a response shows is the instant the token stops working.
  return new Date(Math.floor(Date.parse(raw) / 1000) * 1000);
}

/** `90 days`, `12 hours`: the limit as the 422 states it. */
function spoken(ms: number): string {
  const units: [number, string][] = [
    [86_400_000, "day"],
    [3_600_000, "hour"],
    [60_000, "minute"],
    [1000, "second"],
  ];
  const [size, unit] = units.find(([size]) => ms % size === 0) ?? [1, "millisecond"];
  const n = ms / size;
  return `${n} ${unit}${n === 1 ? "" : "s"}`;
}

/**
 * The expiry a create or an update asks for, checked: `undefined` when the body does not mention it (an update then
 * keeps the stored one; a create gets the longest lifetime allowed, which is none without a maximum, so clients
 * that predate expiring tokens keep working), null for never, or the time.
 */
export function requestedExpiry(
  raw: string | null | undefined,
  now: Date,
  { maxLifetimeMs }: ExpiryPolicy,
): Date | null | undefined {
  if (raw === undefined) return undefined;
  if (raw === null) {
    return maxLifetimeMs === null
      ? null
      : refuse(`is required: tokens on this server expire within ${spoken(maxLifetimeMs)}`);
  }
  const expiresAt = parseExpiry(raw);
  if (expiresAt <= now) refuse("must be in the future");
  if (maxLifetimeMs !== null && expiresAt.getTime() - now.getTime() > maxLifetimeMs) {
    refuse(`must be at most ${spoken(maxLifetimeMs)} from now on this server`);
  }
  return expiresAt;
}

/** A new token's expiry when its request names none: the longest allowed. */
export const defaultExpiry = (now: Date, { maxLifetimeMs }: ExpiryPolicy): Date | null =>
  maxLifetimeMs === null ? null : new Date(now.getTime() + maxLifetimeMs);
