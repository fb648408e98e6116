/**
 * The test double's rows (`feedgate/testing`): start to the first 200, reset() and restore() with a 1,000-event world,
 * and the CPU of a request through fg.fetch (in process) against the same request through fg.url (a socket), both
 * measured in this one process, which runs client and server alike. Goals (issue 47): start <= 5 ms, reset <= 0.2 ms;
 * fg.fetch cheaper than the socket (issue 24). The starts load a world of ten users with passwords, as a suite's
 * world does (issue 42 found each hashed at production cost on every start; the double hashes each once per
 * process). PostgreSQL's snapshot and restore (the HTTP controls on a shared database) are measured on the store when
 * a server is reachable; then a bot's round trip (bot-round-trip.ts). `npm run bench:test-double` runs these rows
 * alone.
 */
import { performance } from "node:perf_hooks";
import { startFeedgate, type Feedgate } from "../src/testing/index.js";
import { PostgresStore } from "../src/server/store/postgres/postgres-store.js";
import { IngestService } from "../src/server/services/ingest.js";
import { percentile } from "./percentile.js";
import { botRoundTrip, type RoundTrip } from "./bot-round-trip.js";

const STARTS = 100;
const RESETS = 30;
/** Writes made before each measured reset (issue 47: 100 writes to a 1,000-event world). */
const WRITES_BEFORE_RESET = 100;
const REQUESTS = 2000;
const WORLD_EVENTS = 1000;
/** What each measured start loads: users with passwords (each hashed at the start), an organization and a repository. */
const START_WORLD = {
  users: Array.from({ length: 10 }, (_, i) => ({ login: i === 0 ? "octocat" : `user${i}`, password: `password-${i}` })),
  orgs: [{ login: "acme", owners: ["octocat"], members: ["user1"] }],
  repos: [{ full_name: "octocat/hello" }],
};

export interface TestDoubleMeasurement {
  firstStartMs: number;
  startP50Ms: number;
  startP99Ms: number;
  /** CPU of this process per start (client and server alike). */
  startCpuMs: number;
  /** How many of the running clock's starts took a store parked in the same second. */
  startsParked: number;
  /** Starts each of a world no double parked: each builds its database and seeds its world. */
  freshStartP50Ms: number;
  freshStartP99Ms: number;
  freshStartCpuMs: number;
  /** Starts with `now` given: each takes the store the closed one parked (src/testing/parked-stores.ts). */
  parkedStartP50Ms: number;
  parkedStartP99Ms: number;
  parkedStartCpuMs: number;
  /** The first reset of a double, which copies everything back. */
  firstResetMs: number;
  resetP50Ms: number;
  resetP99Ms: number;
  restoreP50Ms: number;
  restoreP99Ms: number;
  fetchCpuUs: number;
  socketCpuUs: number;
  postgres: { snapshotMs: number; restoreMs: number } | { skipped: string };
  /** A bot's round trip: issue opened -> app webhook -> installation token -> comment stored (bot-round-trip.ts). */
  botInProcess: RoundTrip;
  botSockets: RoundTrip;
}

interface Summary {
  p50: number;
  p99: number;
}

/** p50 and p99 of some timings. */
const summary = (values: number[]): Summary => {
  const sorted = [...values].sort((a, b) => a - b);
  return { p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99) };
};

function world(events: number) {
  return {
    users: [{ login: "octocat" }, { login: "hubot" }],
    repos: [{ full_name: "octocat/hello" }],
    events: Array.from({ length: events }, (_, i) => ({
      id: String(i + 1),
      type: "PushEvent",
      actor: { login: i % 2 ? "octocat" : "hubot" },
      repo: { name: "octocat/hello" },
      payload: { size: 1, commits: [{ sha: `${i}`.padStart(40, "0"), message: `commit ${i}` }] },
      created_at: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString().replace(/\.000Z$/, "Z"),
    })),
  };
}

