/**
 * `--webhook-rate`: deliveries per second to one hook at most, so that a backlog (an import, a bulk redelivery, a
 * receiver back from an outage) reaches a receiver at a pace it can take, while other hooks are not held back. Kept
 * per process, by the server's clock: each instance paces what it sends.
 */
export class HookThrottle {
  /** When each hook may next be sent to (epoch ms). */
  private readonly next = new Map<number, number>();
  private readonly intervalMs: number;

  /** @param perSecond 0: no limit. */
  constructor(perSecond: number) {
    this.intervalMs = perSecond > 0 ? 1000 / perSecond : 0;
  }

  /** 0, and the hook's slot is taken, when it may be sent to now; otherwise how many ms it must wait. */
  take(hookId: number, now: number): number {
    if (this.intervalMs === 0) return 0;
    const allowed = this.next.get(hookId) ?? now;
    if (allowed > now) return Math.ceil(allowed - now);
    this.next.set(hookId, now + this.intervalMs);
    if (this.next.size > 10_000) this.forget(now);
    return 0;
  }

  /** Hooks whose slot has passed need no entry: a long-running server with many hooks keeps only the busy ones. */
  private forget(now: number): void {
    for (const [hookId, at] of this.next) if (at <= now) this.next.delete(hookId);
  }
}
