/**
 * The action rows' databases, on either driver: feedgate's, seeded with the rows' world, and the ceiling's, a copy of
 * it made before anything was written (bench/action-ceiling.ts writes to it). What each side writes is compared
 * through them: the rows each table gained, and the numbers `ingest_state` holds (the generation the caches key on).
 */
import { copyFileSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { createScratchDatabase, type ScratchDatabase } from "./postgres.js";
import { cpuSecondsOf, feedgate } from "./processes.js";

export type Driver = "sqlite" | "postgres";

export interface ActionDatabases {
  driver: Driver;
  /** feedgate's `--db`. */
  feedgate: string;
  ceiling: string;
  drop(): Promise<void>;
}

/** Seeds `world` into a new database of the driver's and copies it for the ceiling. */
export async function prepareDatabases(
  driver: Driver,
  world: string,
  dir: string,
  adminUrl: string,
): Promise<ActionDatabases> {
  if (driver === "sqlite") {
    const db = join(dir, `actions-${process.pid}.db`);
    const ceiling = join(dir, `actions-ceiling-${process.pid}.db`);
    await feedgate(["seed", world, "--db", db]);
    copyFileSync(db, ceiling); // seeding's connection is closed: the file holds everything (WAL checkpointed on close)
    return {
      driver,
      feedgate: db,
      ceiling,
      drop: async () => {
        for (const file of [db, ceiling])
          for (const suffix of ["", "-wal", "-shm"]) rmSync(`${file}${suffix}`, { force: true });
      },
    };
  }
  const made: ScratchDatabase[] = [];
  try {
    const db = await createScratchDatabase(adminUrl);
    made.push(db);
    await feedgate(["seed", world, "--db", db.url]);
    // A template's copy: the same rows, ids and partitions (seeding's connections are closed, as CREATE DATABASE needs).
    const ceiling = await createScratchDatabase(adminUrl, `${new URL(db.url).pathname.slice(1)}_ceiling`, db.url);
    made.push(ceiling);
    return {
      driver,
      feedgate: db.url,
      ceiling: ceiling.url,
      drop: async () => {
        for (const d of made) await d.drop();
      },
    };
  } catch (error) {
    for (const d of made) await d.drop().catch(() => undefined);
    throw error;
  }
}

/** What a database holds that a write changes: each table's rows, and `ingest_state`'s numbers (as `state.<column>`). */
export async function databaseCounts(driver: Driver, db: string): Promise<Record<string, number>> {
  if (driver === "sqlite") {
    const d = new Database(db, { readonly: true });
    try {
      const tables = d
        .prepare<[], { name: string }>(
          "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
        )
        .all();
      const counts: Record<string, number> = {};
      for (const { name } of tables)
        counts[name] = d.prepare<[], { n: number }>(`SELECT count(*) AS n FROM "${name}"`).get()!.n;
      const state = d.prepare<[], Record<string, number>>("SELECT * FROM ingest_state WHERE id = 1").get()!;
      for (const [key, value] of Object.entries(state)) counts[`state.${key}`] = Number(value);
      return counts;
    } finally {
      d.close();
    }
  }
  const client = new pg.Client({ connectionString: db });
  await client.connect();
  try {
    const { rows: tables } = await client.query<{ name: string }>(
      "SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename",
    );
    const { rows } = await client.query<Record<string, string>>(
      `SELECT ${tables.map(({ name }, i) => `(SELECT count(*) FROM "${name}") AS t${i}`).join(", ")}`,
    );
    const counts: Record<string, number> = {};
    tables.forEach(({ name }, i) => {
      counts[name] = Number(rows[0]![`t${i}`]);
    });
    const state = (await client.query<Record<string, string>>("SELECT * FROM ingest_state WHERE id = 1")).rows[0]!;
    for (const [key, value] of Object.entries(state)) counts[`state.${key}`] = Number(value);
    return counts;
  } finally {
    await client.end();
  }
}

/**
 * What changed from `before` to `after`, as `table +n` (sorted, only what moved): a table made meanwhile and still
 * empty (the next month's events partition, made by retention) moved nothing.
 */
export function countsMoved(before: Record<string, number>, after: Record<string, number>): string[] {
  return Object.keys(after)
    .map((key) => [key, after[key]! - (before[key] ?? 0)] as const)
    .filter(([, moved]) => moved !== 0)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, moved]) => `${key} ${moved > 0 ? "+" : ""}${moved}`);
}

/** The body feedgate stored last for an event of `type`, and for an issue event whose `event` is `issueEvent`. */
export async function storedBodies(
  driver: Driver,
  db: string,
  eventTypes: string[],
  issueEvents: string[],
): Promise<Map<string, string>> {
  const bodies = new Map<string, string>();
  const lastEvent = "SELECT body FROM events WHERE type = @type ORDER BY seq DESC LIMIT 1";
  // Issue events' type is inside their body: `"event":"labeled"`.
  const lastIssueEvent = "SELECT body FROM issue_events WHERE body LIKE @pattern ORDER BY seq DESC LIMIT 1";
  const pattern = (event: string) => `%"event":"${event}"%`;
  if (driver === "sqlite") {
    const d = new Database(db, { readonly: true });
    try {
      for (const type of eventTypes)
        bodies.set(type, d.prepare<[{ type: string }], { body: string }>(lastEvent).get({ type })!.body);
      for (const event of issueEvents)
        bodies.set(
          event,
          d.prepare<[{ pattern: string }], { body: string }>(lastIssueEvent).get({ pattern: pattern(event) })!.body,
        );
      return bodies;
    } finally {
      d.close();
    }
  }
  const client = new pg.Client({ connectionString: db });
  await client.connect();
  try {
    for (const type of eventTypes)
      bodies.set(type, (await client.query(lastEvent.replace("@type", "$1"), [type])).rows[0].body);
    for (const event of issueEvents)
      bodies.set(event, (await client.query(lastIssueEvent.replace("@pattern", "$1"), [pattern(event)])).rows[0].body);
    return bodies;
  } finally {
    await client.end();
  }
}

/**
 * A running count of the CPU seconds the PostgreSQL backends of `db`'s database used (found by their process title,
 * in /proc; their CPU from /proc/<pid>/stat): each call adds what every backend
 * seen used since the call before, a new one all it used. A backend that exits between two calls loses what it used
 * since the last (a pool keeps its connections while it is busy).
 */
/** `postgres: 15/main: postgres feedgate_bench_x 127.0.0.1(49002) idle` (the cluster's name where it has one). */
const BACKEND_TITLE = /^postgres: (?:[^ ]+: )?[^ ]+ ([^ ]+) /;

export function backendCpu(db: string): () => number {
  const name = new URL(db).pathname.slice(1);
  const seen = new Map<number, number>();
  let total = 0;
  return () => {
    for (const entry of readdirSync("/proc")) {
      if (!/^\d+$/.test(entry)) continue;
      const pid = Number(entry);
      try {
        const title = readFileSync(`/proc/${pid}/cmdline`, "latin1");
        if (BACKEND_TITLE.exec(title)?.[1] !== name) continue;
        const cpu = cpuSecondsOf(pid);
        total += cpu - (seen.get(pid) ?? 0);
        seen.set(pid, cpu);
      } catch {
        // exited while we looked
      }
    }
    return total;
  };
}