/** What a test does between resets: WRITES_BEFORE_RESET writes, issues opened and commented on, and an ingest. */
async function writesSinceStart(fg: Feedgate, token: string): Promise<void> {
  const post = (path: string, body: object) =>
    fg.fetch(`${fg.url}/repos/octocat/hello${path}`, {
      method: "POST",
      headers: { authorization: `token ${token}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  for (let i = 0; i < WRITES_BEFORE_RESET / 2 - 1; i++) {
    const opened = await post("/issues", { title: `issue ${i}` });
    if (opened.status !== 201) throw new Error(`opening an issue answered ${opened.status}`);
    const { number } = (await opened.json()) as { number: number };
    if ((await post(`/issues/${number}/comments`, { body: "a comment" })).status !== 201)
      throw new Error("a comment was refused");
  }
  await fg.ingest([
    {
      id: "2000000",
      type: "WatchEvent",
      actor: { login: "hubot" },
      repo: { name: "octocat/hello" },
      payload: { action: "started" },
      created_at: "2026-02-01T00:00:00Z",
    },
  ]);
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

/** CPU of this process per request, in microseconds: the client's share and the server's together. */
async function cpuPerRequest(send: () => Promise<Response>): Promise<number> {
  for (let i = 0; i < 200; i++) await (await send()).arrayBuffer(); // warm-up
  const before = process.cpuUsage();
  for (let i = 0; i < REQUESTS; i++) await (await send()).arrayBuffer();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / REQUESTS;
}

async function postgresImages(): Promise<TestDoubleMeasurement["postgres"]> {
  const url = process.env.FEEDGATE_BENCH_POSTGRES ?? "postgres://postgres@127.0.0.1:5432/feedgate_bench_double";
  const admin = new URL(url);
  const name = admin.pathname.slice(1);
  admin.pathname = "/postgres";
  const pg = (await import("pg")).default;
  const client = new pg.Client({ connectionString: admin.toString(), connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
  } catch (error) {
    return { skipped: `no PostgreSQL at ${admin.host} (${(error as Error).message})` };
  }
  try {
    await client.query(`DROP DATABASE IF EXISTS ${name}`);
    await client.query(`CREATE DATABASE ${name}`);
    const store = await PostgresStore.open(url);
    try {
      await new IngestService(store, () => new Date()).seedWorld(world(WORLD_EVENTS), { baseDir: undefined });
      const snapshots: number[] = [];
      const restores: number[] = [];
      for (let i = 0; i < 10; i++) {
        snapshots.push(await timed(() => store.state.capture("bench")));
        restores.push(await timed(() => store.state.replace("bench")));
      }
      return { snapshotMs: summary(snapshots).p50, restoreMs: summary(restores).p50 };
    } finally {
      await store.close();
    }
  } finally {
    await client.query(`DROP DATABASE IF EXISTS ${name}`).catch(() => undefined);
    await client.end();
  }
}

interface Starts {
  first: number;
  warm: number[];
  cpuMs: number;
  /** How many of the warm starts took the store the double before them parked. */
  parked: number;
}

/**
 * Start to the first 200, STARTS times after a first. A start takes the store the double before it parked when it
 * would build the same database: with `now` given always, on a running clock within the same second. `fresh` gives
 * each start a world of its own, so that every start builds its database.
 */
async function measureStarts(options: { now?: string; fresh?: boolean } = {}): Promise<Starts> {
  const starts: number[] = [];
  let cpu = process.cpuUsage();
  let parked = 0;
  let closedStore: unknown;
  for (let i = 0; i <= STARTS; i++) {
    if (i === 1) cpu = process.cpuUsage(); // the process's first start apart
    const world = options.fresh
      ? { ...START_WORLD, users: [...START_WORLD.users, { login: `fresh${i}` }] }
      : START_WORLD;
    const started = performance.now();
    const fg = await startFeedgate({ world, ...(options.now === undefined ? {} : { now: options.now }) });
    const response = await fetch(`${fg.url}/repos/octocat/hello`);
    if (response.status !== 200) throw new Error(`GET /repos/octocat/hello answered ${response.status}`);
    await response.arrayBuffer();
    starts.push(performance.now() - started);
    if (i > 0 && fg.store === closedStore) parked++;
    closedStore = fg.store;
    await fg.close();
  }
  const used = process.cpuUsage(cpu);
  const [first, ...warm] = starts;
  return { first: first!, warm, cpuMs: (used.user + used.system) / 1000 / STARTS, parked };
}

export async function measureTestDouble(): Promise<TestDoubleMeasurement> {
  const running = await measureStarts();
  const atNow = await measureStarts({ now: "2026-02-01T00:00:00Z" });
  const fresh = await measureStarts({ fresh: true });

  const fg = await startFeedgate({ world: world(WORLD_EVENTS), now: "2026-02-01T00:00:00Z" });
  try {
    const resets: number[] = [];
    // The double's first reset copies every table back and installs the triggers that make the next ones cheap.
    await writesSinceStart(fg, await fg.token("octocat"));
    const firstResetMs = await timed(() => fg.reset());
    for (let i = 0; i < RESETS; i++) {
      await writesSinceStart(fg, await fg.token("octocat"));
      resets.push(await timed(() => fg.reset()));
    }
    const snapshot = await fg.snapshot();
    const restores: number[] = [];
    for (let i = 0; i < RESETS; i++) {
      await fg.token("hubot");
      restores.push(await timed(() => fg.restore(snapshot)));
    }
    const path = "/repos/octocat/hello/events";
    const fetchCpuUs = await cpuPerRequest(() => fg.fetch(`${fg.url}${path}`));
    const socketCpuUs = await cpuPerRequest(() => fetch(`${fg.url}${path}`));
    const [start, parked, built, reset, restore] = [running.warm, atNow.warm, fresh.warm, resets, restores].map(
      summary,
    ) as [Summary, Summary, Summary, Summary, Summary];
    return {
      firstStartMs: running.first,
      startP50Ms: start.p50,
      startP99Ms: start.p99,
      startCpuMs: running.cpuMs,
      startsParked: running.parked,
      freshStartP50Ms: built.p50,
      freshStartP99Ms: built.p99,
      freshStartCpuMs: fresh.cpuMs,
      parkedStartP50Ms: parked.p50,
      parkedStartP99Ms: parked.p99,
      parkedStartCpuMs: atNow.cpuMs,
      firstResetMs,
      resetP50Ms: reset.p50,
      resetP99Ms: reset.p99,
      restoreP50Ms: restore.p50,
      restoreP99Ms: restore.p99,
      fetchCpuUs,
      socketCpuUs,
      postgres: await postgresImages(),
      botInProcess: await botRoundTrip("in process"),
      botSockets: await botRoundTrip("sockets"),
    };
  } finally {
    await fg.close();
  }
}

const held = (ok: boolean) => (ok ? "held" : "missed");

export function renderTestDouble(m: TestDoubleMeasurement): string {
  const pg =
    "skipped" in m.postgres
      ? `skipped: ${m.postgres.skipped}`
      : `snapshot ${m.postgres.snapshotMs.toFixed(1)} ms, restore ${m.postgres.restoreMs.toFixed(1)} ms (p50, ${WORLD_EVENTS}-event world)`;
  return [
    "## The test double (feedgate/testing)",
    "",
    "| row | p50 | p99 | goal |",
    "|---|---:|---:|---|",
    `| start to the first 200 of \`GET /repos/octocat/hello\`, a world of ${START_WORLD.users.length} users with passwords, the clock running (${STARTS} starts after the process's first, which took ${m.firstStartMs.toFixed(0)} ms; ${m.startCpuMs.toFixed(1)} ms of CPU each; ${m.startsParked} took the store parked in their second) | ${m.startP50Ms.toFixed(1)} ms | ${m.startP99Ms.toFixed(1)} ms | <= 5 ms: ${held(m.startP50Ms <= 5)} |`,
    `| the same with \`now\` given: each start takes the store the last one closed parked (${m.parkedStartCpuMs.toFixed(1)} ms of CPU each) | ${m.parkedStartP50Ms.toFixed(1)} ms | ${m.parkedStartP99Ms.toFixed(1)} ms | <= 5 ms: ${held(m.parkedStartP50Ms <= 5)} |`,
    `| a start that builds its own database: a world of its own each time, clock running (${m.freshStartCpuMs.toFixed(1)} ms of CPU each) | ${m.freshStartP50Ms.toFixed(1)} ms | ${m.freshStartP99Ms.toFixed(1)} ms | |`,
    `| reset(), ${WORLD_EVENTS}-event world, after ${WRITES_BEFORE_RESET} writes (issues, comments, an ingest); the first reset, ${m.firstResetMs.toFixed(2)} ms, apart | ${m.resetP50Ms.toFixed(2)} ms | ${m.resetP99Ms.toFixed(2)} ms | <= 0.2 ms: ${held(m.resetP50Ms <= 0.2)} |`,
    `| restore(), ${WORLD_EVENTS}-event world | ${m.restoreP50Ms.toFixed(2)} ms | ${m.restoreP99Ms.toFixed(2)} ms | |`,
    `| a bot's round trip (issue opened -> app webhook -> installation token -> comment stored), in process (fg.fetch) | ${m.botInProcess.p50Ms.toFixed(1)} ms | ${m.botInProcess.p99Ms.toFixed(1)} ms | |`,
    `| the same over sockets (fg.url) | ${m.botSockets.p50Ms.toFixed(1)} ms | ${m.botSockets.p99Ms.toFixed(1)} ms | |`,
    "",
    `CPU per \`GET /repos/:owner/:repo/events\` (client and server in one process, ${REQUESTS} requests): fg.fetch ` +
      `${m.fetchCpuUs.toFixed(0)} µs, fg.url ${m.socketCpuUs.toFixed(0)} µs (ratio ${(m.fetchCpuUs / m.socketCpuUs).toFixed(2)}; ` +
      `goal fg.fetch cheaper: ${held(m.fetchCpuUs < m.socketCpuUs)}).`,
    "",
    `PostgreSQL images (the HTTP controls' reset and snapshot on a shared database): ${pg}.`,
    "",
  ].join("\n");
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.stdout.write(renderTestDouble(await measureTestDouble()));
}
