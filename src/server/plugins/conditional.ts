/**
 * Conditional requests (wire notes 2.6): a strong ETag on every 200 GET, `Last-Modified` where the handler
 * set a time, and 304 with no body when `If-None-Match` matches or `If-Modified-Since` is not older.
 * Freshness is decided by `fresh`, the implementation Express and Koa use, so the RFC 9110 rules
 * (weak comparison, lists, `*`, If-None-Match taking precedence) are the standard ones.
 */
import { hash } from "node:crypto";
import fp from "fastify-plugin";
import fresh from "fresh";

/** A strong ETag: the quoted SHA-256 of the body. */
export function strongEtag(body: string | Buffer): string {
  if (typeof body !== "string") return `"${hash("sha256", body, "hex")}"`;
  const known = recentEtags.get(body);
  if (known !== undefined) return known;
  const etag = `"${hash("sha256", body, "hex")}"`;
  if (body.length <= RECENT_BODY_CHARS) {
    recentBodyChars += body.length;
    if (recentBodyChars > RECENT_CHARS) {
      recentEtags.clear();
      recentBodyChars = body.length;
    }
    recentEtags.set(body, etag);
  }
  return etag;
}

/**
 * The ETags of bodies sent lately, by the body itself: a GET answered again with the same bytes (a repository read
 * while nothing changed) costs a string comparison instead of a SHA-256. Keyed by the whole text, so it can never
 * hand the ETag of other bytes; bounded by the characters it holds, and emptied when they exceed it.
 */
const recentEtags = new Map<string, string>();
let recentBodyChars = 0;
const RECENT_BODY_CHARS = 64 * 1024;
const RECENT_CHARS = 4 * 1024 * 1024;

export default fp(
  async (app) => {
    app.addHook("onSend", (request, reply, payload, done) => {
      if ((request.method !== "GET" && request.method !== "HEAD") || reply.statusCode !== 200)
        return done(null, payload);
      if (typeof payload !== "string" && !Buffer.isBuffer(payload)) return done(null, payload);

      // A handler that serves a cached body may set the ETag it computed once; everything else is hashed here.
      let etag = reply.getHeader("ETag") as string | undefined;
      if (etag === undefined) reply.header("ETag", (etag = strongEtag(payload)));
      const lastModified = request.lastModified?.toUTCString();
      if (lastModified !== undefined) reply.header("Last-Modified", lastModified);

      // `fresh` takes a request's `Cache-Control: no-cache` as a forced reload and never answers 304 to it, yet
      // the fetch standard adds that header to every request carrying If-None-Match or If-Modified-Since
      // (browsers, Node's fetch, hence Octokit and feedgate/client). The directive is for caches, not the
      // origin (RFC 9111 5.2.1.4), and GitHub answers such requests 304: decide on the validators alone.
      const headers = request.headers;
      const ifNoneMatch = headers["if-none-match"];
      const ifModifiedSince = headers["if-modified-since"];
      // Neither validator (most requests): nothing to compare.
      if (ifNoneMatch === undefined && ifModifiedSince === undefined) return done(null, payload);
      if (
        !fresh(
          { "if-none-match": ifNoneMatch, "if-modified-since": ifModifiedSince },
          { etag, "last-modified": lastModified },
        )
      ) {
        return done(null, payload);
      }
      reply.code(304);
      reply.removeHeader("Content-Type");
      reply.removeHeader("Content-Length");
      done(null, "");
    });
  },
  { name: "conditional" },
);
