/**
 * `npm run bench -- --soak 10m`: a `feedgate serve` of its own (the real CLI, SQLite) under everything at once for the
 * given time: pollers (anonymous and by token, with If-None-Match as pollers send it), ingests through
 * `POST /admin/events`, webhook deliveries to a receiver in this process, and live streams (some closed and opened
 * again at every sample). Every sample reads, from the outside, the server's RSS and open file descriptors (/proc),
 * its event-loop delay since the sample before (prom-client's, at /metrics) and the database's size on disk (the file,
 * its WAL and shared memory); at the end each gets its least-squares slope per hour, over the samples after the
 * first fifth (the warm-up: caches filling, the JIT settling). A leak shows as a slope that a longer soak confirms:
 * memory and handles should stay flat while the database grows with what was ingested.
 */
import { createServer, request, type ClientRequest, type Server } from "node:http";
import { readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { CLI, feedgate, memoryOf, ROOT, startListening, type Listening } from "./processes.js";
import { ADMIN_CREDENTIALS, readTemplates, writeAdminWorld } from "./live.js";
import { busiestRepos } from "./webhooks.js";
import { describeMachine, type Machine } from "./machine.js";
import { serverMetrics } from "./server-metrics.js";

/** The load, steady rather than flat out: a soak looks for what grows with time, not for the ceiling. */
export interface SoakLoad {
  pollers: number;
  /** Between a poller's answer and its next request. */
  pollPauseMs: number;
  eventsPerSecond: number;
  hooks: number;
  /** Of the events ingested, one in this many goes to a hooked repository. */
  hookedEvery: number;
  streams: number;
  /** Streams closed and opened again at each sample. */
  streamChurn: number;
}

export const SOAK_LOAD: SoakLoad = {
  pollers: 6,
  pollPauseMs: 20,
  eventsPerSecond: 100,
  hooks: 4,
  hookedEvery: 5,
  streams: 20,
  streamChurn: 4,
};

export interface SoakSample {
  /** Seconds since the load started. */
  at: number;
  rssMb: number;
  /** The V8 heap in use, and the memory held outside it (Buffers: the page cache's bodies). */
  heapMb: number;
  externalMb: number;
  openFds: number;
  /** libuv handles open in the server (sockets, timers, servers), as Node counts them. */
  activeHandles: number;
  /** Event-loop delay since the sample before, from prom-client's monitor (ms, how late its turns came: server-metrics.ts). */
  loopP99Ms: number;
  loopMaxMs: number;
  dbMb: number;
  /** Over the interval since the sample before. */
  pollsPerSecond: number;
  pollErrors: number;
  eventsIngested: number;
  deliveries: number;
  streamFrames: number;
}

/** The slope of y over x by least squares; NaN for fewer than two points. */
export function leastSquaresSlope(points: { x: number; y: number }[]): number {
  const n = points.length;
  if (n < 2) return Number.NaN;
  const meanX = points.reduce((s, p) => s + p.x, 0) / n;
  const meanY = points.reduce((s, p) => s + p.y, 0) / n;
  let num = 0;
  let den = 0;
  for (const p of points) {
    num += (p.x - meanX) * (p.y - meanY);
    den += (p.x - meanX) ** 2;
  }
  return den === 0 ? Number.NaN : num / den;
}

/** A sample every 30 s on a long soak; on a short one, often enough for about twenty (at least every 5 s). */
export function sampleEvery(soakSeconds: number): number {
  return Math.min(30, Math.max(5, Math.round(soakSeconds / 20)));
}

function openFds(pid: number): number {
  try {
    return readdirSync(`/proc/${pid}/fd`).length;
  } catch {
    return Number.NaN;
  }
}

function dbBytes(db: string): number {
  return ["", "-wal", "-shm"].reduce((sum, suffix) => {
    try {
      return sum + statSync(`${db}${suffix}`).size;
    } catch {
      return sum;
    }
  }, 0);
}

/** Counts since the last sample, and in all. */
class Tally {
  polls = 0;
  pollErrors = 0;
  events = 0;
  ingestErrors = 0;
  deliveries = 0;
  frames = 0;
  private last = { polls: 0, pollErrors: 0, events: 0, deliveries: 0, frames: 0 };

  interval(): { polls: number; pollErrors: number; events: number; deliveries: number; frames: number } {
    const now = {
      polls: this.polls,
      pollErrors: this.pollErrors,
      events: this.events,
      deliveries: this.deliveries,
      frames: this.frames,
    };
    const since = {
      polls: now.polls - this.last.polls,
      pollErrors: now.pollErrors - this.last.pollErrors,
      events: now.events - this.last.events,
      deliveries: now.deliveries - this.last.deliveries,
      frames: now.frames - this.last.frames,
    };
    this.last = now;
    return since;
  }
}

async function startReceiver(tally: Tally): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      if (req.headers["x-github-event"] !== "ping") tally.deliveries++;
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}/hook` };
}

/** A stream on GET /events that counts the events it receives. */
function openStream(url: string, tally: Tally): ClientRequest {
  const req = request(`${url}/events`, { headers: { accept: "text/event-stream" }, agent: false });
  req.on("response", (response) => {
    response.setEncoding("utf8");
    response.on("data", (text: string) => {
      for (let at = text.indexOf("\nid: "); at !== -1; at = text.indexOf("\nid: ", at + 1)) tally.frames++;
      if (text.startsWith("id: ")) tally.frames++;
    });
    response.on("error", () => undefined);
  });
  req.on("error", () => undefined);
  req.end();
  return req;
}

export interface SoakResult {
  /** As the soak began: the commit measured, the load on the machine. */
  machine: Machine;
  seconds: number;
  every: number;
  load: SoakLoad;
  samples: SoakSample[];
  totals: {
    polls: number;
    pollErrors: number;
    events: number;
    ingestErrors: number;
    deliveries: number;
    frames: number;
  };
}

/**
 * Runs the soak against a server started here on a fresh SQLite file in `dataDir`, seeded with the demo's GH Archive
 * hour (its events are also the templates of what is ingested).
 */
export async function runSoak(
  seconds: number,
  dataDir: string,
  say: (message: string) => void,
  load = SOAK_LOAD,
): Promise<SoakResult> {
  const machine = describeMachine();
  const every = sampleEvery(seconds);
  const db = `${dataDir}/soak.db`;
  for (const suffix of ["", "-wal", "-shm"]) rmSync(`${db}${suffix}`, { force: true });
  const sample = `${ROOT}demo/2021-07-21-sample.ndjson.gz`;
  say("soak: feedgate import (the demo hour) and seed (a site administrator)");
  await feedgate(["import", "--db", db, sample]);
  const adminToken = writeAdminWorld(`${dataDir}/admin-world.json`, 1);
  await feedgate(["seed", `${dataDir}/admin-world.json`, "--db", db]);
  const templates = await readTemplates(sample, 20_000);
  const hooked = busiestRepos(templates, load.hooks);

  const tally = new Tally();
  const receiver = await startReceiver(tally);
  let server: Listening | undefined;
  const streams: ClientRequest[] = [];
  let running = true;
  const samples: SoakSample[] = [];
  try {
    server = await startListening(
      [
        CLI,
        "serve",
        "--db",
        db,
        "--host",
        "127.0.0.1",
        "--port",
        "0",
        "--log-level",
        "warn",
        "--rate-limit-authenticated",
        "1000000000",
        "--rate-limit-anonymous",
        "1000000000",
        "--max-streams-per-user",
        String(load.streams * 2),
      ],
      `${dataDir}/soak-server.log`,
    );
    const url = server.url;
    const basic = `Basic ${Buffer.from(`${ADMIN_CREDENTIALS.login}:${ADMIN_CREDENTIALS.password}`).toString("base64")}`;
    for (const repo of hooked) {
      const created = await fetch(`${url}/repos/${repo}/hooks`, {
        method: "POST",
        headers: { authorization: basic, "content-type": "application/json" },
        body: JSON.stringify({ name: "web", config: { url: receiver.url, content_type: "json" }, events: ["*"] }),
      });
      if (created.status !== 201)
        throw new Error(`creating a hook on ${repo}: ${created.status} ${await created.text()}`);
    }
    for (let i = 0; i < load.streams; i++) streams.push(openStream(url, tally));

    const polls = [
      { path: "/events", headers: {} as Record<string, string> },
      { path: `/repos/${hooked[0]}/events`, headers: {} },
      { path: "/events", headers: { authorization: `token ${adminToken}` } },
      { path: `/repos/${hooked[1] ?? hooked[0]}/events?page=2`, headers: { authorization: `token ${adminToken}` } },
    ];
    const poller = async (index: number) => {
      const etags = new Map<string, string>();
      for (let i = index; running; i++) {
        const poll = polls[i % polls.length]!;
        const key = `${poll.path} ${poll.headers.authorization ?? ""}`;
        const etag = etags.get(key);
        try {
          const res = await fetch(`${url}${poll.path}`, {
            headers: { ...poll.headers, ...(etag ? { "if-none-match": etag } : {}) },
          });
          await res.arrayBuffer();
          if (res.status === 200) etags.set(key, res.headers.get("etag") ?? "");
          else if (res.status !== 304) tally.pollErrors++;
          tally.polls++;
        } catch {
          tally.pollErrors++;
        }
        await sleep(load.pollPauseMs);
      }
    };
    let nextId = 1e13 + (Date.now() - Date.UTC(2026, 0, 1)) * 1000;
    let nextTemplate = 0;
    const feeder = async () => {
      const perBatch = Math.max(1, Math.round(load.eventsPerSecond / 10));
      for (let due = performance.now(); running; due += (perBatch * 1000) / load.eventsPerSecond) {
        const wait = due - performance.now();
        if (wait > 0) await sleep(wait);
        const lines: string[] = [];
        for (let i = 0; i < perBatch; i++) {
          const template = templates[nextTemplate++ % templates.length]!;
          const repo =
            nextTemplate % load.hookedEvery === 0 ? { name: hooked[nextTemplate % hooked.length] } : template.repo;
          lines.push(JSON.stringify({ ...template, id: String(nextId++), repo, created_at: new Date().toISOString() }));
        }
        try {
          const res = await fetch(`${url}/admin/events`, {
            method: "POST",
            body: lines.join("\n"),
            headers: { authorization: `token ${adminToken}`, "content-type": "application/x-ndjson" },
          });
          const text = await res.text();
          if (res.status === 200) tally.events += (JSON.parse(text) as { events_added?: number }).events_added ?? 0;
          else tally.ingestErrors++;
        } catch {
          tally.ingestErrors++;
        }
      }
    };

    say(
      `soak: ${seconds} s of ${load.pollers} pollers, ${load.eventsPerSecond} events/s, ${hooked.length} hooks, ${load.streams} streams; ` +
        `a sample every ${every} s`,
    );
    const started = performance.now();
    await serverMetrics(url); // resets the monitor: the first sample covers its own interval only
    tally.interval();
    const work = [...Array.from({ length: load.pollers }, (_, i) => poller(i)), feeder()];
    for (let n = 1; n * every <= seconds; n++) {
      await sleep(started + n * every * 1000 - performance.now());
      const since = tally.interval();
      const memory = memoryOf(server.pid);
      const loop = await serverMetrics(url);
      const row: SoakSample = {
        at: Math.round((performance.now() - started) / 1000),
        rssMb: (memory?.current ?? Number.NaN) / 2 ** 20,
        heapMb: loop.heap / 2 ** 20,
        externalMb: loop.external / 2 ** 20,
        activeHandles: loop.handles,
        openFds: openFds(server.pid),
        loopP99Ms: loop.loopDelay.p99,
        loopMaxMs: loop.loopDelay.max,
        dbMb: dbBytes(db) / 2 ** 20,
        pollsPerSecond: since.polls / every,
        pollErrors: since.pollErrors,
        eventsIngested: since.events,
        deliveries: since.deliveries,
        streamFrames: since.frames,
      };
      samples.push(row);
      say(
        `  ${row.at} s: RSS ${row.rssMb.toFixed(1)} MB (heap ${row.heapMb.toFixed(1)}), ${row.openFds} fds, loop p99 ${row.loopP99Ms.toFixed(1)} ms, ` +
          `db ${row.dbMb.toFixed(1)} MB, ${row.pollsPerSecond.toFixed(0)} polls/s, ${row.deliveries} deliveries, ${row.streamFrames} frames`,
      );
      // Churn: streams end and others begin, as clients come and go; a handle left behind would show in the fds.
      for (const old of streams.splice(0, load.streamChurn)) old.destroy();
      for (let i = 0; i < load.streamChurn; i++) streams.push(openStream(url, tally));
    }
    running = false;
    await Promise.all(work);
    return {
      machine,
      seconds,
      every,
      load,
      samples,
      totals: {
        polls: tally.polls,
        pollErrors: tally.pollErrors,
        events: tally.events,
        ingestErrors: tally.ingestErrors,
        deliveries: tally.deliveries,
        frames: tally.frames,
      },
    };
  } finally {
    running = false;
    for (const stream of streams) stream.destroy();
    await server?.stop();
    receiver.server.closeAllConnections();
    receiver.server.close();
  }
}

type Measured = "rssMb" | "heapMb" | "externalMb" | "openFds" | "activeHandles" | "loopP99Ms" | "dbMb";
const MEASURED: { key: Measured; label: string; unit: string }[] = [
  { key: "rssMb", label: "RSS", unit: "MB" },
  { key: "heapMb", label: "V8 heap used", unit: "MB" },
  { key: "externalMb", label: "memory outside the heap", unit: "MB" },
  { key: "openFds", label: "open file descriptors", unit: "fds" },
  { key: "activeHandles", label: "active libuv handles", unit: "handles" },
  { key: "loopP99Ms", label: "event-loop delay p99", unit: "ms" },
  { key: "dbMb", label: "database size", unit: "MB" },
];

/**
 * Slopes per hour over the samples after the first fifth (at least the last two), and over the second half alone:
 * a slope that falls between the two is growth levelling off (caches filling), one that holds is a trend.
 */
export function soakSlopes(samples: SoakSample[], from = Math.floor(samples.length / 5)): Record<Measured, number> {
  const settled = samples.slice(Math.min(from, Math.max(0, samples.length - 2)));
  const slopes = {} as Record<Measured, number>;
  for (const { key } of MEASURED) slopes[key] = leastSquaresSlope(settled.map((s) => ({ x: s.at / 3600, y: s[key] })));
  return slopes;
}

export function renderSoak(result: SoakResult): string {
  const { machine, load, samples, totals } = result;
  const slopes = soakSlopes(samples);
  const lateSlopes = soakSlopes(samples, Math.floor(samples.length / 2));
  const first = samples[0];
  const last = samples.at(-1);
  const f = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : "n/a");
  return [
    `# Soak: ${result.seconds} s of polls, ingests, deliveries and streams together (${machine.date.slice(0, 10)}, commit ${machine.commit}, ` +
      "`npm run bench -- --soak`)",
    "",
    `Machine: ${machine.cores} cores, ${machine.node}, load average ${machine.loadAtStart.toFixed(2)} at the start. ` +
      `\`feedgate serve\` on SQLite (the demo's GH Archive hour, then what is ingested); ${load.pollers} pollers (anonymous and ` +
      `by token, If-None-Match, ${load.pollPauseMs} ms between requests), ${load.eventsPerSecond} events/s through POST /admin/events, ` +
      `${load.hooks} hooks receiving one event in ${load.hookedEvery} (a local receiver answering 204), ${load.streams} streams on ` +
      `GET /events (${load.streamChurn} closed and opened again at each sample). A sample every ${result.every} s.`,
    "",
    "| at (s) | RSS (MB) | heap (MB) | external (MB) | open fds | handles | loop delay p99 (ms) | loop delay max (ms) | database (MB) | polls/s | poll errors | events ingested | deliveries | stream frames |",
    "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ...samples.map(
      (s) =>
        `| ${s.at} | ${f(s.rssMb)} | ${f(s.heapMb)} | ${f(s.externalMb)} | ${s.openFds} | ${s.activeHandles} | ${f(s.loopP99Ms)} | ${f(s.loopMaxMs)} | ${f(s.dbMb)} | ` +
        `${f(s.pollsPerSecond, 0)} | ${s.pollErrors} | ${s.eventsIngested} | ${s.deliveries} | ${s.streamFrames} |`,
    ),
    "",
    "Slopes (least squares, per hour) over the samples after the first fifth (the warm-up), and over the second half alone:",
    "",
    "| measure | first sample | last sample | slope per hour | second half's slope per hour |",
    "|---|---:|---:|---:|---:|",
    ...MEASURED.map(({ key, label, unit }) => {
      const signed = (n: number) => `${n >= 0 ? "+" : ""}${f(n)} ${unit}/h`;
      return `| ${label} | ${f(first?.[key] ?? NaN)} ${unit} | ${f(last?.[key] ?? NaN)} ${unit} | ${signed(slopes[key])} | ${signed(lateSlopes[key])} |`;
    }),
    "",
    `Totals: ${totals.polls.toLocaleString("en-US")} polls (${totals.pollErrors} errors), ${totals.events.toLocaleString("en-US")} events ` +
      `ingested (${totals.ingestErrors} failed batches), ${totals.deliveries.toLocaleString("en-US")} deliveries, ` +
      `${totals.frames.toLocaleString("en-US")} stream frames.`,
    "",
  ].join("\n");
}

/** Runs the soak, prints its report and saves it (Markdown and JSON) under `resultsDir`. */
export async function soak(
  seconds: number,
  dataDir: string,
  resultsDir: string,
  say: (message: string) => void,
): Promise<void> {
  const result = await runSoak(seconds, dataDir, say);
  const report = renderSoak(result);
  const file = `${resultsDir}/${result.machine.date.slice(0, 10)}-${result.machine.commit}-soak-${seconds}s.md`;
  writeFileSync(file, report);
  writeFileSync(
    file.replace(/\.md$/, ".json"),
    `${JSON.stringify({ ...result, slopesPerHour: soakSlopes(result.samples) }, null, 1)}\n`,
  );
  process.stdout.write(report);
  say(`saved ${file}`);
}
