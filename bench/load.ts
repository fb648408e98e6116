/**
 * The HTTP load: autocannon from this process against servers in other processes (feedgate, the ceiling), a
 * fixed number of keep-alive connections, one run per scenario: a warm-up (JIT, SQLite page cache, prepared
 * statements), then a fixed-length measured window on the same connections.
 *
 * The window opens once the warm-up is over *and* every connection has had a response. A server whose event
 * loop is blocked for tens of milliseconds per request takes up fresh connections only slowly (a bare node:http
 * server doing 25 ms of synchronous work answers its 23rd..32nd connections for the first time after 1 to 8 s),
 * and a window that included that ramp would measure connection set-up, not the steady state a poller sees.
 * The ramp is reported instead, as its own column.
 *
 * Latencies are recorded here, per response sent within the window, at sub-millisecond resolution (autocannon's own histogram rounds
 * to whole milliseconds, too coarse for a 2 ms p50). Each window also records how much CPU the server used per
 * request and how busy the rest of the machine was, because a shared machine's neighbours move requests per
 * second but hardly move CPU per request.
 */
import { setTimeout as sleep } from "node:timers/promises";
import autocannon from "autocannon";
import { cpuSecondsOf, machineBusySeconds, memoryOf } from "./processes.js";
import { loopDelaySince, type LoopDelay } from "./server-metrics.js";

/** How long, after the warm-up, to wait for every connection to be answered before measuring anyway. */
export const RAMP_LIMIT_SECONDS = 30;

export interface Scenario {
  key: string;
  label: string;
  /** Which server: the ceiling or feedgate. */
  target: "ceiling" | "feedgate";
  method: "GET" | "POST";
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** The status every response must have; anything else is counted as an error. */
  expect: number;
  /** Polled while events flow in (bench/live.ts); `exclude` names a repository the feeder leaves alone. */
  live?: { exclude?: string };
  /** Credentials that expire (a JWT, an installation token): made again before the row is captured and run. */
  refresh?: () => Promise<Record<string, string>>;
  /**
   * Each connection's own requests, sent in turn and again (the `n`th connection opened gets `perConnection(n)`),
   * instead of `method`, `path` and `body`: writes that must alternate on a resource of their own (a label added to
   * an issue, then removed) so that every request writes.
   */
  perConnection?: (connection: number) => autocannon.Request[];
}

export interface LoadSettings {
  connections: number;
  warmupSeconds: number;
  durationSeconds: number;
}

export interface Measurement {
  scenario: Scenario;
  requests: number;
  seconds: number;
  rps: number;
  p50: number;
  p99: number;
  /** Responses with another status than expected, plus socket errors and timeouts. */
  errors: number;
  bytesPerResponse: number;
  /** Server CPU milliseconds per request (user + system, all threads). */
  cpuMsPerRequest: number;
  /** CPU used meanwhile by everything but the server and this process, in cores. */
  otherCores: number;
  /** A page's events, from a feed's Link rel="last" (pages x per_page, so an upper bound); null when not a feed. */
  feedEvents: number | null;
  /** The server's VmHWM after this run: the high-water mark is monotonic, so a jump belongs to this scenario. */
  serverPeakRss: number | null;
  /** Seconds from the first connection until every connection had a response; null if some never had one. */
  rampSeconds: number | null;
  /** Connections that had no response before the window opened (0 normally). */
  starved: number;
  /** Live scenarios: events ingested per second during the run (measured over the window's length). */
  liveEvents?: number;
  /**
   * The server's event-loop delay over the measured window (ms, from its /metrics), when it was asked: what of a
   * latency the server's own turns account for, where p99 also holds the load generator's and the machine's waits.
   */
  loopDelay: LoopDelay | null;
  /** The database's CPU milliseconds per request, when measure() was told how to read it (MeasureExtras.databaseCpu). */
  databaseCpuMsPerRequest?: number;
}

/** What measure() does besides the load. */
export interface MeasureExtras {
  /** Starts once the server has settled (a live row's feeder: started before, settle() would wait its 180 s out). */
  settledThen?: () => void;
  /** A feedgate server's URL: its event-loop delay is read from its /metrics when the window opens and closes. */
  metricsUrl?: string;
  /** CPU seconds used so far by the database processes serving the server (PostgreSQL's backends), read at both ends. */
  databaseCpu?: () => number;
}

/**
 * Waits until the server is idle. When autocannon stops, requests it gave up on are still being worked on
 * (a slow feed, scrypt): the next scenario must not inherit that backlog.
 */
