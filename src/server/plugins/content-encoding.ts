/**
 * `Content-Encoding: gzip` request bodies, for the admin ingest routes: GH Archive hours come gzipped, and an
 * hour is a tenth of its size that way on the wire. Decompressed as it arrives (node:zlib, streaming), and the
 * route's body limit counts the decompressed bytes, so a small gzip bomb is a 413, stopped as soon as the limit
 * is passed, not after inflating it whole. Fastify's own limit check reads `receivedEncodedLength` (the bytes
 * that came over the wire) to compare with Content-Length; https://fastify.dev/docs/latest/Reference/Hooks/#preparsing
 */
import type { Readable } from "node:stream";
import { Transform } from "node:stream";
import { createGunzip } from "node:zlib";
import type { FastifyReply, FastifyRequest } from "fastify";
import { ApiError } from "../errors.js";

type Payload = Readable & { receivedEncodedLength?: number };

const tooLarge = () => new ApiError(413, "Request body is too large");

/** Which encoding a request says its body has; `identity` (or none) means as is. */
function encodingOf(request: FastifyRequest): string {
  const header = request.headers["content-encoding"];
  return (Array.isArray(header) ? header.join(",") : (header ?? "")).trim().toLowerCase() || "identity";
}

/** The body inflated, at most `limit` bytes of it. */
function gunzipped(payload: Payload, limit: number): Payload {
  const gunzip = createGunzip();
  let inflated = 0;
  const body: Transform & Payload = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      inflated += chunk.length;
      done(inflated > limit ? tooLarge() : null, chunk);
    },
  });
  body.receivedEncodedLength = 0;
  payload.on("data", (chunk: Buffer) => (body.receivedEncodedLength! += chunk.length));
  // The request stream itself is never destroyed: the socket must stay to carry the 400 or 413.
  gunzip.on("error", () => body.destroy(new ApiError(400, "Problems decompressing the body: it is not valid gzip")));
  body.on("error", () => {
    payload.unpipe(gunzip);
    gunzip.destroy(); // no more inflating for an answer already decided
  });
  payload.pipe(gunzip).pipe(body);
  return body;
}

/** A preParsing hook: gzip bodies inflated within `limit`, bodies as is passed on, anything else 415. */
export function decodeContentEncoding(limit: number) {
  return async (request: FastifyRequest, _reply: FastifyReply, payload: Payload): Promise<Payload> => {
    const encoding = encodingOf(request);
    if (encoding === "identity") return payload;
    if (encoding === "gzip" || encoding === "x-gzip") return gunzipped(payload, limit);
    throw new ApiError(415, `Unsupported Content-Encoding "${encoding}": send the body as is, or gzip it`);
  };
}
