/**
 * COPY's binary format (https://www.postgresql.org/docs/current/sql-copy.html#id-1.9.3.55.9.4): each cell is its
 * length and its bytes, so a text cell goes out as its UTF-8 with nothing escaped. The text format had every body
 * (a whole event, full of backslashes) scanned and rewritten by a regular expression, then joined into ever longer
 * strings: at a million events that was a quarter of the import's CPU (issue 27's profile).
 *
 * Not shared: COPY is PostgreSQL's.
 */

/** The column types feedgate copies into: bigint, text and boolean. */
export type CopyType = "int8" | "text" | "bool";
/** A text cell may be given as its UTF-8 bytes (an event's body from `feedgate import`: EventText), copied as they are. */
export type Cell = string | number | boolean | Uint8Array | null;

/** Signature, flags (none), header extension length (none). */
export const COPY_BINARY_HEADER = Buffer.concat([Buffer.from("PGCOPY\n\xff\r\n\0", "latin1"), Buffer.alloc(8)]);
/** A field count of -1 ends the data. */
export const COPY_BINARY_TRAILER = Buffer.from([0xff, 0xff]);

/** An upper bound of the bytes `rows` take: a UTF-16 code unit is at most three bytes of UTF-8. */
function bound(rows: Cell[][], types: CopyType[]): number {
  let size = 0;
  for (const row of rows) {
    size += 2 + 4 * row.length;
    for (let i = 0; i < row.length; i++) {
      const value = row[i];
      if (value instanceof Uint8Array) size += value.byteLength;
      else if (value !== null) size += types[i] === "text" ? 3 * String(value).length : 8;
    }
  }
  return size;
}

/** Rows (cells in the order of `types`) as one piece of COPY binary data. */
export function encodeRows(rows: Cell[][], types: CopyType[]): Buffer {
  const out = Buffer.allocUnsafe(bound(rows, types));
  let at = 0;
  for (const row of rows) {
    at = out.writeInt16BE(row.length, at);
    for (let i = 0; i < row.length; i++) {
      const value = row[i]!;
      if (value === null) {
        at = out.writeInt32BE(-1, at);
      } else if (value instanceof Uint8Array) {
        at = out.writeInt32BE(value.byteLength, at);
        out.set(value, at);
        at += value.byteLength;
      } else if (types[i] === "text") {
        const bytes = out.write(String(value), at + 4, "utf8");
        out.writeInt32BE(bytes, at);
        at += 4 + bytes;
      } else if (types[i] === "bool") {
        at = out.writeInt32BE(1, at);
        at = out.writeUInt8(value ? 1 : 0, at);
      } else {
        at = out.writeInt32BE(8, at);
        at = out.writeBigInt64BE(BigInt(value), at);
      }
    }
  }
  return out.subarray(0, at);
}
