/**
 * `npm run bench`: issue 6's benchmark, end to end, measured from the outside.
 * `npm run bench -- --soak 10m` runs the soak instead (./soak.ts).
 *
 *   build -> generate data (cached by size and seed) -> `feedgate import` into a fresh SQLite file (timed) ->
 *   `feedgate seed` the world -> `feedgate serve --port 0` as its own process -> each row's answer captured from
 *   it, replayed by the rows' own ceiling (bench/row-ceiling.ts) -> the old single ceiling -> each HTTP scenario
 *   (warm-up, measured run), each followed by its own ceiling's run -> the server's peak RSS -> `feedgate import`
 *   into a scratch PostgreSQL database (timed, dropped) -> report, printed and saved under bench/results/.
 *
 * The server and the importer are the real CLI from dist/, never an in-process app: the numbers are what an
 * operator gets. Nothing here asserts a target; the report says which held.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statfsSync, statSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { averageLineBytes, FIRST_EVENT_ID, generate, type Manifest } from "./generate.js";
import {
  importPostgres,
  importSqlite,
  measureImportCeiling,
  measurePostgresCeiling,
  type ImportCeiling,
  type ImportOutcome,
} from "./import-runner.js";
import { measureTestDouble, renderTestDouble } from "./test-double.js";
import { APP_ROWS, appScenarios, registerBenchApp } from "./apps.js";
import { CODE_ROWS, codeScenarios, writeCodeWorld } from "./code.js";
import { measureActions, renderActions } from "./actions.js";
import { measure, RAMP_LIMIT_SECONDS, scenarios, settle, type Measurement, type Scenario } from "./load.js";
import { ADMIN_CREDENTIALS, LiveFeeder, readTemplates, writeAdminWorld } from "./live.js";
import { busiestRepos, measureDeliveries, type DeliveryMeasurement } from "./webhooks.js";
import { checkFileLimit, measureFanOut, type FanOutMeasurement } from "./streams.js";
import { describeMachine, type Machine } from "./machine.js";
import { parseOptions, type BenchOptions } from "./options.js";
import { CLI, feedgate, memoryOf, ROOT, runToCompletion, startListening, type Listening } from "./processes.js";
import { summarizeProfile } from "./profile.js";
import {
  captureRows,
  ceilingKey,
  checkReplay,
  checkRow,
  reloadCeiling,
  writeCaptures,
  type OwnCeiling,
} from "./capture.js";
import { renderReport, savedRun, type ReportInput, type SavedRun } from "./report.js";
import { soak } from "./soak.js";
import { POSTGRES_ADMIN_URL, redact } from "./postgres.js";

const started = Date.now();
const say = (message: string) =>
  process.stderr.write(`[bench ${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${message}\n`);

/** Refuses to start what would fill the disk: the NDJSON, then the SQLite file and its WAL, then PostgreSQL's copy. */
function checkDisk(options: BenchOptions, needData: boolean, needDb: boolean): void {
  const ndjson = options.events * (averageLineBytes() + 150);
  // The SQLite file is about 1.2x the NDJSON, plus its WAL while importing; PostgreSQL's is about 0.6x (TOAST
  // compresses the bodies) and only part of the file gets in within --postgres-seconds.
  const needed =
    (needData ? ndjson * (options.gzip ? 0.15 : 1) : 0) +
    (needDb ? 1.4 * ndjson : 0) +
    (options.postgres ? 0.6 * ndjson : 0);
  const { bavail, bsize } = statfsSync(options.dataDir);
  const free = bavail * bsize;
  if (needed > free) {
    throw new Error(
      `about ${(needed / 1e9).toFixed(0)} GB of disk needed in ${options.dataDir}, ${(free / 1e9).toFixed(0)} GB free ` +
        "(use --data-dir, --skip-postgres or fewer --events)",
    );
  }
}

