/**
 * Conditional requests (wire notes 2.6): a strong ETag on every 200 GET, `Last-Modified` where the handler
 * set a time, and 304 with no body when `If-None-Match` matches or `If-Modified-Since` is not older.
 * Freshness is decided by `fresh`, the implementation Express and Koa use, so the RFC 9110 rules
 * (weak comparison, lists, `*`, If-None-Match taking precedence) are the standard ones.
 */
import { createHash } from "node:crypto";
import fp from "fastify-plugin";
import fresh from "fresh";

/** A strong ETag: the quoted SHA-256 of the body. */
export function strongEtag(body: string | Buffer): string {
  return `"${createHash("sha256").update(body).digest("hex")}"`;
}

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