export async function settle(pid: number, maxSeconds = 180): Promise<void> {
  const deadline = Date.now() + maxSeconds * 1000;
  for (;;) {
    const before = cpuSecondsOf(pid);
    await sleep(300);
    if (cpuSecondsOf(pid) - before <= 0.03 || Date.now() > deadline) return; // under 10% of a core
  }
}

class Latencies {
  private values = new Float64Array(1 << 16);
  private count = 0;

  add(ms: number): void {
    if (this.count === this.values.length) {
      const bigger = new Float64Array(this.values.length * 2);
      bigger.set(this.values);
      this.values = bigger;
    }
    this.values[this.count++] = ms;
  }

  /** Nearest-rank percentile. */
  percentile(p: number): number {
    if (this.count === 0) return NaN;
    const sorted = this.values.subarray(0, this.count).sort();
    return sorted[Math.min(this.count - 1, Math.ceil((p / 100) * this.count) - 1)]!;
  }
}

/** One scenario: a warm-up, then the measured window, on the same connections (see the top of this file). */
export async function measure(
  url: string,
  scenario: Scenario,
  settings: LoadSettings,
  serverPid: number,
  feedEvents: number | null,
  extras: MeasureExtras = {},
): Promise<Measurement> {
  await settle(serverPid);
  extras.settledThen?.();
  const { metricsUrl } = extras;
  let loopDelay: Promise<LoopDelay | null> = Promise.resolve(null);
  const latencies = new Latencies();
  const answered = new Set<unknown>();
  const began = performance.now();
  const warmupEnd = began + settings.warmupSeconds * 1000;
  let rampSeconds: number | null = null;
  const { databaseCpu } = extras;
  let window: {
    start: number;
    end: number;
    cpu: number;
    machine: number;
    self: NodeJS.CpuUsage;
    database: number;
  } | null = null;
  let closed: { seconds: number; cpu: number; machine: number; self: NodeJS.CpuUsage; database: number } | null = null;
  let requests = 0;
  let bytes = 0;
  let unexpected = 0;
  let instance: autocannon.Instance | undefined;
  let forceOpen: NodeJS.Timeout | undefined;
  let connectionsMade = 0;
  const { perConnection } = scenario;

  const open = (now: number) => {
    clearTimeout(forceOpen);
    window = {
      start: now,
      end: now + settings.durationSeconds * 1000,
      cpu: cpuSecondsOf(serverPid),
      machine: machineBusySeconds(),
      self: process.cpuUsage(),
      database: databaseCpu?.() ?? 0,
    };
    // This scrape resets prom-client's delay monitor, so the one at the close covers the window alone.
    const opened = metricsUrl === undefined ? null : loopDelaySince(metricsUrl);
    setTimeout(() => {
      if (metricsUrl !== undefined && opened !== null) loopDelay = opened.then(() => loopDelaySince(metricsUrl));
      closed = {
        seconds: (performance.now() - window!.start) / 1000,
        cpu: cpuSecondsOf(serverPid) - window!.cpu,
        machine: machineBusySeconds() - window!.machine,
        self: process.cpuUsage(window!.self),
        database: (databaseCpu?.() ?? 0) - window!.database,
      };
      instance?.stop();
    }, settings.durationSeconds * 1000);
  };

  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    instance = autocannon(
      {
        url: url + scenario.path,
        method: scenario.method,
        headers: scenario.headers,
        ...(scenario.body === undefined ? {} : { body: scenario.body }),
        ...(perConnection === undefined
          ? {}
          : { setupClient: (client: autocannon.Client) => client.setRequests(perConnection(connectionsMade++)) }),
        connections: settings.connections,
        // An upper bound: the run is stopped when the window closes.
        duration: settings.warmupSeconds + RAMP_LIMIT_SECONDS + settings.durationSeconds + 5,
        pipelining: 1,
        // Slow endpoints (scrypt) queue for a long time at 32 connections; a timeout would only hide that.
        timeout: 120,
      },
      (error: unknown, r: autocannon.Result) => (error ? reject(error) : resolve(r)),
    );
    instance.on("response", (client, statusCode, resBytes, responseTime) => {
      const now = performance.now();
      if (window === null) {
        answered.add(client);
        if (rampSeconds === null && answered.size === settings.connections) rampSeconds = (now - began) / 1000;
        if (now >= warmupEnd && rampSeconds !== null) open(now);
        return;
      }
      if (now > window.end) return;
      requests += 1;
      bytes += resBytes;
      if (statusCode !== scenario.expect) unexpected += 1;
      // Latency of requests sent within the window only: one sent before it may have waited out the ramp.
      if (now - responseTime >= window.start) latencies.add(responseTime);
    });
    // The warm-up may end before every connection was answered: wait for them, within reason.
    setTimeout(() => {
      if (window === null && rampSeconds !== null) open(performance.now());
      else if (window === null)
        forceOpen = setTimeout(() => window === null && open(performance.now()), RAMP_LIMIT_SECONDS * 1000);
    }, settings.warmupSeconds * 1000);
  });
  clearTimeout(forceOpen);
  const c = closed as { seconds: number; cpu: number; machine: number; self: NodeJS.CpuUsage; database: number } | null;
  if (c === null) throw new Error(`${scenario.label}: the measured window never closed`);
  return {
    scenario,
    requests,
    seconds: c.seconds,
    rps: requests / c.seconds,
    p50: latencies.percentile(50),
    p99: latencies.percentile(99),
    errors: unexpected + result.errors + result.timeouts,
    bytesPerResponse: requests > 0 ? bytes / requests : 0,
    cpuMsPerRequest: requests > 0 ? (c.cpu * 1000) / requests : NaN,
    otherCores: Math.max(0, (c.machine - c.cpu - (c.self.user + c.self.system) / 1e6) / c.seconds),
    feedEvents,
    serverPeakRss: memoryOf(serverPid)?.peak ?? null,
    rampSeconds,
    starved: settings.connections - answered.size,
    loopDelay: await loopDelay,
    ...(databaseCpu && requests > 0 ? { databaseCpuMsPerRequest: (c.database * 1000) / requests } : {}),
  };
}

