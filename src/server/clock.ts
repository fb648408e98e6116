/**
 * The one source of "now" for every rule of the server: event times, rate-limit windows, one-time passwords, token
 * and session expiry, webhook retries and the `Date` header. A process serving for real reads the wall clock; the
 * test double (`feedgate/testing`, `serve --test-controls`) hands a ManualClock that its tests set and advance.
 */

/** Reads the time. Rules call it; none reads `Date.now()` itself. */
export type Clock = () => Date;

export const wallClock: Clock = () => new Date();

const MS_PER_UNIT: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `1h`, `30m`, `2d`, `1500ms`, `90s`, or a number of milliseconds; null when it is none of these. */
export function durationMs(value: string | number): number | null {
  if (typeof value === "number") return Number.isSafeInteger(value) ? value : null;
  const match = /^(-?[0-9]+)(ms|s|m|h|d)$/.exec(value.trim());
  return match ? Number(match[1]) * MS_PER_UNIT[match[2]!]! : null;
}

/**
 * A clock that stands still until it is set or advanced, or that runs from a chosen start at the wall clock's pace
 * (`running`). Whoever waits for a time (the webhook dispatcher's retries) listens for moves, so that advancing the
 * clock past a retry's time sends it at once.
 */
export class ManualClock {
  /** The clock's time when the wall clock read `since` (running), or its time (standing still). */
  private base: number;
  private since: number;
  /** Where reset() puts the clock back to: the start, standing still or in step with the wall clock as it began. */
  private readonly start: number;
  private readonly started = Date.now();
  private readonly listeners = new Set<() => void>();

  constructor(
    start: Date = new Date(),
    private readonly running = false,
  ) {
    if (Number.isNaN(start.getTime())) throw new RangeError("the clock needs a valid time");
    this.base = this.start = start.getTime();
    this.since = this.started;
  }

  /** The reading function every part of the server is given. */
  readonly now: Clock = () => new Date(this.base + (this.running ? Date.now() - this.since : 0));

  set(time: Date): void {
    if (Number.isNaN(time.getTime())) throw new RangeError("the clock needs a valid time");
    this.base = time.getTime();
    this.since = Date.now();
    this.moved();
  }

  /** Moves the clock by `1h`, `30m`, `2d`, ... or a number of milliseconds (not backwards: use set()). */
  advance(by: string | number): Date {
    const ms = durationMs(by);
    if (ms === null || ms < 0)
      throw new RangeError(
        `advance the clock by a duration such as 90s, 30m, 1h or 2d, or by milliseconds, got ${JSON.stringify(by)}`,
      );
    this.set(new Date(this.now().getTime() + ms));
    return this.now();
  }

  /** Back to how it began: at its start time if it stands still, else running at the offset from the wall clock it began with. */
  reset(): void {
    const time = new Date(this.start + (this.running ? Date.now() - this.started : 0));
    // A clock that reads the same has not moved: nothing that waits for a time is woken (a test double's reset, issue
    // 47, spent more waking the webhook dispatcher to ask for nothing new than putting its rows back).
    if (this.now().getTime() === time.getTime()) return;
    this.set(time);
  }

  /** Calls `listener` after every move; returns how to stop. */
  onMove(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private moved(): void {
    for (const listener of this.listeners) listener();
  }
}
