/**
 * Stream fan-out: N Server-Sent Events streams (1,000 by default; `--streams 1000,10000` measures each count in
 * turn) open on `GET /events` while events are posted through `POST /admin/events` at a steady rate. Every stream
 * reads each event's id line (the events' ids are consecutive from `firstId`, so the id is the sequence number),
 * which is all it needs for the latency from the ingest's acknowledgement to the event's arrival, on every stream:
 * no JSON is parsed, so that the client, on the same cores, stays cheap. The arrivals are counted in histograms
 * (./histogram.ts), one per ingest batch, reckoned from the moment the batch was sent and moved to its
 * acknowledgement once that is known: a stream may get an event before this process has read the ingest's response.
 *
 * The server's resident memory is read before the streams open and once they are all open: the memory per stream.
 * The ingest rate falls as the streams grow (by default 200 events/s for 1,000 streams, 20 for 10,000), so that the
 * frames written per second stay the same. There is no ceiling row: a bare fan-out server would measure node:http's socket
 * writes, which this row's CPU per frame already shows.
 */
import { request, type ClientRequest } from "node:http";
import { readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { cpuSecondsOf, memoryOf } from "./processes.js";
import { Histogram } from "./histogram.js";

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
}

/** Events per second posted while 1,000 streams are open (`--stream-rate`): 200,000 frames a second written in all. */
export const DEFAULT_RATE_AT_1000 = 200;
const BATCHES_PER_SECOND = 2;
const SECONDS = 10;
/** Streams opening at once. */
const OPENING = 64;
/** How long the streams may take to get every event after the last ingest. */
const ARRIVAL_LIMIT_MS = 30_000;

/**
 * The ingest rate for `streams` streams: `rateAt1000` events/s at 1,000 streams, scaled so that the frames written
 * per second stay the same (a tenth of it for 10,000 streams), at most `rateAt1000`, at least one event a batch.
 */
export function fanOutPlan(streams: number, rateAt1000 = DEFAULT_RATE_AT_1000): { perSecond: number; events: number; batch: number } {
  const scaled = Math.round((rateAt1000 * 1000) / streams / BATCHES_PER_SECOND) * BATCHES_PER_SECOND;
  const perSecond = Math.min(Math.max(rateAt1000, BATCHES_PER_SECOND), Math.max(BATCHES_PER_SECOND, scaled));
  return { perSecond, events: perSecond * SECONDS, batch: perSecond / BATCHES_PER_SECOND };
}

/** This process's open-file limit (each stream is a socket): a clear refusal beats EMFILE half-way. */
export function checkFileLimit(streams: number): void {
  const limit = Number(/^Max open files\s+(\d+)/m.exec(readFileSync("/proc/self/limits", "utf8"))?.[1] ?? Infinity);
  if (streams + 200 > limit) {
    throw new Error(`${streams} streams need about ${streams + 200} open files, and this shell allows ${limit}: raise it (ulimit -n) ` +
      "or measure fewer --streams");
  }
}

interface OpenStream {
  request?: ClientRequest;
  received: number;
}

