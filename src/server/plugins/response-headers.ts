/**
 * Headers GitHub sends on every response (wire notes 1.6, 2.6, 3.5): `Status`, the media type, a request id,
 * `Vary` and `Cache-Control`. One place, so no route forgets them.
 */
import { STATUS_CODES } from "node:http";
import fp from "fastify-plugin";
import { isEventStream } from "../streams/resume.js";

const VARY = "Accept, Authorization, Cookie, X-GitHub-OTP, X-Service-OTP, Accept-Encoding";

export default fp(async (app) => {
  app.addHook("onSend", async (request, reply, payload) => {
    const status = reply.statusCode;
    reply.header("Status", `${status} ${STATUS_CODES[status] ?? ""}`.trim());
    reply.header("X-GitHub-Media-Type", "github.v3; format=json");
    reply.header("X-GitHub-Request-Id", request.id);
    reply.header("X-Content-Type-Options", "nosniff");
    reply.header("Vary", VARY);
    if (isEventStream(reply)) {
      // A live stream: nothing in it may be kept and replayed by a cache (https://html.spec.whatwg.org/#authoring-notes).
      reply.header("Cache-Control", "no-cache");
    } else if (request.method === "GET" && (status === 200 || status === 304)) {
      const audience = request.principal ? "private" : "public";
      reply.header("Cache-Control", `${audience}, max-age=60, s-maxage=60`);
    } else {
      // Responses to writes may carry a new token: no cache may keep them.
      reply.header("Cache-Control", "no-store");
    }
    if (status === 204 || status === 304) reply.removeHeader("Content-Type");
    return payload;
  });
}, { name: "response-headers" });
