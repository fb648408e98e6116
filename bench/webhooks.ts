/**
 * Webhook deliveries, twice over the same hooks: hooks on several repositories, created through the hooks API,
 * subscribed to every event; events posted through `POST /admin/events`; a receiver in this process answering 204.
 * Each event carries a sequence number in its payload (stored and delivered verbatim), so each delivery's latency is
 * measured from the moment the ingest that stored it was acknowledged (the response read by this process).
 *
 * - The flood: every event posted as fast as the ingest takes them: throughput, and CPU per delivery against the
 *   ceiling, this process POSTing bodies of the same size to the same receiver with as many requests in flight as
 *   there are hooks. Its latencies are a queue's: each waits for the deliveries before it.
 * - Below capacity: then events at a steady rate, a tenth of the flood's throughput (at most 100 a second), in ten
 *   batches a second sent on schedule whether or not the one before was answered: the latency a delivery has when
 *   nothing queues before it, the figure issue 27's goal (p99 <= 250 ms) is on.
 */
import { createServer, request, type Server } from "node:http";
import { writeFileSync } from "node:fs";
import { cpuSecondsOf, ROOT, runToCompletion } from "./processes.js";
import { WEBHOOK_EVENT_NAMES } from "../src/api/webhook-events.js";
import { percentile } from "./percentile.js";
import { loopDelaySince, type LoopDelay } from "./server-metrics.js";

export interface DeliveryMeasurement {
  hooks: number;
  deliveries: number;
  seconds: number;
  rate: number;
  p50Ms: number;
  p99Ms: number;
  /** Server CPU per delivery: building, signing, sending and recording it (the ingest that queued it included). */
  cpuMsPerDelivery: number;
  /**
   * The old ceiling: the events' payloads (smaller than the bodies delivered) POSTed by this process, a new
   * connection each, its CPU sender and receiver together. Kept for history; the goal is on `ownCeiling`.
   */
  ceilingRate: number;
  ceilingCpuMsPerPost: number;
  /** bench/post-ceiling.ts: the flood's delivered bodies and headers, POSTed from a process of their own (absent before issue 27). */
  ownCeiling?: { posts: number; rate: number; cpuMsPerPost: number; bytesPerPost: number; errors: number };
  /**
   * The ingest alone, before the hooks exist: as many events of the same shapes posted the same way, with no hook to
   * queue for: its server CPU per event (and events/s) is the share of `cpuMsPerDelivery` that is not delivery.
   * Reported beside the flood, never subtracted from it (absent from runs saved before it was measured).
   */
  ingestAlone?: { rate: number; cpuMsPerEvent: number };
  /** The server's event-loop delay during the flood (null: /metrics not read; absent from runs saved before it was measured). */
  floodLoopDelay?: LoopDelay | null;
  /** Below capacity, after the flood (absent from runs saved before it was measured). */
  steady?: SteadyDeliveries;
}

export interface SteadyDeliveries {
  /** Events posted per second, one delivery each. */
  rate: number;
  seconds: number;
  posted: number;
  /** Arrived at the receiver within the time allowed after the last ingest. */
  delivered: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Server CPU per delivery at that rate (the ingests and the server's idle work included). */
  cpuMsPerDelivery: number;
  /** Deliveries that arrived before this process had read their ingest's acknowledgement (counted as 0 ms). */
  beforeAck: number;
}

const BATCH = 200;
/** The ingest alone's sequence numbers start here: beyond the flood's and the steady phase's. */
const ALONE_FIRST = 100_000_000;
/** The steady phase's rate: this share of the flood's delivery rate, within these bounds. */
const STEADY_SHARE = 0.1;
const STEADY_MAX_PER_SECOND = 100;
const STEADY_BATCHES_PER_SECOND = 10;
/** How long deliveries may take to arrive after the last ingest before they count as missing. */
const ARRIVAL_LIMIT_MS = 30_000;

/** The `count` repositories the templates name most often: they exist in the served database. */
export function busiestRepos(templates: Record<string, unknown>[], count: number): string[] {
  const seen = new Map<string, number>();
  for (const t of templates) {
    const name = (t.repo as { name?: string } | undefined)?.name;
    if (name?.includes("/")) seen.set(name, (seen.get(name) ?? 0) + 1);
  }
  return [...seen.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name]) => name);
}