/** The newest saved run of that many events with live rows: the cost-growth comparison's baseline. */
function latestRun(resultsDir: string, events: number): SavedRun | undefined {
  const runs = readdirSync(resultsDir)
    .filter((f) => f.endsWith(".json"))
    .map((f) => ({
      f,
      run: JSON.parse(readFileSync(`${resultsDir}/${f}`, "utf8")) as SavedRun,
      at: statSync(`${resultsDir}/${f}`).mtimeMs,
    }))
    .filter(({ run }) => run.events === events && run.measurements.some((m) => m.key.startsWith("live-")))
    .sort((a, b) => b.at - a.at);
  return runs[0]?.run;
}

/** Data files are cached by size, seed and format: the same flags reuse them. */
const dataBase = (options: BenchOptions) =>
  `${options.dataDir}/events-${options.events}-seed${options.seed}${options.gzip ? "-gz" : ""}`;

async function dataFiles(
  options: BenchOptions,
): Promise<{ events: string; world: string; manifest: Manifest; generatedNow: boolean }> {
  const base = dataBase(options);
  const files = {
    events: `${base}.ndjson${options.gzip ? ".gz" : ""}`,
    world: `${base}.world.json`,
    manifestFile: `${base}.manifest.json`,
  };
  if (!options.regenerate && existsSync(files.events) && existsSync(files.manifestFile)) {
    say(`reusing ${files.events}`);
    return {
      ...files,
      manifest: JSON.parse(readFileSync(files.manifestFile, "utf8")) as Manifest,
      generatedNow: false,
    };
  }
  say(`generating ${options.events.toLocaleString("en-US")} events`);
  const manifest = await generate({
    events: options.events,
    seed: options.seed,
    out: files.events,
    world: files.world,
    gzip: options.gzip,
  });
  writeFileSync(files.manifestFile, `${JSON.stringify(manifest, null, 2)}\n`);
  say(`generated ${(manifest.bytes / 1e9).toFixed(2)} GB in ${manifest.seconds.toFixed(1)} s`);
  return { ...files, manifest, generatedNow: true };
}

/** A feed's size from its Link header (last page x per_page), or from the body when it has a single page. */
function feedSize(response: Response, body: string): number | null {
  const last = /<[^>]*[?&]page=(\d+)[^>]*>;\s*rel="last"/.exec(response.headers.get("link") ?? "");
  if (last) return Number(last[1]) * 30;
  try {
    const parsed = JSON.parse(body) as unknown;
    return Array.isArray(parsed) ? parsed.length : null;
  } catch {
    return null;
  }
}

/** A scenario's expiring credentials made again (bench/apps.ts), for the request that follows. */
async function refreshed(scenario: Scenario): Promise<void> {
  if (scenario.refresh) scenario.headers = { ...scenario.headers, ...(await scenario.refresh()) };
}

/** One request first: a scenario answering the wrong status would measure an error page's speed. */
async function probe(url: string, scenario: Scenario): Promise<{ feedEvents: number | null }> {
  await refreshed(scenario);
  if (scenario.expect === 304) {
    const first = await fetch(url + scenario.path, { headers: scenario.headers });
    await first.arrayBuffer();
    const etag = first.headers.get("etag");
    if (!etag) throw new Error(`${scenario.path} sent no ETag`);
    scenario.headers = { ...scenario.headers, "If-None-Match": etag };
  }
  const response = await fetch(url + scenario.path, {
    method: scenario.method,
    headers: scenario.headers,
    ...(scenario.body === undefined ? {} : { body: scenario.body }),
  });
  const body = await response.text();
  if (response.status !== scenario.expect) {
    throw new Error(
      `${scenario.method} ${scenario.path} answered ${response.status}, expected ${scenario.expect}: ${body.slice(0, 300)}`,
    );
  }
  return {
    feedEvents:
      scenario.target === "feedgate" && scenario.method === "GET" && scenario.expect === 200
        ? feedSize(response, body)
        : null,
  };
}

