/**
 * Logger options: pino JSON lines. Secrets never reach a log: request lines carry the method, a URL with
 * `access_token` masked and the client address, never headers or bodies.
 */
import type { FastifyServerOptions } from "fastify";

/** The URL with any `access_token` query value replaced, so tokens sent the node-github way stay out of logs. */
export function redactUrl(url: string): string {
  return url.replace(/([?&]access_token=)[^&#]*/gi, "$1[REDACTED]");
}

export function loggerOptions(level: string): FastifyServerOptions["logger"] {
  return {
    level,
    serializers: {
      req: (request: { method: string; url: string; ip?: string; socket?: { remoteAddress?: string } }) => ({
        method: request.method,
        url: redactUrl(request.url),
        remoteAddress: request.ip ?? request.socket?.remoteAddress,
      }),
    },
    // Defence in depth, should anything ever log a header object.
    redact: ["req.headers.authorization", "req.headers['x-github-otp']", "req.headers['x-service-otp']"],
  };
}
