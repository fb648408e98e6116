/**
 * Headers GitHub sends on every response (wire notes 1.6, 2.6, 3.5): `Status`, the media type, a request id,
 * `Vary` and `Cache-Control`. One place, so no route forgets them.
 */
import { STATUS_CODES } from "node:http";
import fp from "fastify-plugin";
import { isEventStream } from "../streams/resume.js";

declare module "fastify" {
  interface FastifyContextConfig {
    /** Answers no cache may keep even for a minute (git's refs, which a push changes): `no-cache`. */
    uncached?: boolean;
  }
}

const VARY = "Accept, Authorization, Cookie, X-GitHub-OTP, X-Service-OTP, Accept-Encoding";

/** `Status` values by code, made once: the header is on every response. */
const STATUS_LINES = new Map<number, string>();
function statusLine(status: number): string {
  let line = STATUS_LINES.get(status);
  if (line === undefined) STATUS_LINES.set(status, (line = `${status} ${STATUS_CODES[status] ?? ""}`.trim()));
  return line;
}

const PUBLIC_CACHE = "public, max-age=60, s-maxage=60";
const PRIVATE_CACHE = "private, max-age=60, s-maxage=60";

export default fp(
  async (app) => {
    app.addHook("onSend", (request, reply, payload, done) => {
      const status = reply.statusCode;
      reply.header("Status", statusLine(status));
      reply.header("X-GitHub-Media-Type", "github.v3; format=json");
      reply.header("X-GitHub-Request-Id", request.id);
      reply.header("X-Content-Type-Options", "nosniff");
      reply.header("Vary", VARY);
      if (isEventStream(reply) || request.routeOptions.config?.uncached) {
        // A live stream: nothing in it may be kept and replayed by a cache (https://html.spec.whatwg.org/#authoring-notes).
        // Git's refs neither: git-http-backend sends them `no-cache`, so that a clone after a push sees the push.
        reply.header("Cache-Control", "no-cache");
      } else if (request.method === "GET" && (status === 200 || status === 304)) {
        reply.header("Cache-Control", request.principal ? PRIVATE_CACHE : PUBLIC_CACHE);
      } else {
        // Responses to writes may carry a new token: no cache may keep them.
        reply.header("Cache-Control", "no-store");
      }
      if (status === 204 || status === 304) reply.removeHeader("Content-Type");
      done(null, payload);
    });
  },
  { name: "response-headers" },
);
