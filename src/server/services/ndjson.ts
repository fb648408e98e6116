/**
 * Streams NDJSON, plain or gzip (detected from the first bytes, not the file name), line by line in constant
 * memory, counting the bytes read so callers can report progress.
 */
import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";
import { PassThrough, type Readable } from "node:stream";
import { createGunzip } from "node:zlib";

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
    rest.once("error", (error) => decoded.destroy(new Error(`${name}: ${error.message}`)));
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
    for await (const text of createInterface({ input: decoded, crlfDelay: Infinity })) {
      number += 1;
      yield { number, text };
    }
  }
  return { name, lines: lines(), bytesRead: () => bytes };
}

export function ndjsonFromFile(path: string): NdjsonSource {
  return ndjsonFromStream(path, createReadStream(path));
}
