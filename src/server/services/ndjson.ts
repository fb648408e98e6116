/**
 * Streams NDJSON, plain or gzip (detected from the first bytes, not the file name), line by line in constant
 * memory, counting the bytes read so callers can report progress.
 */
import { createReadStream } from "node:fs";
import { PassThrough, type Readable } from "node:stream";
import { createGunzip } from "node:zlib";
import { InvalidInputError } from "../failures.js";

export interface NdjsonLine {
  /** 1-based, for error messages. */
  number: number;
  text: string;
}

export interface NdjsonSource {
  /** For messages: a file path, or "-" for standard input. */
  name: string;
  lines: AsyncIterable<NdjsonLine>;
  /** Bytes read from the source so far (compressed bytes for gzip). */
  bytesRead(): number;
}

const GZIP_MAGIC = [0x1f, 0x8b];
const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

/**
 * Lines of a UTF-8 byte stream, split on "\n" (a trailing "\r" dropped). Searching the bytes and decoding
 * each line once is about five times faster than node:readline, which decodes chunks to strings and splits
 * them with a regular expression; on a GH Archive import that was a sixth of the time. A "\n" byte never
 * occurs inside a multi-byte UTF-8 character, so a line is never cut through one.
 */
async function* splitLines(input: AsyncIterable<Buffer>): AsyncIterable<string> {
  let rest: Buffer | null = null;
  for await (const chunk of input) {
    const bytes: Buffer = rest ? Buffer.concat([rest, chunk]) : chunk;
    let start = 0;
    for (let end = bytes.indexOf(NEWLINE); end !== -1; end = bytes.indexOf(NEWLINE, start)) {
      yield bytes.toString("utf8", start, end > start && bytes[end - 1] === CARRIAGE_RETURN ? end - 1 : end);
      start = end + 1;
    }
    rest = start < bytes.length ? bytes.subarray(start) : null;
  }
  if (rest) yield rest.toString("utf8", 0, rest[rest.length - 1] === CARRIAGE_RETURN ? rest.length - 1 : rest.length);
}

/**
 * A gzip source zlib could not inflate, said as the operator's fix: an hourly GH Archive file cut short by a failed
 * download ends in zlib's "unexpected end of file" (Z_BUF_ERROR), which read as a bug; other damage is Z_DATA_ERROR.
 * Events read before the damage may have gone in, and a new import of the whole file skips them.
 */
function gzipFailure(name: string, error: NodeJS.ErrnoException): Error {
  const source = name === "-" ? "standard input" : name;
  const what =
    error.code === "Z_BUF_ERROR" ? "is truncated: its gzip data stops short" : "is corrupt: not valid gzip data";
  return new InvalidInputError(
    `${source} ${what} (${error.message}); download it again and import it again ` +
      "(events already imported are skipped)",
  );
}

/** Wraps a byte stream: counts what passes, and gunzips it when it starts with gzip's magic bytes. */
export function ndjsonFromStream(name: string, input: Readable): NdjsonSource {
  let bytes = 0;
  const decoded = new PassThrough();
  let decided = false;
  input.on("data", (chunk: Buffer) => {
    bytes += chunk.length;
  });
  input.once("error", (error) => decoded.destroy(error));
  const head = new PassThrough();
  head.once("data", (first: Buffer) => {
    decided = true;
    const gzipped = first[0] === GZIP_MAGIC[0] && first[1] === GZIP_MAGIC[1];
    const rest = gzipped ? createGunzip() : new PassThrough();
    rest.once("error", (error) =>
      decoded.destroy(gzipped ? gzipFailure(name, error) : new Error(`${name}: ${error.message}`)),
    );
    rest.pipe(decoded);
    rest.write(first);
    head.pipe(rest);
  });
  head.once("end", () => {
    if (!decided) decoded.end();
  });
  input.pipe(head);

  async function* lines(): AsyncIterable<NdjsonLine> {
    let number = 0;
    for await (const text of splitLines(decoded)) {
      number += 1;
      yield { number, text };
    }
  }
  return { name, lines: lines(), bytesRead: () => bytes };
}

export function ndjsonFromFile(path: string): NdjsonSource {
  // Large reads: fewer chunks to stitch lines across.
  return ndjsonFromStream(path, createReadStream(path, { highWaterMark: 1 << 20 }));
}
