/**
 * Fixed-window counters, the one mechanism behind rate limits and the failed-login lockout.
 * In process by default (right for one instance); a shared implementation can replace it when several
 * instances serve one database.
 */

export interface WindowState {
  /** Hits counted in the current window. */
  count: number;
  /** When the current window ends. */
  resetAt: Date;
}

export interface WindowCounters {
  /** Counts one hit under `key`, opening a window of `windowSeconds` when none is open. */
  hit(key: string, windowSeconds: number, now: Date): Promise<WindowState>;
  /** Takes back one hit (a 304 does not use up rate limit). */
  refund(key: string, now: Date): Promise<void>;
  /** The current window without counting; a closed window reads as zero hits. */
  peek(key: string, windowSeconds: number, now: Date): Promise<WindowState>;
  /** Empties every window (the test double's reset); counters shared with other instances leave theirs alone. */
  clear?(): void;
  /** Resolves when the backing service answers (readiness checks). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export class MemoryWindowCounters implements WindowCounters {
  private readonly windows = new Map<string, WindowState>();

  private current(key: string, now: Date): WindowState | undefined {
    const window = this.windows.get(key);
    if (window && window.resetAt <= now) {
      this.windows.delete(key);
      return undefined;
    }
    return window;
  }

  async hit(key: string, windowSeconds: number, now: Date): Promise<WindowState> {
    const window = this.current(key, now) ?? { count: 0, resetAt: new Date(now.getTime() + windowSeconds * 1000) };
    window.count += 1;
    this.windows.set(key, window);
    this.sweep(now);
    return { ...window };
  }

  async refund(key: string, now: Date): Promise<void> {
    const window = this.current(key, now);
    if (window && window.count > 0) window.count -= 1;
  }

  async peek(key: string, windowSeconds: number, now: Date): Promise<WindowState> {
    const window = this.current(key, now);
    return window ? { ...window } : { count: 0, resetAt: new Date(now.getTime() + windowSeconds * 1000) };
  }

  async ping(): Promise<void> {}

  clear(): void {
    this.windows.clear();
  }

  async close(): Promise<void> {
    this.clear();
  }

  private lastSweep = 0;

  /** Drops closed windows now and then, so memory follows the active clients, not every client ever seen. */
  private sweep(now: Date): void {
    if (now.getTime() - this.lastSweep < 60_000) return;
    this.lastSweep = now.getTime();
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
  }
}
