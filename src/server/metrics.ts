/**
 * The Prometheus instruments of one app: a registry per app instance, because tests build many apps in one
 * process and prom-client's global registry refuses a second metric of the same name. Labels carry only
 * bounded, non-secret values (route patterns, status codes, fixed words), never a login, a token or a raw URL.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import type { Store } from "./store/store.js";

/** The kinds background retention prunes, each a series from the start. */
const RETENTION_KINDS = ["webhook_deliveries", "sessions", "events", "event_partitions"] as const;

/** The `route` label of requests no route matched: their raw URLs are unbounded and may carry secrets. */
export const UNMATCHED_ROUTE = "unmatched";

let processRegistry: Registry | undefined;

/**
 * How often prom-client's event-loop monitor takes its turn (its default, said here so that readers of
 * `nodejs_eventloop_lag_*` know it): each figure is the time between two turns, so this much of it is the interval.
 */
export const EVENT_LOOP_MONITOR_MS = 10;

/**
 * prom-client's process metrics (CPU, memory, event-loop lag, GC), collected once per process and shared by every
 * app's output: they describe the process, not an app, and each collection starts a GC observer and an event-loop
 * monitor that prom-client gives no way to stop, so one per app would pile up in a test run.
 */
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry, eventLoopMonitoringPrecision: EVENT_LOOP_MONITOR_MS });
  }
  return processRegistry;
}

export class Metrics {
  readonly registry = new Registry();

  readonly requestDuration = new Histogram({
    name: "http_request_duration_seconds",
    help: "Time to answer HTTP requests, by method, route pattern and status code.",
    labelNames: ["method", "route", "status_code"] as const,
    registers: [this.registry],
  });

  /** A hit is a page served without a database read of its own (a concurrent request's load included). */
  readonly feedCacheRequests = new Counter({
    name: "feedgate_feed_cache_requests_total",
    help: "Feed page requests answered from the page cache (hit) or by reading the database (miss).",
    labelNames: ["result"] as const,
    registers: [this.registry],
  });

  /** Not counted in the page cache's hits and misses: no page was asked for (server/repeats/). */
  readonly repeatedAnswers = new Counter({
    name: "feedgate_repeated_answers_total",
    help: "Feed requests answered again as the identical request before them was, nothing they depend on having changed.",
    registers: [this.registry],
  });

  readonly staleResponses = new Counter({
    name: "feedgate_stale_responses_total",
    help: "Feed pages served stale (--stale-if-error) because the database could not be reached.",
    registers: [this.registry],
  });

  readonly eventsIngested = new Counter({
    name: "feedgate_events_ingested_total",
    help: "Events added by ingests in this process; events already stored, and issue events, are not counted.",
    registers: [this.registry],
  });

  readonly rateLimited = new Counter({
    name: "feedgate_rate_limited_total",
    help: "Requests refused because their caller's rate limit was spent.",
    registers: [this.registry],
  });

  readonly loginFailures = new Counter({
    name: "feedgate_login_failures_total",
    help: "Password logins refused for a wrong password or one-time code.",
    registers: [this.registry],
  });

  /** Live streams are left out of the request durations (a stream lasts as long as its client likes): counted here. */
  readonly openStreams = new Gauge({
    name: "feedgate_streams_open",
    help: "Live feed streams (Server-Sent Events) this process holds open.",
    registers: [this.registry],
  });

  /** Streams opened with `Last-Event-ID` (or `?since=`): reconnections, which replay what their clients missed. */
  readonly streamsResumed = new Counter({
    name: "feedgate_streams_resumed_total",
    help: "Live feed streams opened with Last-Event-ID (or ?since=) to resume after an event.",
    registers: [this.registry],
  });

  /** Resumed streams that had missed more than --stream-replay-max events and were sent a gap instead of the replay. */
  readonly streamGaps = new Counter({
    name: "feedgate_stream_gaps_total",
    help: "Gap events sent to resumed streams that had missed more than --stream-replay-max events.",
    registers: [this.registry],
  });

  /** Rows (or, for event_partitions, whole months) background retention removed (services/retention.ts). */
  readonly retentionPruned = new Counter({
    name: "feedgate_retention_pruned_total",
    help: "Rows removed by background retention, by kind (webhook_deliveries, sessions, events); event_partitions counts whole months dropped on PostgreSQL.",
    labelNames: ["kind"] as const,
    registers: [this.registry],
  });

  readonly retentionLastRun = new Gauge({
    name: "feedgate_retention_last_run_timestamp_seconds",
    help: "When background retention last finished a run (Unix time, by the server's clock); 0 before the first.",
    registers: [this.registry],
  });

  constructor(store: Pick<Store, "connections" | "standbys">) {
    // Series that exist from the start, so a rate over them is defined before the first event.
    for (const result of ["hit", "miss"]) this.feedCacheRequests.inc({ result }, 0);
    for (const kind of RETENTION_KINDS) this.retentionPruned.inc({ kind }, 0);
    new Gauge({
      name: "feedgate_db_pool_connections",
      help: "Database connections of this process, by state (idle, active, waiting for a connection).",
      labelNames: ["state"] as const,
      registers: [this.registry],
      collect() {
        for (const [state, count] of Object.entries(store.connections())) this.set({ state }, count);
      },
    });
    const { standbys } = store;
    if (standbys) this.standbyMetrics(standbys);
  }

  /** The feed page cache's size, read at each scrape (services/feed-cache.ts). */
  feedCacheSize(read: () => { pages: number; bytes: number }): void {
    const gauges = [
      ["pages", "Feed pages held in the page cache: one per feed, page size and page asked for, in its newest state."],
      ["bytes", "The page cache's share of --feed-cache-mb in use: its pages' JSON text and bookkeeping."],
    ] as const;
    for (const [measure, help] of gauges)
      new Gauge({
        name: `feedgate_feed_cache_${measure}`,
        help,
        registers: [this.registry],
        collect() {
          this.set(read()[measure]);
        },
      });
  }

  /** With `--db-replica`: each standby's lag and exclusion, and the reads each server answered (store/postgres/standbys.ts). */
  private standbyMetrics(read: NonNullable<Store["standbys"]>): void {
    new Gauge({
      name: "feedgate_db_standby_lag_seconds",
      help: "How far each hot standby's replay is behind the primary's writes (0 when it has replayed everything).",
      labelNames: ["standby"] as const,
      registers: [this.registry],
      collect() {
        for (const standby of read().standbys) this.set({ standby: standby.name }, standby.lagSeconds);
      },
    });
    new Gauge({
      name: "feedgate_db_standby_excluded",
      help: "1 while a hot standby is left out of reads (failing, or behind by more than --replica-max-lag), else 0.",
      labelNames: ["standby"] as const,
      registers: [this.registry],
      collect() {
        for (const standby of read().standbys) this.set({ standby: standby.name }, standby.excluded ? 1 : 0);
      },
    });
    new Counter({
      name: "feedgate_db_reads_total",
      help: "Requests' database reads by the server that answered them: the primary or a hot standby (its share).",
      labelNames: ["server"] as const,
      registers: [this.registry],
      collect() {
        const { primaryReads, standbys } = read();
        this.reset();
        this.inc({ server: "primary" }, primaryReads);
        for (const standby of standbys) this.inc({ server: standby.name }, standby.reads);
      },
    });
  }

  /** The Prometheus text exposition of this app's metrics and the process's. */
  async exposition(): Promise<{ contentType: string; text: string }> {
    const merged = Registry.merge([this.registry, processMetrics()]);
    return { contentType: merged.contentType, text: await merged.metrics() };
  }
}