/** A receiver answering 204; `arrived` is told of each delivery's body and headers (as sent, name and value). */
export async function startReceiver(
  arrived: (body: string, rawHeaders: string[]) => void,
): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      arrived(Buffer.concat(chunks).toString("utf8"), req.rawHeaders);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}/hook` };
}

/** A delivery's headers for the own ceiling to send: all but those node:http writes itself. */
function ceilingHeaders(rawHeaders: string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!;
    if (!["host", "content-length", "connection", "keep-alive", "transfer-encoding"].includes(name.toLowerCase()))
      headers[name] = rawHeaders[i + 1]!;
  }
  return headers;
}

function post(url: string, body: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: "POST",
        agent: false,
        headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) },
      },
      (res) => res.resume().on("end", resolve),
    );
    req.on("error", reject);
    req.end(body);
  });
}

/** Latencies in ms from each sequence number's acknowledgement to its arrival, sorted; an early arrival counts 0. */
function latenciesOf(
  arrivals: Map<number, number>,
  ackOf: (seq: number) => number | undefined,
  seqs: Iterable<number>,
) {
  const latencies: number[] = [];
  let beforeAck = 0;
  for (const seq of seqs) {
    const arrived = arrivals.get(seq);
    const acked = ackOf(seq);
    if (arrived === undefined || acked === undefined) continue;
    if (arrived < acked) beforeAck++;
    latencies.push(Math.max(0, arrived - acked));
  }
  return { latencies: latencies.sort((a, b) => a - b), beforeAck };
}

function* range(from: number, to: number): Generator<number> {
  for (let i = from; i < to; i++) yield i;
}

/**
 * @param count the flood's events (one delivery each).
 * @param steadySeconds how long the steady phase posts; 0 skips it.
 * @param scratchFile where the own ceiling's job (the delivered bodies) is written for its process.
 */
export async function measureDeliveries(
  serverUrl: string,
  serverPid: number,
  admin: { login: string; password: string; token: string },
  repos: string[],
  templates: Record<string, unknown>[],
  firstId: number,
  count: number,
  steadySeconds: number,
  scratchFile: string,
): Promise<DeliveryMeasurement> {
  const usable = templates.filter((t) => typeof t.type === "string" && t.type in WEBHOOK_EVENT_NAMES);
  // Arrival times by sequence number, read against the acknowledgements once a phase is over: a delivery may reach
  // the receiver before this process has read its ingest's response.
  const arrivals = new Map<number, number>();
  let waitingFor = 0;
  let enough: () => void = () => undefined;
  // What the flood delivered, for the own ceiling to send again: the bodies, and the first delivery's headers.
  const delivered: string[] = [];
  let deliveryHeaders: Record<string, string> | undefined;
  let recording = true;
  const { server, url } = await startReceiver((body, rawHeaders) => {
    const now = performance.now();
    const seq = (JSON.parse(body) as { feedgate_bench_seq?: number }).feedgate_bench_seq;
    if (seq === undefined || !recording) return; // a ping, or a ceiling's POST
    arrivals.set(seq, now);
    if (seq < count) delivered[seq] = body;
    deliveryHeaders ??= ceilingHeaders(rawHeaders);
    if (arrivals.size === waitingFor) enough();
  });
  const arrived = (total: number) =>
    new Promise<void>((resolve) => {
      waitingFor = total;
      enough = resolve;
      if (arrivals.size >= total) resolve();
    });
  const line = (i: number) => {
    const template = usable[i % usable.length]!;
    const payload = { ...(template.payload as object), feedgate_bench_seq: i };
    return {
      line: JSON.stringify({
        ...template,
        id: String(firstId + i),
        repo: { name: repos[i % repos.length] },
        payload,
        created_at: new Date().toISOString(),
      }),
      payload,
    };
  };
  const ingest = async (lines: string[]) => {
    const response = await fetch(`${serverUrl}/admin/events`, {
      method: "POST",
      headers: { authorization: `token ${admin.token}`, "content-type": "application/x-ndjson" },
      body: lines.join("\n"),
    });
    if (response.status !== 200) throw new Error(`POST /admin/events: ${response.status} ${await response.text()}`);
    await response.arrayBuffer();
    return performance.now();
  };
  const basic = `Basic ${Buffer.from(`${admin.login}:${admin.password}`).toString("base64")}`;
  const created: string[] = [];
  try {
    // A reused database (--reuse-db) keeps what earlier runs left: hooks to their receivers, gone since, with their
    // queues. Left there, every event would go to them too (refused, retried), and the figures would grow run by run.
    await removeBenchHooks(serverUrl, basic, repos);
    // The ingest alone, before any hook: the same events' shapes, posted in the same batches.
    const aloneCpuBefore = cpuSecondsOf(serverPid);
    const aloneStarted = performance.now();
    for (let batch = 0; batch * BATCH < count; batch++) {
      await ingest(
        [...range(ALONE_FIRST + batch * BATCH, ALONE_FIRST + Math.min(count, (batch + 1) * BATCH))].map(
          (i) => line(i).line,
        ),
      );
    }
    const ingestAlone = {
      rate: count / ((performance.now() - aloneStarted) / 1000),
      cpuMsPerEvent: ((cpuSecondsOf(serverPid) - aloneCpuBefore) * 1000) / count,
    };

    for (const repo of repos) {
      const made = await fetch(`${serverUrl}/repos/${repo}/hooks`, {
        method: "POST",
        headers: { authorization: basic, "content-type": "application/json" },
        body: JSON.stringify({ name: "web", config: { url, content_type: "json" }, events: ["*"] }),
      });
      if (made.status !== 201) throw new Error(`creating a hook on ${repo}: ${made.status} ${await made.text()}`);
      created.push(`${serverUrl}/repos/${repo}/hooks/${((await made.json()) as { id: number }).id}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 500)); // the pings go out first

    // The flood.
    const floodAcks = new Map<number, number>();
    await loopDelaySince(serverUrl); // resets the server's monitor: the next read covers the flood
    const cpuBefore = cpuSecondsOf(serverPid);
    const started = performance.now();
    const bodies: string[] = [];
    for (let batch = 0; batch * BATCH < count; batch++) {
      const lines: string[] = [];
      for (let i = batch * BATCH; i < Math.min(count, (batch + 1) * BATCH); i++) {
        const made = line(i);
        lines.push(made.line);
        bodies.push(JSON.stringify(made.payload));
      }
      floodAcks.set(batch, await ingest(lines));
    }
    await arrived(count);
    const seconds = (performance.now() - started) / 1000;
    const cpu = cpuSecondsOf(serverPid) - cpuBefore;
    const floodLoopDelay = await loopDelaySince(serverUrl);
    const flood = latenciesOf(arrivals, (seq) => floodAcks.get(Math.floor(seq / BATCH)), range(0, count));
    const rate = count / seconds;

    const steady = steadySeconds > 0 ? await steadyPhase() : undefined;

    recording = false;
    // The own ceiling, in its own process: the bodies the flood delivered, with feedgate's headers.
    writeFileSync(
      scratchFile,
      JSON.stringify({
        url,
        headers: deliveryHeaders ?? {},
        bodies: delivered.filter((b) => b !== undefined),
        inFlight: repos.length,
      }),
    );
    delivered.length = 0;
    const run = await runToCompletion(process.execPath, [
      "--import",
      "tsx",
      `${ROOT}bench/post-ceiling.ts`,
      scratchFile,
    ]);
    if (run.code !== 0) throw new Error(`bench/post-ceiling.ts exited with ${run.code}: ${run.stderr.slice(-2000)}`);
    const own = JSON.parse(run.stdout) as {
      posts: number;
      seconds: number;
      cpuMs: number;
      bytes: number;
      errors: number;
    };

    // The old ceiling, for history: the same number of POSTs of the payloads alone (smaller than the bodies feedgate
    // delivers), from this process, a new connection each, `repos.length` in flight.
    const ceilingCpu = process.cpuUsage();
    const ceilingStarted = performance.now();
    let next = 0;
    await Promise.all(
      repos.map(async () => {
        while (next < bodies.length) await post(url, bodies[next++]!);
      }),
    );
    const ceilingSeconds = (performance.now() - ceilingStarted) / 1000;
    const used = process.cpuUsage(ceilingCpu);
    return {
      hooks: repos.length,
      deliveries: count,
      seconds,
      rate,
      p50Ms: percentile(flood.latencies, 0.5),
      p99Ms: percentile(flood.latencies, 0.99),
      cpuMsPerDelivery: (cpu * 1000) / count,
      ceilingRate: bodies.length / ceilingSeconds,
      ceilingCpuMsPerPost: (used.user + used.system) / 1000 / bodies.length,
      ...(steady ? { steady } : {}),
      ingestAlone,
      floodLoopDelay,
      ownCeiling: {
        posts: own.posts,
        rate: own.posts / own.seconds,
        cpuMsPerPost: own.cpuMs / own.posts,
        bytesPerPost: own.bytes / own.posts,
        errors: own.errors,
      },
    };

    /** Below capacity: batches on a fixed schedule, each posted without waiting for the one before. */
    async function steadyPhase(): Promise<SteadyDeliveries> {
      const perBatch = Math.max(
        1,
        Math.round(Math.min(STEADY_MAX_PER_SECOND, STEADY_SHARE * rate) / STEADY_BATCHES_PER_SECOND),
      );
      const batches = Math.max(1, Math.round(steadySeconds * STEADY_BATCHES_PER_SECOND));
      const first = count;
      const posted = batches * perBatch;
      const acks = new Map<number, number>();
      const sent: Promise<void>[] = [];
      const cpuBefore = cpuSecondsOf(serverPid);
      const started = performance.now();
      for (let batch = 0; batch < batches; batch++) {
        const wait = started + (batch * 1000) / STEADY_BATCHES_PER_SECOND - performance.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        const lines = [...range(first + batch * perBatch, first + (batch + 1) * perBatch)].map((i) => line(i).line);
        sent.push(
          ingest(lines).then((at) => {
            acks.set(batch, at);
          }),
        );
      }
      await Promise.all(sent);
      const postedFor = (performance.now() - started) / 1000;
      await Promise.race([arrived(first + posted), new Promise((resolve) => setTimeout(resolve, ARRIVAL_LIMIT_MS))]);
      const cpu = cpuSecondsOf(serverPid) - cpuBefore;
      const { latencies, beforeAck } = latenciesOf(
        arrivals,
        (seq) => acks.get(Math.floor((seq - first) / perBatch)),
        range(first, first + posted),
      );
      return {
        rate: perBatch * STEADY_BATCHES_PER_SECOND,
        seconds: postedFor,
        posted,
        delivered: latencies.length,
        p50Ms: percentile(latencies, 0.5),
        p99Ms: percentile(latencies, 0.99),
        maxMs: latencies.at(-1) ?? Number.NaN,
        cpuMsPerDelivery: (cpu * 1000) / Math.max(1, latencies.length),
        beforeAck,
      };
    }
  } finally {
    server.closeAllConnections();
    server.close();
    // This run's hooks and what they still had queued go with it (deleting a hook deletes its queue and record).
    for (const hook of created)
      await fetch(hook, { method: "DELETE", headers: { authorization: basic } }).catch(() => undefined);
  }
}

/** Deletes the repositories' hooks that point at a benchmark receiver (an earlier run's, on a reused database). */
async function removeBenchHooks(serverUrl: string, authorization: string, repos: string[]): Promise<void> {
  for (const repo of repos) {
    const listed = await fetch(`${serverUrl}/repos/${repo}/hooks?per_page=100`, { headers: { authorization } });
    if (listed.status !== 200) throw new Error(`listing the hooks of ${repo}: ${listed.status} ${await listed.text()}`);
    for (const hook of (await listed.json()) as { id: number; config: { url?: string } }[]) {
      if (!/^http:\/\/127\.0\.0\.1:\d+\/hook$/.test(hook.config.url ?? "")) continue;
      const deleted = await fetch(`${serverUrl}/repos/${repo}/hooks/${hook.id}`, {
        method: "DELETE",
        headers: { authorization },
      });
      if (deleted.status !== 204) throw new Error(`deleting hook ${hook.id} of ${repo}: ${deleted.status}`);
    }
  }
}
