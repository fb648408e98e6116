/**
 * The import's ceilings, measured in the same run as the import (the machine is shared and noisy, so a rate
 * means little without them): how fast this machine can do each half of an import on its own.
 *
 *   parse     read the file and check every envelope exactly as `feedgate import` does, writing nothing:
 *             the CPU ceiling of one thread.
 *   sqlite    write each line as is, keyed by its event id, into a SQLite table with nothing but that key,
 *             in WAL mode with feedgate's settings and batch size: the disk's ceiling for the same bytes.
 *   postgres  the same into PostgreSQL with COPY (lz4, as feedgate's events table).
 *
 * The real import does both halves and more (four feed indexes, accounts and repositories), parsing in a worker
 * thread while its main thread writes, so its rate is below the lower of the two; the report gives it as a ratio
 * to each. Run: node --import tsx bench/import-ceiling.ts
 * <parse|sqlite|postgres> <file> <events> [target]; prints {"events": n, "seconds": s}.
 */
import { rmSync } from "node:fs";
import { pathToFileURL } from "node:url";
import Database from "better-sqlite3";
import pg from "pg";
import { ndjsonFromFile } from "../src/server/services/ndjson.js";
import { parseEvent } from "../src/server/services/event-envelope.js";
import { copyNewRows } from "../src/server/store/postgres/copy.js";

export type CeilingKind = "parse" | "sqlite" | "postgres";

/** feedgate import's batch size (services/event-import.ts). */
const BATCH = 5_000;
const LEADING_ID = /^\{"id":"(\d+)"/;

/** Ids and lines of the file's first `limit` events, in batches. */
async function* batches(file: string, limit: number): AsyncGenerator<[string, string][]> {
  let batch: [string, string][] = [];
  let seen = 0;
  for await (const line of ndjsonFromFile(file).lines) {
    if (seen++ === limit) break;
    // The id leads every generated line: {"id":"17000000001",...
    const id = LEADING_ID.exec(line.text)?.[1];
    if (id === undefined) throw new Error(`${file}:${seen}: no leading "id"; the ceilings need the generator's files`);
    batch.push([id, line.text]);
    if (batch.length === BATCH) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length) yield batch;
}

async function parse(file: string, limit: number): Promise<number> {
  let events = 0;
  for await (const batch of batches(file, limit)) {
    for (const [, text] of batch) parseEvent(JSON.parse(text), "ceiling", text);
    events += batch.length;
  }
  return events;
}

async function sqlite(file: string, limit: number, path: string): Promise<number> {
  for (const suffix of ["", "-wal", "-shm"]) rmSync(path + suffix, { force: true });
  const db = new Database(path);
  try {
    db.pragma("journal_mode = WAL");
    db.exec("CREATE TABLE raw (id INTEGER PRIMARY KEY, body TEXT NOT NULL)");
    const insert = db.prepare<[string, string]>("INSERT INTO raw (id, body) VALUES (?, ?)");
    const write = db.transaction((batch: [string, string][]) => {
      for (const [id, text] of batch) insert.run(id, text);
    });
    let events = 0;
    for await (const batch of batches(file, limit)) {
      write.immediate(batch);
      events += batch.length;
    }
    return events;
  } finally {
    db.close();
    for (const suffix of ["", "-wal", "-shm"]) rmSync(path + suffix, { force: true });
  }
}

async function postgres(file: string, limit: number, url: string): Promise<number> {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  const client = await pool.connect();
  try {
    await client.query("CREATE TABLE raw (id bigint PRIMARY KEY, body text NOT NULL)");
    await client.query(
      "DO $$ BEGIN ALTER TABLE raw ALTER COLUMN body SET COMPRESSION lz4; " +
        "EXCEPTION WHEN feature_not_supported THEN NULL; END $$",
    );
    let events = 0;
    for await (const batch of batches(file, limit)) {
      await client.query("BEGIN");
      await copyNewRows(
        client,
        "raw",
        [
          ["id", "int8"],
          ["body", "text"],
        ],
        batch,
      );
      await client.query("COMMIT");
      events += batch.length;
    }
    return events;
  } finally {
    client.release();
    await pool.end();
  }
}

async function main(): Promise<void> {
  const [kind, file, limit, target] = process.argv.slice(2);
  if (!file || !["parse", "sqlite", "postgres"].includes(kind ?? "") || !Number(limit)) {
    throw new Error("usage: import-ceiling.ts <parse|sqlite|postgres> <file> <events> [sqlite path | postgres url]");
  }
  const started = performance.now();
  const events =
    kind === "parse"
      ? await parse(file, Number(limit))
      : kind === "sqlite"
        ? await sqlite(file, Number(limit), target!)
        : await postgres(file, Number(limit), target!);
  process.stdout.write(`${JSON.stringify({ events, seconds: (performance.now() - started) / 1000 })}\n`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exitCode = 1;
  });
}