/** A row's own ceiling's run, and the last check that it sent what feedgate sent during the load. */
async function measureOwnCeiling(
  own: OwnCeiling,
  ceiling: Listening,
  row: Measurement,
  options: BenchOptions,
): Promise<void> {
  say(`${own.scenario.label}: ${options.warmupSeconds} s warm-up + ${options.durationSeconds} s`);
  const c = await measure(ceiling.url, own.scenario, options, ceiling.pid, null);
  own.measurement = c;
  say(`  ${Math.round(c.rps)} requests/s, ${c.cpuMsPerRequest.toFixed(3)} CPU ms/request, ${c.errors} errors`);
  if (c.errors > 0)
    own.problem = `${c.errors} of its responses had another status than ${own.scenario.expect} (or socket errors)`;
  // The same bytes per response on both sides, or not the same answer (an idle row only: a live row's page grows
  // under ingest). 1% leaves room for counters gaining digits during the row.
  const drift = Math.abs(c.bytesPerResponse - row.bytesPerResponse) / row.bytesPerResponse;
  if (!row.scenario.live && row.requests > 0 && c.requests > 0 && drift > 0.01) {
    own.problem = `it sent ${c.bytesPerResponse.toFixed(0)} bytes per response during the load, feedgate ${row.bytesPerResponse.toFixed(0)}`;
  }
}

/** `feedgate serve` on `db` as every row runs it. */
function serveArgs(db: string, options: BenchOptions): string[] {
  return [
    CLI,
    "serve",
    "--db",
    db,
    "--host",
    "127.0.0.1",
    "--port",
    "0",
    "--log-level",
    options.logLevel,
    // Rate limiting stays on (its cost is part of every request) but can never trip.
    "--rate-limit-authenticated",
    "1000000000",
    "--rate-limit-anonymous",
    "1000000000",
    // The fan-out measurement opens its streams (1,000 by default) from one address.
    "--max-streams-per-user",
    String(Math.max(2000, 2 * Math.max(...options.streams))),
  ];
}

/** The scenarios of this run's data, as --only picks them. */
function benchScenarios(manifest: Manifest, options: BenchOptions): Scenario[] {
  return scenarios({
    topRepo: manifest.topRepo,
    topActor: manifest.topActor,
    reader: manifest.reader.login,
    token: manifest.reader.token,
    poster: manifest.poster.login,
    posterPassword: manifest.poster.password,
  }).filter((s) => options.only === null || options.only.includes(s.key));
}

/** The idle feed rows --postgres-rows measures again on PostgreSQL. */
const POSTGRES_ROWS = ["repo", "events", "user", "received", "page1000", "304"];

/**
 * The idle feed rows served from the PostgreSQL database the import made (--postgres-rows): the world seeded, a server
 * of its own, each row against its own ceiling captured from that server. Keys `postgres-<row>`, labels "PostgreSQL: ...".
 */
async function measurePostgresRows(
  url: string,
  world: string,
  list: Scenario[],
  options: BenchOptions,
  notes: string[],
): Promise<{ measurements: Measurement[]; ownCeilings: OwnCeiling[] }> {
  say("feedgate seed -> PostgreSQL (world: reader, poster, organizations, token)");
  await feedgate(["seed", world, "--db", url]);
  const rows = list
    .filter((s) => POSTGRES_ROWS.includes(s.key))
    .map((s) => ({ ...s, key: `postgres-${s.key}`, label: `PostgreSQL: ${s.label}` }));
  let server: Listening | undefined;
  let rowCeiling: Listening | undefined;
  try {
    say("feedgate serve (PostgreSQL)");
    server = await startListening(serveArgs(url, options), `${options.dataDir}/server-postgres.log`);
    const captureFile = `${options.dataDir}/row-ceiling-postgres-capture.json`;
    const own = await startOwnCeilings(server.url, rows, captureFile, `${options.dataDir}/row-ceiling-postgres.log`);
    rowCeiling = own.rowCeiling;
    const run: RowRun = { server, rowCeiling, ownCeilings: own.ownCeilings, captureFile, options, notes };
    const measurements: Measurement[] = [];
    for (const scenario of rows) measurements.push(await runRow(run, server, scenario, null));
    for (const c of own.ownCeilings.filter((x) => x.problem !== null)) {
      notes.push(
        `own ceiling of ${c.key}: ${c.measurement ? "measured but not used" : "not measured"}, ${c.problem}; its rows have no ratio.`,
      );
    }
    return { measurements, ownCeilings: own.ownCeilings };
  } finally {
    await rowCeiling?.stop();
    await server?.stop();
  }
}

