/**
 * Import throughput: the real `feedgate import` command, spawned on the generated file into a fresh database,
 * timed from the outside (process start to exit: what an operator waits for, migrations included). The
 * command's own figure (its rate, which excludes start-up) is kept beside it, and the process's peak memory
 * shows whether the import really streams.
 *
 * The PostgreSQL import may be given a time budget: a slow import would otherwise hold the whole benchmark
 * hostage. When the budget runs out the command is stopped and the rate is the committed events over the
 * time so far (a slight underestimate: the batch in flight is lost), with the time for 1,000,000 extrapolated.
 */
import { rmSync, statSync } from "node:fs";
import pg from "pg";
import type { CeilingKind } from "./import-ceiling.js";
import { feedgate, ROOT, runToCompletion } from "./processes.js";
import { BENCH_DATABASE, createScratchDatabase, probePostgres } from "./postgres.js";

export interface ImportMeasurement {
  store: "SQLite" | "PostgreSQL";
  /** Events in the database when the command ended. */
  events: number;
  /** Events in the file. */
  of: number;
  /** Wall-clock seconds of the whole command (until it was stopped, when it ran out of time). */
  seconds: number;
  rate: number;
  /** The command's own events/s (from its last line; absent when stopped). */
  reportedRate: number | null;
  stopped: boolean;
  peakRss: number;
  databaseBytes: number;
  version?: string;
}

export type ImportOutcome = ImportMeasurement | { store: "SQLite" | "PostgreSQL"; skipped: string };

const SUMMARY = /imported (\d+) events in ([\d.]+) s \((\d+) events\/s\)/;

async function timedImport(
  store: ImportMeasurement["store"],
  file: string,
  db: string,
  expected: number,
  countEvents: () => Promise<number>,
  timeoutSeconds = Infinity,
) {
  const run = await feedgate(["import", file, "--db", db], timeoutSeconds);
  const summary = SUMMARY.exec(run.stdout);
  const events = await countEvents();
  // A short count from a finished import means skipped lines or a stale database: its rate would be a lie.
  if (!run.timedOut && (events !== expected || Number(summary?.[1]) !== expected)) {
    throw new Error(`${store} import stored ${events} events, expected ${expected}:\n${run.stdout}`);
  }
  return {
    store,
    events,
    of: expected,
    seconds: run.seconds,
    rate: events / run.seconds,
    reportedRate: summary ? Number(summary[3]) : null,
    stopped: run.timedOut,
    peakRss: run.peakRss,
  };
}

/** Into a new SQLite file (any old one, with its WAL, removed first); the file is kept for serving. */
export async function importSqlite(file: string, db: string, expected: number): Promise<ImportMeasurement> {
  for (const suffix of ["", "-wal", "-shm"]) rmSync(db + suffix, { force: true });
  const count = async () => {
    const { default: Database } = await import("better-sqlite3");
    const handle = new Database(db, { readonly: true });
    try {
      return (handle.prepare("SELECT count(*) AS n FROM events").get() as { n: number }).n;
    } finally {
      handle.close();
    }
  };
  const result = await timedImport("SQLite", file, db, expected, count);
  return { ...result, databaseBytes: statSync(db).size };
}

/**
 * Into a scratch PostgreSQL database, dropped afterwards; skipped (with the reason) when no server answers. With
 * `keep`, into the benchmark's own database (BENCH_DATABASE), handed to `keep` once the import is complete, to
 * serve the PostgreSQL rows from, and dropped when `keep` returns.
 */
export async function importPostgres(
  file: string,
  expected: number,
  timeoutSeconds: number,
  keep?: (url: string) => Promise<void>,
): Promise<ImportOutcome> {
  const probe = await probePostgres();
  if ("unreachable" in probe) return { store: "PostgreSQL", skipped: probe.unreachable };
  const scratch = keep ? await createScratchDatabase(undefined, BENCH_DATABASE) : await createScratchDatabase();
  const count = async () => {
    const client = new pg.Client({ connectionString: scratch.url });
    await client.connect();
    try {
      return Number((await client.query<{ n: string }>("SELECT count(*) AS n FROM events")).rows[0]!.n);
    } catch {
      return 0; // stopped before the migrations created the table
    } finally {
      await client.end();
    }
  };
  try {
    const result = await timedImport("PostgreSQL", file, scratch.url, expected, count, timeoutSeconds);
    const measured = { ...result, databaseBytes: await scratch.size(), version: probe.version };
    if (keep && !result.stopped) await keep(scratch.url);
    return measured;
  } finally {
    await scratch.drop();
  }
}

export interface ImportCeiling {
  kind: CeilingKind;
  events: number;
  seconds: number;
  rate: number;
}

/** Events of the file the ceilings use: enough for a steady rate, few enough to keep the run short. */
export const CEILING_EVENTS = 200_000;

/** One import ceiling (bench/import-ceiling.ts), in its own process like the import it is compared with. */
export async function measureImportCeiling(
  kind: CeilingKind,
  file: string,
  events: number,
  target = "",
): Promise<ImportCeiling> {
  const run = await runToCompletion(process.execPath, [
    "--import",
    "tsx",
    `${ROOT}bench/import-ceiling.ts`,
    kind,
    file,
    String(Math.min(events, CEILING_EVENTS)),
    target,
  ]);
  if (run.code !== 0) throw new Error(`import ceiling ${kind} exited with ${run.code}:\n${run.stderr.slice(-4000)}`);
  const result = JSON.parse(run.stdout) as { events: number; seconds: number };
  return { kind, ...result, rate: result.events / result.seconds };
}

/** The PostgreSQL write ceiling, in a scratch database of its own. */
export async function measurePostgresCeiling(file: string, events: number): Promise<ImportCeiling | null> {
  if ("unreachable" in (await probePostgres())) return null;
  const scratch = await createScratchDatabase();
  try {
    return await measureImportCeiling("postgres", file, events, scratch.url);
  } finally {
    await scratch.drop();
  }
}
