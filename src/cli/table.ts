/** Listings for people: a header line and columns padded to their widest cell, two spaces apart. */

/** Control characters (a note's line break or tab) would break the row; a space stands in for each. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const printable = (cell: string) => cell.replace(/[\u0000-\u001f\u007f]/g, " ");

export function formatTable(header: string[], rows: string[][]): string {
  const lines = [header, ...rows].map((row) => row.map(printable));
  const widths = header.map((_, i) => Math.max(...lines.map((row) => row[i]?.length ?? 0)));
  // The last column is not padded: no trailing blanks.
  return lines
    .map((row) => `${row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!))).join("  ")}\n`)
    .join("");
}

export const yesNo = (value: boolean) => (value ? "yes" : "no");

/** `1 token`, `2 tokens`, `0 repositories`: a number with its word. */
export const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** `2026-01-15T10:00:00Z`: ISO 8601 as the API writes times, without the milliseconds nobody reads. */
export { isoSeconds } from "../server/convert/time.js";