/**
 * The rows' own ceilings: each row's answer, captured from feedgate now (before any load or ingest), replayed byte
 * for byte by a bare node:http process. A replay that differs is reported, never measured.
 */
async function startOwnCeilings(
  serverUrl: string,
  list: Scenario[],
  captureFile: string,
  log: string,
): Promise<{ ownCeilings: OwnCeiling[]; rowCeiling: Listening | undefined }> {
  const ownCeilings = await captureRows(serverUrl, list);
  if (ownCeilings.length === 0) return { ownCeilings, rowCeiling: undefined };
  say(`captured ${ownCeilings.length} rows' answers for their own ceilings`);
  writeCaptures(captureFile, ownCeilings);
  const rowCeiling = await startListening(["--import", "tsx", `${ROOT}bench/row-ceiling.ts`, captureFile], log);
  await checkReplay(rowCeiling.url, ownCeilings);
  for (const c of ownCeilings.filter((x) => x.problem !== null)) say(`  own ceiling of ${c.key}: ${c.problem}`);
  return { ownCeilings, rowCeiling };
}

/** What a row runs against: the feedgate server, the own ceilings' process and its captures. */
interface RowRun {
  server: Listening;
  rowCeiling: Listening | undefined;
  ownCeilings: OwnCeiling[];
  captureFile: string;
  options: BenchOptions;
  notes: string[];
}

/** One row (with the live feeder posting meanwhile, for a live row), then its own ceiling's run. */
async function runRow(
  run: RowRun,
  target: Listening,
  scenario: Scenario,
  feeder: LiveFeeder | null,
): Promise<Measurement> {
  const { server, rowCeiling, ownCeilings, captureFile, options, notes } = run;
  const { feedEvents } = await probe(target.url, scenario);
  const own = scenario.target === "feedgate" ? ownCeilings.find((c) => c.key === ceilingKey(scenario.key)) : undefined;
  // The capture must still be feedgate's answer, and takes its per-request headers of now (see checkRow).
  if (own && rowCeiling && (await checkRow(server.url, scenario, own)))
    await reloadCeiling(rowCeiling.pid, rowCeiling.url, captureFile, ownCeilings, own);
  say(
    `${scenario.label}: ${options.warmupSeconds} s warm-up (or until every connection is answered) + ${options.durationSeconds} s`,
  );
  const m = await measure(target.url, scenario, options, target.pid, feedEvents, {
    ...(feeder ? { settledThen: () => feeder.start() } : {}),
    ...(scenario.target === "feedgate" ? { metricsUrl: target.url } : {}),
  });
  if (feeder) {
    const fed = await feeder.stop();
    m.liveEvents = fed.events / fed.seconds;
    notes.push(
      `${scenario.label}: ${Math.round(m.liveEvents)} events/s ingested while the feeder ran (warm-up included)` +
        `${fed.errors ? `; ${fed.errors} ingest batches failed` : ""}.`,
    );
    await settle(server.pid);
  }
  say(
    `  ${Math.round(m.rps)} requests/s, p50 ${m.p50.toFixed(2)} ms, p99 ${m.p99.toFixed(2)} ms, ` +
      `${m.cpuMsPerRequest.toFixed(2)} CPU ms/request, ${m.errors} errors, ramp ${m.rampSeconds?.toFixed(1) ?? "incomplete"} s`,
  );
  if (m.errors > 0)
    notes.push(
      `${scenario.label}: ${m.errors} responses with another status than ${scenario.expect} (or socket errors).`,
    );
  if (Number.isNaN(m.p50)) {
    notes.push(
      `${scenario.label}: no request was both sent and answered within the ${options.durationSeconds} s window ` +
        "(latency n/a); a longer --duration measures it.",
    );
  }
  if (m.starved > 0) {
    notes.push(
      `${scenario.label}: ${m.starved} of ${options.connections} connections had no response ${options.warmupSeconds} + ${RAMP_LIMIT_SECONDS} s ` +
        "into the run; it was measured on the others.",
    );
  }
  // Right after its row, on the same machine state; once per idle row (its live counterpart shares it).
  if (own && rowCeiling && own.problem === null && own.measurement === undefined)
    await measureOwnCeiling(own, rowCeiling, m, options);
  return m;
}