/** Opens a stream; `onData` sees its text as it arrives. Resolves once the response's headers are in. */
function openStream(url: string, onData: (text: string) => void): Promise<ClientRequest> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}/events`, { headers: { accept: "text/event-stream" }, agent: false });
    req.on("response", (response) => {
      if (response.statusCode !== 200) return reject(new Error(`stream refused: ${response.statusCode}`));
      response.setEncoding("utf8");
      response.on("data", onData);
      resolve(req);
    });
    req.on("error", reject);
    req.end();
  });
}

export async function measureFanOut(serverUrl: string, serverPid: number, adminToken: string, templates: Record<string, unknown>[],
  firstId: number, streamCount = 1000, rateAt1000 = DEFAULT_RATE_AT_1000): Promise<FanOutMeasurement> {
  checkFileLimit(streamCount);
  const plan = fanOutPlan(streamCount, rateAt1000);
  const batches = Math.ceil(plan.events / plan.batch);
  // Per batch: arrivals reckoned from the moment it was sent (known before any arrival), and its acknowledgement.
  const sentAt: number[] = [];
  const ackedAt: number[] = [];
  const arrivals = Array.from({ length: batches }, () => new Histogram());
  const streams: OpenStream[] = [];
  let expected = plan.events;
  let complete = 0;
  let allDone: () => void = () => undefined;
  const done = new Promise<void>((resolve) => { allDone = resolve; });

  const rssBefore = memoryOf(serverPid)?.current ?? Number.NaN;
  const openStarted = performance.now();
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(OPENING, streamCount) }, async () => {
    while (next < streamCount) {
      next++;
      let partial = "";
      // Its counter exists before the request: data may come before the open resolves.
      const stream: OpenStream = { received: 0 };
      stream.request = await openStream(serverUrl, (text) => {
        const now = performance.now();
        const frames = (partial + text).split("\n\n");
        partial = frames.pop()!;
        for (const frame of frames) {
          if (!frame.startsWith("id: ")) continue; // the retry line, a heartbeat comment
          const end = frame.indexOf("\n");
          const batch = Math.floor((Number(frame.slice(4, end < 0 ? undefined : end)) - firstId) / plan.batch);
          const sent = sentAt[batch];
          if (sent !== undefined) arrivals[batch]!.add(now - sent);
          if (++stream.received === expected && ++complete === streamCount) allDone();
        }
      });
      streams.push(stream);
    }
  }));
  const openSeconds = (performance.now() - openStarted) / 1000;
  await sleep(1000); // what opening left for the collector, and the server's last writes of the opening
  const rssOpen = memoryOf(serverPid)?.current ?? Number.NaN;

  const cpuBefore = cpuSecondsOf(serverPid);
  const started = performance.now();
  for (let batch = 0; batch < batches; batch++) {
    const wait = started + (batch * 1000) / BATCHES_PER_SECOND - performance.now();
    if (wait > 0) await sleep(wait);
    const lines: string[] = [];
    for (let i = batch * plan.batch; i < Math.min(plan.events, (batch + 1) * plan.batch); i++) {
      const template = templates[i % templates.length]!;
      lines.push(JSON.stringify({ ...template, id: String(firstId + i), public: true, created_at: new Date().toISOString() }));
    }
    sentAt[batch] = performance.now();
    const response = await fetch(`${serverUrl}/admin/events`, {
      method: "POST", headers: { authorization: `token ${adminToken}`, "content-type": "application/x-ndjson" }, body: lines.join("\n"),
    });
    if (response.status !== 200) throw new Error(`POST /admin/events: ${response.status} ${await response.text()}`);
    await response.arrayBuffer();
    ackedAt[batch] = performance.now();
  }
  const ingestSeconds = (performance.now() - started) / 1000;
  await Promise.race([done, sleep(ARRIVAL_LIMIT_MS)]);
  const seconds = (performance.now() - started) / 1000;
  const cpu = cpuSecondsOf(serverPid) - cpuBefore;
  const rssAfter = memoryOf(serverPid)?.current ?? Number.NaN;
  expected = Number.POSITIVE_INFINITY; // nothing after this counts
  const frames = streams.reduce((sum, s) => sum + s.received, 0);
  for (const stream of streams) stream.request?.destroy();

  const latencies = new Histogram();
  for (const [batch, h] of arrivals.entries()) latencies.addShifted(h, ackedAt[batch]! - sentAt[batch]!);
  // The server lets go of the closed streams before anything else is measured.
  await sleep(Math.min(5000, 500 + streamCount / 2));
  return {
    streams: streamCount, events: plan.events, ingestRate: plan.events / ingestSeconds, frameRate: frames / seconds,
    p50Ms: latencies.percentile(0.5), p99Ms: latencies.percentile(0.99), maxMs: latencies.max, cpuUsPerFrame: (cpu * 1e6) / frames,
    incomplete: streams.filter((s) => s.received < plan.events).length, beforeAck: latencies.negative, openSeconds,
    rssBefore, rssOpen, rssAfter, bytesPerStream: (rssOpen - rssBefore) / streamCount,
  };
}
