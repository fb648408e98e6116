/**
 * Background retention: what a server running for a year must not keep for ever. Webhook attempts older than
 * `--webhook-delivery-retention` (30 days), console sessions once expired, and events older than `--event-retention`
 * (off by default: kept for ever, as GH Archive users want).
 *
 * A run starts at start-up, then every `--retention-interval`, and whenever a test moves the clock. Each kind goes in
 * batches of `--retention-batch` rows, one short transaction each, with a turn of the event loop between two
 * (setImmediate): requests are served while a year of backlog drains, and no lock is held for longer than a batch.
 * Every cut-off is read from the injected clock, never from the wall clock.
 */
import { setImmediate as nextTurn } from "node:timers/promises";
import type { Clock } from "../clock.js";
import type { EventsPruned, RetentionStore } from "../store/store.js";
import { DEFAULT_SESSION_POLICY, type SessionPolicy } from "./sessions.js";

export interface RetentionPolicy {
  /** Webhook attempts older than this go; null keeps them. */
  webhookDeliveriesMs: number | null;
  /** Events created longer ago than this go; null keeps them. */
  eventsMs: number | null;
  intervalMs: number;
  batchSize: number;
}

/** What a run removed, by kind: the label values of `feedgate_retention_pruned_total`. */
export interface Pruned {
  webhook_deliveries: number;
  sessions: number;
  /** Rows (SQLite). */
  events: number;
  /** Whole months of events (PostgreSQL). */
  event_partitions: number;
}

export type PrunedKind = keyof Pruned;

/** Where a run reports to: the metrics (and a test). */
export interface RetentionReport {
  pruned(kind: PrunedKind, count: number): void;
  /** A run finished at this clock time. */
  ran(at: Date): void;
}

/** Node runs a longer timer at once (with a warning): a longer interval waits this long, about 24.8 days. */
const LONGEST_TIMER_MS = 2 ** 31 - 1;

interface Log {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
}

/** What a retention runs on and reports to. */
export interface RetentionParts {
  store: RetentionStore;
  clock: Clock;
  policy: RetentionPolicy;
  report: RetentionReport;
  log: Log;
  /** When sessions expire (idle and by age); the console's defaults unless given. */
  sessions?: SessionPolicy;
}

export class Retention {
  private readonly store: RetentionStore;
  private readonly clock: Clock;
  private readonly policy: RetentionPolicy;
  private readonly report: RetentionReport;
  private readonly log: Log;
  private readonly sessions: SessionPolicy;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  /** Asked for while a run was in progress: one more run follows it. */
  private again = false;
  private stopped = true;
  /** stop() was called: a run in progress ends after its current batch. */
  private stopping = false;

  constructor(parts: RetentionParts) {
    ({
      store: this.store,
      clock: this.clock,
      policy: this.policy,
      report: this.report,
      log: this.log,
      sessions: this.sessions = DEFAULT_SESSION_POLICY,
    } = parts);
  }

  /** Runs now, then every interval, until stop(). */
  start(): void {
    this.stopped = false;
    this.stopping = false;
    this.wake();
  }

  /** Runs as soon as the run in progress (if any) is over: the clock moved, or the interval passed. */
  wake(): void {
    if (this.stopped) return;
    if (this.running !== undefined) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    this.running = this.loop().finally(() => {
      this.running = undefined;
      if (this.stopped) return;
      if (this.again) {
        this.again = false;
        this.wake();
      } else {
        this.timer = setTimeout(() => this.wake(), Math.min(this.policy.intervalMs, LONGEST_TIMER_MS));
        this.timer.unref();
      }
    });
  }

  /** Stops between two batches and waits for the one in progress. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.stopping = true;
    clearTimeout(this.timer);
    await this.running;
  }

  private async loop(): Promise<void> {
    try {
      await this.run();
    } catch (error) {
      // A database away or busy: the next run tries again, and nothing half-done stays (each batch is a transaction).
      this.log.warn({ err: error }, "retention: a run failed; the next one tries again");
    }
  }

  /** One run over every kind; what it removed. Exposed for tests, which may also call it while stopped. */
  async run(): Promise<Pruned> {
    const now = this.clock();
    const ago = (ms: number) => new Date(now.getTime() - ms);
    const { batchSize: limit } = this.policy;
    const pruned: Pruned = { webhook_deliveries: 0, sessions: 0, events: 0, event_partitions: 0 };
    const { webhookDeliveriesMs, eventsMs } = this.policy;
    if (webhookDeliveriesMs !== null) {
      pruned.webhook_deliveries = await this.batches("webhook_deliveries", () =>
        this.store.pruneDeliveries(ago(webhookDeliveriesMs), limit).then((n) => ({ n, full: n >= limit })),
      );
    }
    pruned.sessions = await this.batches("sessions", () =>
      this.store
        .pruneSessions(ago(this.sessions.idleSeconds * 1000), ago(this.sessions.absoluteSeconds * 1000), limit)
        .then((n) => ({ n, full: n >= limit })),
    );
    await this.store.prepareEvents(now);
    if (eventsMs !== null) {
      let partitions = 0;
      pruned.events = await this.batches("events", async () => {
        const batch: EventsPruned = await this.store.pruneEvents(ago(eventsMs), limit);
        partitions += batch.partitions;
        if (batch.partitions > 0) this.report.pruned("event_partitions", batch.partitions);
        return { n: batch.rows, full: batch.rows >= limit || batch.partitions > 0 };
      });
      pruned.event_partitions = partitions;
    }
    this.report.ran(now);
    if (Object.values(pruned).some((n) => n > 0)) this.log.info({ pruned }, "retention: pruned");
    return pruned;
  }

  /** Batches of one kind until one comes back short (or the server stops), a turn of the event loop between two. */
  private async batches(kind: PrunedKind, batch: () => Promise<{ n: number; full: boolean }>): Promise<number> {
    let total = 0;
    for (;;) {
      const { n, full } = await batch();
      total += n;
      if (n > 0) this.report.pruned(kind, n);
      if (!full || this.stopping) return total;
      await nextTurn();
    }
  }
}
