/**
 * Logger options: pino JSON lines. Secrets never reach a log: request lines carry the method, a URL with
 * credential parameters masked and the client address, never headers or bodies.
 */
import type { FastifyServerOptions } from "fastify";
import { createRequire } from "node:module";
import pino from "pino";
import type { LogFormat } from "./config.js";

/**
 * Query parameters that carry credentials: node-github's `access_token`, an OAuth app's `client_secret`, and the
 * OAuth flows' codes (`/login/oauth/access_token` reads its query too).
 */
const SECRET_PARAMETERS = new Set(["access_token", "client_secret", "code", "code_verifier", "device_code"]);

/**
 * Compares the name as the query parser reads it: it percent-decodes names, so `access%5Ftoken=` is the same
 * credential as `access_token=`. Case and an array suffix (`access_token[]`) are ignored to err on masking.
 */
function isSecretParameter(rawName: string): boolean {
  let name = rawName.replace(/\+/g, " ");
  try {
    name = decodeURIComponent(name);
  } catch {
    // malformed escapes: compare the raw text
  }
  return SECRET_PARAMETERS.has(name.toLowerCase().replace(/\[.*\]$/, ""));
}

/**
 * The URL with every credential parameter's value replaced, so tokens sent the node-github way stay out of logs.
 * Splits more eagerly than the router (also on `#` and `;`), since masking too much costs nothing.
 */
export function redactUrl(url: string): string {
  return url
    .replace(MANIFEST_CODE, "$1[REDACTED]$2")
    .replace(/([?&#;])([^?&#;=]*)=([^&#;]*)/g, (parameter, separator: string, name: string) =>
      isSecretParameter(name) ? `${separator}${name}=[REDACTED]` : parameter,
    );
}

/** The manifest flow's code, which GitHub puts in the path: `POST /app-manifests/{code}/conversions` (an hour, once). */
const MANIFEST_CODE = /(\/app-manifests\/)[^/?#]*(\/conversions)/i;

/**
 * Errors as pino writes them, less what can hold request bytes: Node's HTTP parser errors carry `rawPacket`, the
 * raw request with its Authorization header and access_token, and pino would print it at any level it is logged.
 */
function serializeError(error: Error) {
  const { rawPacket: _raw, ...rest } = pino.stdSerializers.err(error);
  return rest;
}

/**
 * Readable lines for a person at a terminal: time, level and message, then the fields. Written synchronously, so
 * that the last line before the process exits (`stopped`) is not lost.
 */
function prettyStream() {
  // Required here, not imported at the top: JSON lines (a service, CI, a script) need not load it.
  const pretty = createRequire(import.meta.url)("pino-pretty") as typeof import("pino-pretty");
  return pretty({
    colorize: process.stdout.isTTY === true,
    sync: true,
    translateTime: "SYS:HH:MM:ss.l",
    ignore: "pid,hostname",
  });
}

export function loggerOptions(level: string, format: LogFormat = "json"): FastifyServerOptions["logger"] {
  return {
    level,
    ...(format === "pretty" ? { stream: prettyStream() } : {}),
    serializers: {
      req: (request: {
        method: string;
        url: string;
        originalUrl?: string;
        ip?: string;
        socket?: { remoteAddress?: string };
      }) => ({
        method: request.method,
        // As the client sent it: `/api/v3/events`, not the path the router saw (plugins/api-prefix.ts).
        url: redactUrl(request.originalUrl ?? request.url),
        remoteAddress: request.ip ?? request.socket?.remoteAddress,
      }),
      err: serializeError,
    },
    // Defence in depth, should anything ever log a header object.
    redact: [
      "req.headers.authorization",
      "req.headers['x-github-otp']",
      "req.headers['x-service-otp']",
      "err.rawPacket",
      "rawPacket",
    ],
  };
}
