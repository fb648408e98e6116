/**
 * Request bodies of recorded webhook attempts past a size are stored gzip-compressed (migration 16's
 * `request_body_gzip`, `request_body` then empty) and given back whole when read: a delivery's `request.payload` is
 * the same either way, so nothing is lost, while a push's JSON, mostly repeated keys and URLs, takes a fifth of the
 * room. A large body is (de)compressed by zlib's asynchronous calls, on libuv's thread pool, not on the event loop.
 */
import { promisify } from "node:util";
import { constants, gunzip, gunzipSync, gzip, gzipSync } from "node:zlib";

/** Bodies up to this many bytes are stored as text: compressing a small body saves little and costs a call. */
export const COMPRESS_ABOVE = 4096;

const gzipped = promisify(gzip);
/**
 * zlib's fastest level: a delivery's body is compressed once per attempt, on the hot path of every delivery, and
 * read back rarely; level 1 costs a fraction of the default's CPU for a little more room. Any level inflates alike.
 */
const LEVEL = { level: constants.Z_BEST_SPEED };
const gunzipped = promisify(gunzip);

/**
 * Bodies up to this many bytes are compressed on the calling thread. An asynchronous call costs about three times the
 * CPU of the compression itself for a body of a few KB (a stream, a hop to the thread pool and back), while level 1
 * takes some 0.1 ms for a push's 10 KB: below this size the round trip costs more than it spares the event loop.
 */
const COMPRESS_IN_THREAD_UP_TO = 64 * 1024;

/** The compressed body when it is past COMPRESS_ABOVE bytes, else null (stored as text). */
export async function packBody(payload: string): Promise<Buffer | null> {
  const bytes = Buffer.byteLength(payload);
  if (bytes <= COMPRESS_ABOVE) return null;
  return bytes <= COMPRESS_IN_THREAD_UP_TO ? gzipSync(payload, LEVEL) : gzipped(payload, LEVEL);
}

/** The body as sent: the text column, or the compressed one inflated. */
export async function unpackBody(text: string, packed: Uint8Array | null): Promise<string> {
  return packed ? (await gunzipped(packed)).toString("utf8") : text;
}

/** unpackBody on the calling thread: for a SQLite transaction, which cannot wait for the thread pool. */
export function unpackBodySync(text: string, packed: Uint8Array | null): string {
  return packed ? gunzipSync(packed).toString("utf8") : text;
}