/** The idle scenarios that also run live. */
export const LIVE_KEYS = ["repo", "events", "user", "received", "304"];

/** The scenarios, in the order they run. */
export function scenarios(names: {
  topRepo: string;
  topActor: string;
  reader: string;
  token: string;
  poster: string;
  posterPassword: string;
}): Scenario[] {
  const token = { Authorization: `token ${names.token}`, Accept: "application/vnd.github.v3+json" };
  const basic = `Basic ${Buffer.from(`${names.poster}:${names.posterPassword}`).toString("base64")}`;
  const idle: Scenario[] = [
    {
      key: "ceiling",
      label: "old ceiling: bare node:http, one 30-event page for every row",
      target: "ceiling",
      method: "GET",
      path: "/",
      headers: {},
      expect: 200,
    },
    {
      key: "repo",
      label: "GET /repos/:o/:r/events (token)",
      target: "feedgate",
      method: "GET",
      path: `/repos/${names.topRepo}/events`,
      headers: token,
      expect: 200,
    },
    {
      key: "events",
      label: "GET /events (page 1)",
      target: "feedgate",
      method: "GET",
      path: "/events",
      headers: token,
      expect: 200,
    },
    {
      key: "user",
      label: "GET /users/:u/events",
      target: "feedgate",
      method: "GET",
      path: `/users/${names.topActor}/events`,
      headers: token,
      expect: 200,
    },
    {
      key: "received",
      label: "GET /users/:u/received_events (1,000 follows + 1,000 watches)",
      target: "feedgate",
      method: "GET",
      path: `/users/${names.reader}/received_events`,
      headers: token,
      expect: 200,
    },
    {
      key: "page1000",
      label: "GET /events?page=1000",
      target: "feedgate",
      method: "GET",
      path: "/events?page=1000",
      headers: token,
      expect: 200,
    },
    // If-None-Match is filled in by the runner from a first response's ETag.
    {
      key: "304",
      label: "GET /repos/:o/:r/events, If-None-Match: 304",
      target: "feedgate",
      method: "GET",
      path: `/repos/${names.topRepo}/events`,
      headers: token,
      expect: 304,
    },
  ];
  return [
    ...idle,
    // The same feeds while 1,000 events/s are ingested (bench/live.ts). The 304 poll's repository gets none of them:
    // its page must stay the same for If-None-Match to hold, while every other feed's ingest still reaches its server.
    ...idle
      .filter((s) => LIVE_KEYS.includes(s.key))
      .map(
        (s): Scenario => ({
          ...s,
          key: `live-${s.key}`,
          label: `live: ${s.label}`,
          live: s.key === "304" ? { exclude: names.topRepo } : {},
        }),
      ),
    {
      key: "authorizations",
      label: "POST /authorizations (Basic auth)",
      target: "feedgate",
      method: "POST",
      path: "/authorizations",
      headers: { Authorization: basic, "Content-Type": "application/json", Accept: "application/vnd.github.v3+json" },
      body: JSON.stringify({ scopes: ["public_repo"], note: "feedgate bench" }),
      expect: 201,
    },
  ];
}
