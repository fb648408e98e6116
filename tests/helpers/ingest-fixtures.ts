/**
 * Fixtures the ingest tests share: the real GH Archive sample (events to ingest are built by ./events.ts), and a snapshot
 * of every ingest-written table, so "nothing was written" and "nothing changed" are one deepEqual.
 */
import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import Database from "better-sqlite3";
import pg from "pg";
import { inRepository, SHARED_DATA_DIR } from "./repository.js";

/** 800 real events of 2021-07-21, gzip; kept in the repository for the demo world. */
export const SAMPLE_GZ = inRepository("demo/2021-07-21-sample.ndjson.gz");
/** The same 800 events, plain, from the shared data folder CI places beside the clone. */
export const SAMPLE = `${SHARED_DATA_DIR}/gharchive/2021-07-21-sample.ndjson`;

/** The sample's lines, exactly as GH Archive wrote them. */
export function sampleLines(): string[] {
  return gunzipSync(readFileSync(SAMPLE_GZ))
    .toString("utf8")
    .split("\n")
    .filter((line) => line !== "");
}

export const ndjson = (events: object[]) => events.map((e) => JSON.stringify(e)).join("\n");

const TABLES = [
  "users",
  "org_members",
  "repos",
  "collaborators",
  "follows",
  "watches",
  "authorizations",
  "events",
  "issue_events",
];
const query = (table: string) => `SELECT * FROM ${table} ORDER BY 1, 2`;

/**
 * Every row an ingest can write, password hashes and timestamps included. `db` is a SQLite file or, in the
 * driver matrix run (FEEDGATE_TEST_STORE=postgres), the PostgreSQL URL startTestApp gives as `dbPath`.
 */
export async function snapshot(db: string): Promise<Record<string, unknown[]>> {
  if (/^postgres(ql)?:/.test(db)) {
    const client = new pg.Client({ connectionString: db });
    await client.connect();
    try {
      const rows: Record<string, unknown[]> = {};
      for (const table of TABLES) rows[table] = (await client.query(query(table))).rows;
      return rows;
    } finally {
      await client.end();
    }
  }
  const sqlite = new Database(db, { readonly: true });
  try {
    return Object.fromEntries(TABLES.map((table) => [table, sqlite.prepare(query(table)).all()]));
  } finally {
    sqlite.close();
  }
}

/** The ids of a feed page, in order. */
export const ids = (body: string) => (JSON.parse(body) as { id: string }[]).map((e) => e.id);
