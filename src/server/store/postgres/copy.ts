/**
 * Bulk loading through COPY, straight into the table: the ids already stored are looked up first (one
 * indexed query) and left out, with duplicates inside the batch, so re-imports stay idempotent although
 * COPY itself cannot skip a duplicate. That is race-free because every ingest holds the ingest lock
 * (postgres/ingest.ts). Copying through a temporary twin and INSERT ... ON CONFLICT would write, and
 * compress, every body twice.
 */
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type pg from "pg";
import { from as copyFrom } from "pg-copy-streams";

type Cell = string | number | boolean | null;

const ROWS_PER_WRITE = 256;
const ESCAPES: Record<string, string> = { "\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r" };

/** One value in COPY's text format: `\N` for null; backslash, tab and line breaks escaped. */
function cell(value: Cell): string {
  if (value === null) return "\\N";
  if (typeof value === "boolean") return value ? "t" : "f";
  return String(value).replace(/[\\\t\n\r]/g, (c) => ESCAPES[c]!);
}

/**
 * Copies the rows whose id (their first cell) `table` does not hold yet; returns their ids.
 * @param columns the column list, in the order of each row's cells; the first is `id`.
 */
export async function copyNewRows(client: pg.PoolClient, table: string, columns: string[], rows: [string, ...Cell[]][])
  : Promise<string[]> {
  const { rows: stored } = await client.query<{ id: string }>(
    `SELECT id::text AS id FROM ${table} WHERE id = ANY($1::int8[])`, [rows.map((row) => row[0])]);
  // Compared as the database prints them: "007" is id 7.
  const canonical = (id: string) => BigInt(id).toString();
  const seen = new Set(stored.map((r) => r.id));
  const fresh = rows.filter((row) => {
    const id = canonical(row[0]);
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
  if (fresh.length === 0) return [];
  // Rows go out a few hundred at a time: one socket write per row costs more than the row itself.
  const chunks = Readable.from((function* () {
    for (let start = 0; start < fresh.length; start += ROWS_PER_WRITE) {
      yield fresh.slice(start, start + ROWS_PER_WRITE).map((row) => `${row.map(cell).join("\t")}\n`).join("");
    }
  })());
  await pipeline(chunks, client.query(copyFrom(`COPY ${table} (${columns.join(", ")}) FROM STDIN`)));
  return fresh.map((row) => row[0]);
}
