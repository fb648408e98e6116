/**
 * Stream fan-out: N Server-Sent Events streams (1,000 by default; `--streams 1000,10000` measures each count in
 * turn) open on `GET /events` while events are posted through `POST /admin/events` at a steady rate. The streams are
 * read by CLIENT_PROCESSES child processes (./stream-clients.ts), each a share of them on plain sockets, finding each
 * event's id line (the events' ids are consecutive from `firstId`, so the id is the sequence number) and nothing else.
 * One event loop reading every frame of a thousand streams was the benchmark's own bottleneck: its queue was the
 * latency measured, and the poster in the same loop fell behind its rate.
 *
 * Arrivals are timed on the machine's wall clock (`performance.timeOrigin + performance.now()`, the same in every
 * process), counted per ingest batch from the moment the batch was scheduled, then moved to its acknowledgement as
 * the poster (this process) saw it. The CPU of the server, of each client process and of the poster is read over the
 * measurement: a client near one second per second would make its latencies its own queue's again.
 *
 * The server's resident memory is read before the streams open and once they are all open: the memory per stream.
 * The ingest rate falls as the streams grow, so that the frames written per second stay the same. There is no
 * ceiling row: a bare fan-out server would measure node:http's socket writes, which this row's CPU per frame already
 * shows.
 */