async function main(): Promise<void> {
  const options = parseOptions();
  // Refused now rather than after the import: each stream is a socket in this process and in the server.
  if (options.soakSeconds === null && (options.only === null || options.only.includes("streams")))
    checkFileLimit(Math.max(...options.streams));
  mkdirSync(options.dataDir, { recursive: true });
  mkdirSync(options.resultsDir, { recursive: true });
  const machine = describeMachine();
  const notes: string[] = [];
  if (machine.loadAtStart > machine.cores / 2) {
    notes.push(
      `The machine was busy when the run started (load average ${machine.loadAtStart.toFixed(2)} on ${machine.cores} cores): ` +
        "absolute requests/s are lower bounds; ratios and CPU per request are the comparable figures.",
    );
  }

  if (options.build) {
    say("npm run build");
    const build = await runToCompletion("npm", ["run", "build"]);
    if (build.code !== 0) throw new Error(`npm run build failed:\n${build.stdout}${build.stderr}`);
  }
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build`);
  if (options.soakSeconds !== null) {
    await soak(options.soakSeconds, options.dataDir, options.resultsDir, say);
    say(`total ${((Date.now() - started) / 60000).toFixed(1)} min`);
    return;
  }

  if (options.postgresDb !== null) {
    await postgresRowsOnly(options.postgresDb, options, machine, notes);
    say(`total ${((Date.now() - started) / 60000).toFixed(1)} min`);
    return;
  }

  const db = `${options.dataDir}/feedgate-${options.events}-seed${options.seed}.db`;
  const reuseDb = options.reuseDb && existsSync(db);
  checkDisk(options, options.regenerate || !existsSync(`${dataBase(options)}.manifest.json`), !reuseDb);
  const data = await dataFiles(options);
  const { manifest } = data;

  const imports: ImportOutcome[] = [];
  const ceilings: ImportCeiling[] = [];
  if (reuseDb) {
    say(`reusing ${db}`);
    imports.push({ store: "SQLite", skipped: "--reuse-db: served an earlier run's database" });
  } else {
    say("feedgate import -> SQLite");
    const sqlite = await importSqlite(data.events, db, manifest.events);
    imports.push(sqlite);
    say(`SQLite: ${Math.round(sqlite.rate)} events/s (${sqlite.seconds.toFixed(1)} s)`);
    say("import ceilings: parse only, raw SQLite write");
    ceilings.push(await measureImportCeiling("parse", data.events, manifest.events));
    ceilings.push(await measureImportCeiling("sqlite", data.events, manifest.events, `${options.dataDir}/ceiling.db`));
    say("feedgate seed (world: reader, poster, organizations, token)");
    await feedgate(["seed", data.world, "--db", db]);
  }

  // The live scenarios' feeder posts as a site administrator with a token (Basic auth would cost scrypt each time).
  say("feedgate seed (the live feeder's site administrator)");
  const adminToken = writeAdminWorld(`${options.dataDir}/admin-world.json`, options.seed);
  await feedgate(["seed", `${options.dataDir}/admin-world.json`, "--db", db]);
  const appRows = options.only === null || APP_ROWS.some((key) => options.only!.includes(key));
  if (appRows) say("feedgate app create + app install (the GitHub App rows)");
  const benchApp = appRows
    ? await registerBenchApp(db, options.dataDir, manifest.poster.login, manifest.topRepo.split("/")[0]!)
    : null;
  const codeRows = options.only === null || CODE_ROWS.some((key) => options.only!.includes(key));
  if (codeRows) {
    say("feedgate seed (the code rows' configuration file)");
    writeCodeWorld(`${options.dataDir}/code-world.json`, manifest.topRepo);
    await feedgate(["seed", `${options.dataDir}/code-world.json`, "--db", db]);
  }
  const templates = await readTemplates(data.events, 20_000);
  // Above the generated ids and above every earlier run's on a reused database (a run's live events stay stored):
  // a thousand ids per millisecond since 2026 leaves each run room for billions, and stays below 2^53 for centuries.
  let nextLiveId = FIRST_EVENT_ID + manifest.events + (Date.now() - Date.UTC(2026, 0, 1)) * 1000;

  const profileDir = `${options.dataDir}/profiles/${Date.now()}`;
  const measurements: Measurement[] = [];
  let serverRss: ReturnType<typeof memoryOf> = null;
  let deliveries: DeliveryMeasurement | undefined;
  const fanOut: FanOutMeasurement[] = [];
  let server: Listening | undefined;
  let ceiling: Listening | undefined;
  let rowCeiling: Listening | undefined;
  let ownCeilings: OwnCeiling[] = [];
  const captureFile = `${options.dataDir}/row-ceiling-capture.json`;
  try {
    say("feedgate serve");
    server = await startListening(
      [...(options.cpuProf ? ["--cpu-prof", "--cpu-prof-dir", profileDir] : []), ...serveArgs(db, options)],
      `${options.dataDir}/server.log`,
    );

    const list = [
      ...benchScenarios(manifest, options),
      ...(benchApp ? appScenarios(server.url, benchApp, manifest.topRepo) : []).filter(
        (s) => options.only === null || options.only.includes(s.key),
      ),
      ...(codeRows ? codeScenarios(manifest.topRepo, manifest.reader.token) : []).filter(
        (s) => options.only === null || options.only.includes(s.key),
      ),
    ];
    for (const scenario of list) await refreshed(scenario);
    // Each row's own ceiling: feedgate's answer to the row's request, captured now (before any load or ingest) and
    // replayed byte for byte by a bare node:http process. A replay that differs is reported, never measured.
    ({ ownCeilings, rowCeiling } = await startOwnCeilings(
      server.url,
      list,
      captureFile,
      `${options.dataDir}/row-ceiling.log`,
    ));

    // The old single ceiling answers with the very page feedgate serves for GET /events; kept for history.
    const page = await fetch(`${server.url}/events`, { headers: { Authorization: `token ${manifest.reader.token}` } });
    const bodyFile = `${options.dataDir}/ceiling-page.json`;
    writeFileSync(bodyFile, Buffer.from(await page.arrayBuffer()));
    ceiling = await startListening(
      ["--import", "tsx", `${ROOT}bench/ceiling.ts`, bodyFile],
      `${options.dataDir}/ceiling.log`,
    );

    // The ceiling runs first and again last: its mean is the ratio's denominator, and a gap between the two
    // shows that the machine changed during the run.
    const first = list[0];
    const runs = first?.key === "ceiling" ? [...list, { ...first, label: `${first.label} (again, last)` }] : list;
    const rows: RowRun = { server, rowCeiling, ownCeilings, captureFile, options, notes };
    for (const scenario of runs) {
      const feeder = scenario.live
        ? new LiveFeeder(server.url, adminToken, templates, nextLiveId, scenario.live.exclude)
        : null;
      if (feeder) nextLiveId += 10_000_000;
      measurements.push(await runRow(rows, scenario.target === "ceiling" ? ceiling : server, scenario, feeder));
    }
    for (const c of ownCeilings.filter((x) => x.problem !== null)) {
      notes.push(
        `own ceiling of ${c.key}: ${c.measurement ? "measured but not used" : "not measured"}, ${c.problem}; its rows have no ratio.`,
      );
    }
    serverRss = memoryOf(server.pid);
    if (options.only === null || options.only.includes("webhooks")) {
      say(`webhooks: deliveries to a local receiver, a flood then ${options.durationSeconds} s below capacity`);
      deliveries = await measureDeliveries(
        server.url,
        server.pid,
        { ...ADMIN_CREDENTIALS, token: adminToken },
        busiestRepos(templates, 16),
        templates,
        nextLiveId,
        20_000,
        options.durationSeconds,
        `${options.dataDir}/post-ceiling.json`,
      );
      nextLiveId += 10_000_000;
      say(
        `  flood: ${Math.round(deliveries.rate)} deliveries/s, ${deliveries.cpuMsPerDelivery.toFixed(3)} CPU ms each (own ceiling ` +
          `${Math.round(deliveries.ownCeiling?.rate ?? Number.NaN)}/s, ${deliveries.ownCeiling?.cpuMsPerPost.toFixed(3)} ms), p99 ${deliveries.p99Ms.toFixed(1)} ms`,
      );
      const steady = deliveries.steady;
      if (steady) {
        say(
          `  below capacity: ${steady.rate} events/s, ${steady.delivered} of ${steady.posted} delivered, p50 ${steady.p50Ms.toFixed(1)} ms, ` +
            `p99 ${steady.p99Ms.toFixed(1)} ms`,
        );
      }
    }
    if (options.only === null || options.only.includes("streams")) {
      for (const count of options.streams) {
        say(`streams: ${count.toLocaleString("en-US")} open on GET /events while events are posted`);
        const f = await measureFanOut(
          server.url,
          server.pid,
          adminToken,
          templates,
          nextLiveId,
          count,
          options.streamRate,
        );
        fanOut.push(f);
        nextLiveId += 10_000_000;
        say(
          `  opened in ${f.openSeconds?.toFixed(1)} s, ${((f.bytesPerStream ?? Number.NaN) / 1024).toFixed(1)} KB of server RSS each; ` +
            `${Math.round(f.frameRate)} events/s to the streams in all, p99 ${f.p99Ms.toFixed(1)} ms, ${f.incomplete} incomplete`,
        );
      }
    }
  } finally {
    await ceiling?.stop();
    await rowCeiling?.stop();
    await server?.stop();
  }

  // In this process, as a test suite runs the double: no server process of its own to measure.
  let testDouble: string | null = null;
  if (options.only === null || options.only.includes("test-double")) {
    say("test double: start, reset, restore, fg.fetch against fg.url");
    testDouble = renderTestDouble(await measureTestDouble());
  }
  // Servers of their own, on a SQLite file of their own: the writes change no feed the rows above read.
  if (options.only === null || options.only.includes("actions")) {
    say("actions: opening issues, commenting and labelling, each against its own ceiling, on SQLite and PostgreSQL");
    const rows = renderActions(
      await measureActions(options, options.dataDir, options.logLevel, options.postgres ? POSTGRES_ADMIN_URL : null),
    );
    testDouble = testDouble ? `${testDouble}\n${rows}` : rows;
  }

  let profile: string | null = null;
  if (options.cpuProf) {
    const file = readdirSync(profileDir).find((f) => f.endsWith(".cpuprofile"));
    if (file) profile = summarizeProfile(`${profileDir}/${file}`);
  }

  if (options.postgres) {
    say("feedgate import -> PostgreSQL (scratch database)");
    try {
      // A failure of the rows is noted and leaves the import's figure standing.
      const served = options.postgresRows
        ? async (url: string) => {
            try {
              const rows = await measurePostgresRows(
                url,
                data.world,
                benchScenarios(manifest, options),
                options,
                notes,
              );
              measurements.push(...rows.measurements);
              ownCeilings = [...ownCeilings, ...rows.ownCeilings];
            } catch (error) {
              notes.push(`PostgreSQL rows: failed: ${(error as Error).message.split("\n")[0]}`);
            }
          }
        : undefined;
      const pg = await importPostgres(
        data.events,
        manifest.events,
        options.postgresRows ? Infinity : options.postgresSeconds,
        served,
      );
      imports.push(pg);
      say(
        "skipped" in pg
          ? `PostgreSQL skipped: ${pg.skipped}`
          : `PostgreSQL: ${Math.round(pg.rate)} events/s (${pg.seconds.toFixed(1)} s)`,
      );
      if (!("skipped" in pg)) {
        say("import ceiling: raw PostgreSQL COPY");
        const ceiling = await measurePostgresCeiling(data.events, manifest.events);
        if (ceiling) ceilings.push(ceiling);
      }
    } catch (error) {
      imports.push({ store: "PostgreSQL", skipped: `failed: ${(error as Error).message.split("\n")[0]}` });
    }
  } else {
    imports.push({ store: "PostgreSQL", skipped: "--skip-postgres" });
  }

  save(
    options,
    {
      machine,
      manifest,
      generatedNow: data.generatedNow,
      imports,
      ceilings,
      measurements,
      ownCeilings,
      serverRss,
      notes,
      profile,
      deliveries,
      fanOut,
    },
    testDouble,
  );
  say(`total ${((Date.now() - started) / 60000).toFixed(1)} min`);
}

/** `--postgres-db`: the PostgreSQL rows alone, served from a database an earlier import made. */
async function postgresRowsOnly(url: string, options: BenchOptions, machine: Machine, notes: string[]): Promise<void> {
  const data = await dataFiles(options);
  const { measurements, ownCeilings } = await measurePostgresRows(
    url,
    data.world,
    benchScenarios(data.manifest, options),
    options,
    notes,
  );
  const skipped = `--postgres-db: the PostgreSQL rows alone, served from ${redact(url)}, imported earlier`;
  save(
    options,
    {
      machine,
      manifest: data.manifest,
      generatedNow: data.generatedNow,
      imports: [
        { store: "SQLite", skipped },
        { store: "PostgreSQL", skipped },
      ],
      ceilings: [],
      measurements,
      ownCeilings,
      serverRss: null,
      notes,
      profile: null,
      deliveries: undefined,
      fanOut: [],
    },
    null,
  );
}

/** Renders the run's report, saves it with its figures (JSON) in --results-dir, and prints it. */
function save(
  options: BenchOptions,
  run: Omit<ReportInput, "baseline" | "loadAtEnd" | "settings">,
  testDouble: string | null,
): void {
  const input: ReportInput = {
    ...run,
    baseline: options.events === 10_000_000 ? latestRun(options.resultsDir, 1_000_000) : undefined,
    loadAtEnd: loadavg()[0]!,
    settings: {
      events: options.events,
      seed: options.seed,
      connections: options.connections,
      warmupSeconds: options.warmupSeconds,
      durationSeconds: options.durationSeconds,
      logLevel: options.logLevel,
      postgresSeconds: options.postgresRows ? Infinity : options.postgresSeconds,
    },
  };
  const report = renderReport(input) + (testDouble ? `\n${testDouble}` : "");
  // A run of another size from the same commit (the --large one) must not overwrite the 1,000,000-event report it
  // compares itself with; a --postgres-db run must not overwrite the full run's.
  const size = options.events === 1_000_000 ? "" : `-${options.events}`;
  const file = `${options.resultsDir}/${run.machine.date.slice(0, 10)}-${run.machine.commit}${size}${options.postgresDb ? "-postgres" : ""}.md`;
  writeFileSync(file, report);
  writeFileSync(
    file.replace(/\.md$/, ".json"),
    `${JSON.stringify(savedRun(input, file.slice(file.lastIndexOf("/") + 1)), null, 1)}\n`,
  );
  process.stdout.write(report);
  say(`saved ${file}`);
}

main().catch((error: unknown) => {
  // fetch's own message ("fetch failed") says nothing: the socket error is its cause.
  const cause = error instanceof Error && error.cause instanceof Error ? `\ncaused by: ${error.cause.stack}` : "";
  process.stderr.write(`bench: ${error instanceof Error ? error.stack : String(error)}${cause}\n`);
  process.exitCode = 1;
});
