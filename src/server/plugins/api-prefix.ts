/**
 * GitHub Enterprise Server's layout: the API lives under `/api/v3` (`https://ghe.example/api/v3/events`), and the
 * clients that speak to an Enterprise host (gh for any host but github.com, Terraform's provider, go-github's
 * WithEnterpriseURLs, Octokit with a `baseUrl`) put that prefix before every path. feedgate answers both layouts.
 *
 * Fastify's `rewriteUrl` strips the prefix once, before routing, so every route is registered once (at `/`) and
 * any route registered later, in any plugin, is served under the prefix too without work of its own; the
 * metrics' route label stays the one pattern. The request remembers the prefix it came with (the raw request's
 * `originalUrl`), and request-context adds it to `request.baseUrl`, so `Link`, `Location` and `url` fields keep the
 * layout the caller used.
 *
 * Which routes are API: everything except what a route marks `rootOnly` in its config, and everything under a
 * root-only prefix the app names (the console, `/console`: a web page, not API). The probes (`/healthz`,
 * `/readyz`) and `/metrics` are for load balancers and scrapers, not API clients, and GitHub Enterprise serves
 * nothing of the kind under `/api/v3`: `/api/v3/healthz` is the ordinary 404. The API's own description
 * (`/openapi.json`, `/docs`) is API (GitHub Enterprise serves `/api/v3/meta` and the like): under the prefix its
 * `servers` URL carries the prefix, so "Try it out" stays in the layout the reader chose.
 *
 * Not done: `X-Forwarded-Prefix` (a proxy that mounts feedgate under a path of its own); `--base-url` with that
 * path covers such a proxy.
 */
import fp from "fastify-plugin";
import type { RawRequestDefaultExpression } from "fastify";

export const API_PREFIX = "/api/v3";

declare module "fastify" {
  interface FastifyContextConfig {
    /** Served at `/` only, never under `/api/v3`: not part of the API (probes, metrics). */
    rootOnly?: boolean;
  }
}

type RawRequest = RawRequestDefaultExpression & { originalUrl?: string };

/** The path without its query, as routes are matched. */
const pathOf = (url: string) => {
  const end = url.search(/[?#]/);
  return end === -1 ? url : url.slice(0, end);
};

/** The prefix the request came under: `/api/v3`, or "" for the root layout. */
export function apiPrefixOf(raw: RawRequest): string {
  return raw.originalUrl !== undefined && raw.originalUrl !== raw.url ? API_PREFIX : "";
}

/**
 * `request.baseUrl` for a request: the configured base URL, or the request's origin, plus the prefix the
 * request came under, unless the base URL already ends with it (`--base-url https://ghe.example/api/v3` behind a
 * proxy that passes the prefix through).
 */
export function withApiPrefix(base: string, prefix: string): string {
  return prefix && !base.endsWith(prefix) ? `${base}${prefix}` : base;
}

/**
 * The layout: Fastify's `rewriteUrl` option, and the plugin (registered before any route) that learns which routes
 * are `rootOnly` as they are registered.
 */
export function apiPrefixLayout(rootOnlyPrefixes: readonly string[] = []) {
  const rootOnly = new Set<string>();
  /** Paths under a root-only prefix (the console's `/console`), parametric routes included. */
  const underRootOnlyPrefix = (path: string) => rootOnlyPrefixes.some((p) => path === p || path.startsWith(`${p}/`));

  /** `/api/v3/events?page=2` -> `/events?page=2`; `/api/v3` and `/api/v3/` -> `/`; anything else as it came. */
  function rewriteUrl(raw: RawRequest): string {
    const url = raw.url ?? "/";
    if (!url.startsWith(API_PREFIX)) return url;
    const rest = url.slice(API_PREFIX.length);
    if (rest !== "" && !/^[/?#]/.test(rest)) return url; // `/api/v3x` is not under the prefix
    const stripped = rest.startsWith("/") ? rest : `/${rest}`;
    const path = pathOf(stripped);
    return rootOnly.has(path) || underRootOnlyPrefix(path) ? url : stripped;
  }

  const plugin = fp(
    async (app) => {
      app.addHook("onRoute", (route) => {
        if (route.config?.rootOnly) rootOnly.add(route.url);
      });
    },
    { name: "api-prefix" },
  );

  return { rewriteUrl, plugin };
}