import { fork, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { cpuSecondsOf, memoryOf, ROOT } from "./processes.js";
import { Histogram } from "./histogram.js";
import type { FromClient, ToClient } from "./stream-clients.js";

export interface FanOutMeasurement {
  streams: number;
  events: number;
  /** Events posted per second. */
  ingestRate: number;
  /** Frames received per second, over every stream. */
  frameRate: number;
  p50Ms: number;
  p99Ms: number;
  /** Server CPU per frame delivered (reading, rendering and writing it; the ingest included). */
  cpuUsPerFrame: number;
  /** Streams that did not get every event within the time allowed. */
  incomplete: number;
  /** Runs saved before issue 27 lack these (and their latencies are of 20 streams, not every one). */
  maxMs?: number;
  /** Arrivals before this process had read their ingest's acknowledgement (counted as 0 ms). */
  beforeAck?: number;
  /** Seconds to open every stream (64 opening at once). */
  openSeconds?: number;
  /** The server's resident memory (VmRSS) before the streams opened, once all were open, and after the events. */
  rssBefore?: number;
  rssOpen?: number;
  rssAfter?: number;
  /** (rssOpen - rssBefore) / streams. */
  bytesPerStream?: number;
  /**
   * Runs saved before the clients were spread over processes lack these: CPU seconds per second of the server, of
   * each client process and of the poster (this process) over the measurement. A client near 1.0 is saturated, and
   * the latency it reports is its own queue's.
   */
  serverCpuShare?: number;
  clientCpuShares?: number[];
  posterCpuShare?: number;
}

/**
 * Events per second posted while 1,000 streams are open (`--stream-rate`): 20,000 frames a second in all, about
 * 70 MB/s of socket writes (a frame is about 3.5 KB). Issue 27's goal is judged here: 200 events/s is 700 MB/s, past
 * what the server writes on this machine's two cores (near 90,000 frames/s), and measures its saturation instead.
 */
export const DEFAULT_RATE_AT_1000 = 20;
const BATCHES_PER_SECOND = 2;
const SECONDS = 10;
/** Processes reading the streams (./stream-clients.ts), each a share of them. */
const CLIENT_PROCESSES = 4;
/** Streams opening at once, over every client process. */
const OPENING = 64;
/** How long the streams may take to get every event after the last ingest. */
const ARRIVAL_LIMIT_MS = 30_000;

/**
 * The ingest rate for `streams` streams: `rateAt1000` events/s at 1,000 streams, scaled so that the frames written
 * per second stay the same (a tenth of it for 10,000 streams), at most `rateAt1000`, at least one event a batch.
 */
export function fanOutPlan(
  streams: number,
  rateAt1000 = DEFAULT_RATE_AT_1000,
): { perSecond: number; events: number; batch: number } {
  const scaled = Math.round((rateAt1000 * 1000) / streams / BATCHES_PER_SECOND) * BATCHES_PER_SECOND;
  const perSecond = Math.min(Math.max(rateAt1000, BATCHES_PER_SECOND), Math.max(BATCHES_PER_SECOND, scaled));
  return { perSecond, events: perSecond * SECONDS, batch: perSecond / BATCHES_PER_SECOND };
}

/** This process's open-file limit (each stream is a socket): a clear refusal beats EMFILE half-way. */
export function checkFileLimit(streams: number): void {
  const limit = Number(/^Max open files\s+(\d+)/m.exec(readFileSync("/proc/self/limits", "utf8"))?.[1] ?? Infinity);
  if (streams + 200 > limit) {
    throw new Error(
      `${streams} streams need about ${streams + 200} open files, and this shell allows ${limit}: raise it (ulimit -n) ` +
        "or measure fewer --streams",
    );
  }
}

/** A client process (./stream-clients.ts) and what it said last. */
class ClientProcess {
  readonly child: ChildProcess;
  private readonly waiting = new Map<FromClient["kind"], (message: FromClient) => void>();
  private readonly said = new Map<FromClient["kind"], FromClient>();

  constructor() {
    this.child = fork(`${ROOT}bench/stream-clients.ts`, [], {
      execArgv: ["--import", "tsx"],
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    this.child.on("message", (message: FromClient) => {
      this.said.set(message.kind, message);
      this.waiting.get(message.kind)?.(message);
      if (message.kind === "failed") for (const wake of this.waiting.values()) wake(message);
    });
  }

  tell(message: ToClient): void {
    this.child.send(message);
  }

  /** Resolves with the process's `kind` message (at once if it came already); rejects on `failed`. */
  async heard<K extends FromClient["kind"]>(kind: K): Promise<Extract<FromClient, { kind: K }>> {
    const message =
      this.said.get(kind) ??
      this.said.get("failed") ??
      (await new Promise<FromClient>((resolve) => this.waiting.set(kind, resolve)));
    if (message.kind === "failed") throw new Error(`stream client: ${message.message}`);
    return message as Extract<FromClient, { kind: K }>;
  }

  cpuSeconds(): number {
    return cpuSecondsOf(this.child.pid!);
  }
}

const wallNow = () => performance.timeOrigin + performance.now();

export async function measureFanOut(
  serverUrl: string,
  serverPid: number,
  adminToken: string,
  templates: Record<string, unknown>[],
  firstId: number,
  streamCount = 1000,
  rateAt1000 = DEFAULT_RATE_AT_1000,
): Promise<FanOutMeasurement> {
  checkFileLimit(streamCount);
  const plan = fanOutPlan(streamCount, rateAt1000);
  const batches = Math.ceil(plan.events / plan.batch);
  const batchMs = 1000 / BATCHES_PER_SECOND;
  const { hostname, port } = new URL(serverUrl);
  const clients = Array.from({ length: CLIENT_PROCESSES }, () => new ClientProcess());
  try {
    const rssBefore = memoryOf(serverPid)?.current ?? Number.NaN;
    const openStarted = performance.now();
    clients.forEach((client, i) => {
      const streams = Math.floor(streamCount / CLIENT_PROCESSES) + (i < streamCount % CLIENT_PROCESSES ? 1 : 0);
      client.tell({
        kind: "open",
        plan: {
          host: hostname,
          port: Number(port),
          streams,
          opening: Math.ceil(OPENING / CLIENT_PROCESSES),
          firstId,
          events: plan.events,
          batch: plan.batch,
          batchMs,
        },
      });
    });
    await Promise.all(clients.map((c) => c.heard("opened")));
    const openSeconds = (performance.now() - openStarted) / 1000;
    await sleep(1000); // what opening left for the collector, and the server's last writes of the opening
    const rssOpen = memoryOf(serverPid)?.current ?? Number.NaN;

    // Per batch: the wall-clock moment it is scheduled at (the clients' reference) and its acknowledgement.
    const startWall = wallNow() + 50;
    for (const client of clients) client.tell({ kind: "start", wallMs: startWall });
    const ackedWall: number[] = [];
    const cpuBefore = cpuSecondsOf(serverPid);
    const clientCpuBefore = clients.map((c) => c.cpuSeconds());
    const posterCpuBefore = process.cpuUsage();
    for (let batch = 0; batch < batches; batch++) {
      const wait = startWall + batch * batchMs - wallNow();
      if (wait > 0) await sleep(wait);
      const lines: string[] = [];
      for (let i = batch * plan.batch; i < Math.min(plan.events, (batch + 1) * plan.batch); i++) {
        const template = templates[i % templates.length]!;
        lines.push(
          JSON.stringify({ ...template, id: String(firstId + i), public: true, created_at: new Date().toISOString() }),
        );
      }
      const response = await fetch(`${serverUrl}/admin/events`, {
        method: "POST",
        headers: { authorization: `token ${adminToken}`, "content-type": "application/x-ndjson" },
        body: lines.join("\n"),
      });
      if (response.status !== 200) throw new Error(`POST /admin/events: ${response.status} ${await response.text()}`);
      await response.arrayBuffer();
      ackedWall[batch] = wallNow();
    }
    const ingestSeconds = (wallNow() - startWall) / 1000;
    await Promise.race([Promise.all(clients.map((c) => c.heard("complete"))), sleep(ARRIVAL_LIMIT_MS)]);
    const seconds = (wallNow() - startWall) / 1000;
    const cpu = cpuSecondsOf(serverPid) - cpuBefore;
    const clientCpu = clients.map((c, i) => (c.cpuSeconds() - clientCpuBefore[i]!) / seconds);
    const poster = process.cpuUsage(posterCpuBefore);
    const rssAfter = memoryOf(serverPid)?.current ?? Number.NaN;
    for (const client of clients) client.tell({ kind: "finish" });
    const results = await Promise.all(clients.map((c) => c.heard("result")));

    const latencies = new Histogram();
    for (const result of results) {
      for (const [batch, buckets] of result.batches.entries())
        latencies.addBuckets(buckets, ackedWall[batch]! - (startWall + batch * batchMs));
    }
    const frames = results.reduce((sum, r) => sum + r.frames, 0);
    // The server lets go of the closed streams before anything else is measured.
    await sleep(Math.min(5000, 500 + streamCount / 2));
    return {
      streams: streamCount,
      events: plan.events,
      ingestRate: plan.events / ingestSeconds,
      frameRate: frames / seconds,
      p50Ms: latencies.percentile(0.5),
      p99Ms: latencies.percentile(0.99),
      maxMs: latencies.max,
      cpuUsPerFrame: (cpu * 1e6) / frames,
      incomplete: results.reduce((sum, r) => sum + r.incomplete, 0),
      beforeAck: latencies.negative,
      openSeconds,
      rssBefore,
      rssOpen,
      rssAfter,
      bytesPerStream: (rssOpen - rssBefore) / streamCount,
      serverCpuShare: cpu / seconds,
      clientCpuShares: clientCpu,
      posterCpuShare: (poster.user + poster.system) / 1e6 / seconds,
    };
  } finally {
    for (const client of clients) if (client.child.exitCode === null) client.child.kill();
  }
}
