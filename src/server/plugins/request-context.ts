/**
 * What the plugins attach to a request, and the route config that carries each route's endpoint row.
 * The declarations live here so every plugin and route sees one definition; this plugin runs first and
 * fixes the request's clock and base URL.
 */
import fp from "fastify-plugin";
import type { FastifyRequest } from "fastify";
import { ApiError, GENERAL_DOCS } from "../errors.js";
import type { Endpoint } from "../../api/endpoints.js";
import type { RateLimitState } from "../../api/rate-limit.js";
import type { Principal } from "../services/authenticator.js";
import { apiPrefixOf, withApiPrefix } from "./api-prefix.js";

declare module "fastify" {
  interface FastifyContextConfig {
    /** The endpoint-table row a route serves; plugins read its auth rule, scopes and documentation URL. */
    endpoint?: Endpoint;
    /**
     * false for probes (`/healthz`, `/readyz`) that load balancers poll: they neither count nor get headers.
     * "uncounted" (`GET /rate_limit`): not counted, but with the headers of the caller's window as it stands.
     */
    rateLimit?: boolean | "uncounted";
  }
  interface FastifyInstance {
    /** The caller's rate-limit window as it stands, without counting this request (`GET /rate_limit`). */
    rateLimitStatus(request: FastifyRequest): Promise<RateLimitState>;
  }
  interface FastifyRequest {
    /** null for anonymous callers; set by the auth plugin before any handler runs. */
    principal: Principal | null;
    /**
     * Absolute URL prefix for `Location`, `Link` and `url` fields: the configured base URL or the request's origin,
     * plus `/api/v3` when the request came under it (./api-prefix.ts).
     */
    baseUrl: string;
    /** The window this request was charged to, and its length (a repeated answer is charged to it again). */
    rateLimit: (RateLimitState & { seconds: number }) | null;
    /** The time that `Last-Modified` reports; set by handlers whose resource has one. */
    lastModified: Date | null;
    /** Cached so that one request sees one "now" across every plugin. */
    receivedAt: Date;
  }
}

export interface RequestContextOptions {
  clock: () => Date;
  /** Configured public base URL; when unset, each request's own scheme and Host are used. */
  baseUrl: string | undefined;
  /** The `Date` header from the clock (a test's, which may stand anywhere) rather than Node's reading of the wall clock. */
  dateHeader?: boolean;
}

/** A host as a URL can carry it: a name or IPv4 address, or an IPv6 address in brackets, and an optional port. */
const HOST = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._~-]+)(?::[0-9]{1,5})?$/;

/**
 * The scheme and host that absolute URLs in the answer use: the request's own (through trusted proxies, the
 * forwarded ones). HTTP/1.0 allows a request without Host, and Node passes an empty one: those get the address the
 * request arrived at. A Host that is no host at all is refused (RFC 9112 3.2), rather than built into broken URLs.
 */
function requestOrigin(request: FastifyRequest): string {
  const protocol = request.protocol === "https" ? "https" : "http";
  const host = request.host;
  if (host && HOST.test(host) && URL.canParse(`${protocol}://${host}`)) return `${protocol}://${host}`; // ports <= 65535, IPv4 of four parts
  if (host)
    throw new ApiError(400, "Bad Request: the Host header is not a valid host", { documentationUrl: GENERAL_DOCS });
  const { localAddress = "127.0.0.1", localPort } = request.socket;
  const address = localAddress.includes(":") ? `[${localAddress}]` : localAddress;
  return `${protocol}://${address}${localPort ? `:${localPort}` : ""}`;
}

/**
 * Origins already checked, by Host (and scheme): a poller sends the same Host on every request, and the checks
 * (a regular expression and a URL parse) were a visible share of a 304's CPU. Bounded by clearing: a client cycling
 * through Host values gets its checks made again, never a wrong answer.
 */
const ORIGINS_KEPT = 1_000;
const checkedOrigins = new Map<string, string>();

function cachedRequestOrigin(request: FastifyRequest): string {
  const host = request.host;
  if (!host) return requestOrigin(request); // HTTP/1.0 without Host: the socket's address, not a constant
  const key = `${request.protocol}\n${host}`;
  let origin = checkedOrigins.get(key);
  if (origin === undefined) {
    origin = requestOrigin(request); // throws for a Host that is no host: never kept
    if (checkedOrigins.size >= ORIGINS_KEPT) checkedOrigins.clear();
    checkedOrigins.set(key, origin);
  }
  return origin;
}

export default fp<RequestContextOptions>(
  async (app, { clock, baseUrl, dateHeader = false }) => {
    app.decorateRequest("baseUrl", "");
    app.decorateRequest("rateLimit", null);
    app.decorateRequest("lastModified", null);
    app.decorateRequest("receivedAt", null as unknown as Date);
    // Synchronous (done-callback) hooks here and in the other plugins that do no I/O: an async hook costs every
    // request a promise and a turn of the microtask queue.
    app.addHook("onRequest", (request, reply, done) => {
      request.receivedAt = clock();
      request.baseUrl = withApiPrefix(baseUrl ?? cachedRequestOrigin(request), apiPrefixOf(request.raw));
      if (dateHeader) reply.header("date", request.receivedAt.toUTCString());
      done();
    });
  },
  { name: "request-context" },
);
