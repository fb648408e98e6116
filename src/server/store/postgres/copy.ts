/**
 * Bulk loading through COPY: rows are streamed in PostgreSQL's text format into a temporary table that
 * lives until the transaction ends, then moved with one INSERT ... SELECT ... ON CONFLICT DO NOTHING, which
 * keeps re-imports idempotent (COPY itself cannot skip duplicates).
 */
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type pg from "pg";
import { from as copyFrom } from "pg-copy-streams";

type Cell = string | number | boolean | null;

/** One value in COPY's text format: `\N` for null; backslash, tab and line breaks escaped. */
function cell(value: Cell): string {
  if (value === null) return "\\N";
  if (typeof value === "boolean") return value ? "t" : "f";
  return String(value).replace(/[\\\t\n\r]/g, (c) => ({ "\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r" })[c]!);
}

/**
 * Copies `rows` into `table` (a real table) through a temporary twin; returns how many rows were new.
 * @param columns the column list, in the order of each row's cells.
 */
export async function copyIntoIgnoringDuplicates(client: pg.PoolClient, table: string, columns: string[], rows: Cell[][])
  : Promise<number> {
  const staging = `${table}_incoming`;
  await client.query(`CREATE TEMPORARY TABLE IF NOT EXISTS ${staging} (LIKE ${table} INCLUDING DEFAULTS) ON COMMIT DELETE ROWS`);
  const lines = Readable.from((function* () {
    for (const row of rows) yield `${row.map(cell).join("\t")}\n`;
  })());
  await pipeline(lines, client.query(copyFrom(`COPY ${staging} (${columns.join(", ")}) FROM STDIN`)));
  const result = await client.query(`INSERT INTO ${table} (${columns.join(", ")})
    SELECT ${columns.join(", ")} FROM ${staging} ON CONFLICT (id) DO NOTHING`);
  await client.query(`TRUNCATE ${staging}`);
  return result.rowCount ?? 0;
}
