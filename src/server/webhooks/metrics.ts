/**
 * What an operator of deliveries watches, on the app's /metrics (../metrics.ts's registry): deliveries by result,
 * attempts per delivery, hooks turned off for failing, and the outbox itself (its depth, and how long its most
 * overdue delivery has waited), read from the database at each scrape, so that every instance shows the shared queue.
 */
import { Counter, Gauge, Histogram, type Registry } from "prom-client";
import type { Clock } from "../clock.js";
import type { QueueStats } from "../store/hook-store.js";

/** How a delivery left the queue: delivered (a 2xx), or failed at its last attempt (kept for a redelivery). */
export type DeliveryResult = "delivered" | "failed";

export class WebhookMetrics {
  readonly deliveries: Counter<"result">;
  readonly attempts: Histogram;
  readonly hooksDisabled: Counter;

  /** @param stats the outbox as the store sees it; a scrape during a database outage leaves the gauges as they were. */
  constructor(registry: Registry, stats: (now: number) => Promise<QueueStats>, clock: Clock) {
    this.deliveries = new Counter({
      name: "feedgate_webhook_deliveries_total",
      help: "Webhook deliveries that left the queue, by result: delivered (2xx), or failed at their last attempt.",
      labelNames: ["result"] as const,
      registers: [registry],
    });
    for (const result of ["delivered", "failed"] satisfies DeliveryResult[]) this.deliveries.inc({ result }, 0);
    this.attempts = new Histogram({
      name: "feedgate_webhook_delivery_attempts",
      help: "Attempts each delivery took before it left the queue, the first included.",
      buckets: [1, 2, 3, 4, 5, 6, 8, 10, 20],
      registers: [registry],
    });
    this.hooksDisabled = new Counter({
      name: "feedgate_webhook_hooks_disabled_total",
      help: "Hooks made inactive because every delivery to them failed for --webhook-disable-after.",
      registers: [registry],
    });
    let last: QueueStats | null = null;
    const read = async () => {
      const now = clock().getTime();
      last = await stats(now).catch(() => last);
      return { now, last };
    };
    // One read serves both gauges of a scrape: prom-client collects them one after the other.
    let pending: ReturnType<typeof read> | null = null;
    const shared = () => {
      pending ??= read().finally(() => setImmediate(() => (pending = null)));
      return pending;
    };
    new Gauge({
      name: "feedgate_webhook_queue_depth",
      help: "Webhook deliveries queued (in flight included), of every instance on this database.",
      registers: [registry],
      async collect() {
        const { last: stats } = await shared();
        if (stats) this.set(stats.depth);
      },
    });
    new Gauge({
      name: "feedgate_webhook_oldest_due_seconds",
      help: "How long the most overdue delivery of an active hook has been due; 0 when none is waiting.",
      registers: [registry],
      async collect() {
        const { now, last: stats } = await shared();
        if (stats) this.set(stats.oldestDue === null ? 0 : Math.max(0, (now - stats.oldestDue) / 1000));
      },
    });
  }
}
