/**
 * Stream fan-out: 1,000 Server-Sent Events streams open on `GET /events` while events are posted through
 * `POST /admin/events` at a steady rate. Every stream counts the events it receives; a sample of them also reads
 * each event's sequence number (carried in its payload, stored verbatim) for the latency from the ingest's
 * acknowledgement to the event's arrival. Parsing every frame of every stream would make the benchmark, on the
 * same cores, the bottleneck. There is no ceiling row: a bare fan-out server would measure node:http's socket
 * writes, which this row's CPU per frame already shows.
 */
import { request, type ClientRequest } from "node:http";
import { cpuSecondsOf } from "./processes.js";
import { percentile } from "./percentile.js";

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
}

const SAMPLED = 20;
const BATCH = 100;

interface OpenStream {
  request: ClientRequest;
  received: number;
}

/** Opens a stream; `onData` sees its text as it arrives. Resolves once the response's headers are in. */
function openStream(url: string, onData: (text: string) => void): Promise<OpenStream> {
  return new Promise((resolve, reject) => {
    const stream: OpenStream = { request: request(`${url}/events`, { headers: { accept: "text/event-stream" }, agent: false }), received: 0 };
    stream.request.on("response", (response) => {
      if (response.statusCode !== 200) return reject(new Error(`stream refused: ${response.statusCode}`));
      response.setEncoding("utf8");
      response.on("data", onData);
      resolve(stream);
    });
    stream.request.on("error", reject);
    stream.request.end();
  });
}

export async function measureFanOut(serverUrl: string, serverPid: number, adminToken: string, templates: Record<string, unknown>[],
  firstId: number, options = { streams: 1000, events: 2000, perSecond: 200 }): Promise<FanOutMeasurement> {
  const ackedAt = new Map<number, number>();
  const latencies: number[] = [];
  const streams: OpenStream[] = [];
  let expected = options.events;
  let complete = 0;
  let allDone: () => void = () => undefined;
  const done = new Promise<void>((resolve) => { allDone = resolve; });
  for (let i = 0; i < options.streams; i++) {
    const sampled = i < SAMPLED;
    let stream: OpenStream | undefined;
    let partial = "";
    stream = await openStream(serverUrl, (text) => {
      const frames = (partial + text).split("\n\n");
      partial = frames.pop()!;
      for (const frame of frames) {
        if (!frame.startsWith("id: ")) continue; // a heartbeat comment
        if (sampled) {
          const data = frame.slice(frame.indexOf("\ndata: ") + 7);
          const seq = (JSON.parse(data) as { payload?: { feedgate_bench_seq?: number } }).payload?.feedgate_bench_seq;
          if (seq !== undefined) latencies.push(performance.now() - (ackedAt.get(Math.floor(seq / BATCH)) ?? performance.now()));
        }
        if (++stream!.received === expected && ++complete === options.streams) allDone();
      }
    });
    streams.push(stream);
  }

  const cpuBefore = cpuSecondsOf(serverPid);
  const started = performance.now();
  for (let batch = 0; batch * BATCH < options.events; batch++) {
    const due = started + (batch * BATCH * 1000) / options.perSecond;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const lines: string[] = [];
    for (let i = batch * BATCH; i < Math.min(options.events, (batch + 1) * BATCH); i++) {
      const template = templates[i % templates.length]!;
      lines.push(JSON.stringify({ ...template, id: String(firstId + i), public: true, created_at: new Date().toISOString(),
        payload: { ...(template.payload as object), feedgate_bench_seq: i } }));
    }
    const response = await fetch(`${serverUrl}/admin/events`, {
      method: "POST", headers: { authorization: `token ${adminToken}`, "content-type": "application/x-ndjson" }, body: lines.join("\n"),
    });
    if (response.status !== 200) throw new Error(`POST /admin/events: ${response.status} ${await response.text()}`);
    ackedAt.set(batch, performance.now());
  }
  const ingestSeconds = (performance.now() - started) / 1000;
  await Promise.race([done, new Promise((resolve) => setTimeout(resolve, 30_000))]);
  const seconds = (performance.now() - started) / 1000;
  const cpu = cpuSecondsOf(serverPid) - cpuBefore;
  expected = Infinity; // nothing after this counts
  const frames = streams.reduce((sum, s) => sum + s.received, 0);
  for (const stream of streams) stream.request.destroy();
  latencies.sort((a, b) => a - b);
  return {
    streams: options.streams, events: options.events, ingestRate: options.events / ingestSeconds, frameRate: frames / seconds,
    p50Ms: percentile(latencies, 0.5), p99Ms: percentile(latencies, 0.99), cpuUsPerFrame: (cpu * 1e6) / frames,
    incomplete: streams.filter((s) => s.received < options.events).length,
  };
}
