/**
 * What the plugins attach to a request, and the route config that carries each route's endpoint row.
 * The declarations live here so every plugin and route sees one definition; this plugin runs first and
 * fixes the request's clock and base URL.
 */
import fp from "fastify-plugin";
import type { Endpoint } from "../../api/endpoints.js";
import type { Principal } from "../services/authenticator.js";

export interface RateLimitState {
  key: string;
  limit: number;
  used: number;
  resetAt: Date;
}

declare module "fastify" {
  interface FastifyContextConfig {
    /** The endpoint-table row a route serves; plugins read its auth rule, scopes and documentation URL. */
    endpoint?: Endpoint;
    /** false for probes (`/healthz`, `/readyz`) that load balancers poll: they neither count nor get headers. */
    rateLimit?: boolean;
  }
  interface FastifyRequest {
    /** null for anonymous callers; set by the auth plugin before any handler runs. */
    principal: Principal | null;
    /** Absolute URL prefix for `Location`, `Link` and `url` fields. */
    baseUrl: string;
    rateLimit: RateLimitState | null;
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
}

export default fp<RequestContextOptions>(async (app, { clock, baseUrl }) => {
  app.decorateRequest("baseUrl", "");
  app.decorateRequest("rateLimit", null);
  app.decorateRequest("lastModified", null);
  app.decorateRequest("receivedAt", null as unknown as Date);
  app.addHook("onRequest", async (request) => {
    request.receivedAt = clock();
    request.baseUrl = baseUrl ?? `${request.protocol}://${request.host}`;
  });
}, { name: "request-context" });
