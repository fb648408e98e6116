/**
 * `--stale-if-error`: while the database cannot be reached, an anonymous request for a feed page this instance
 * answered recently gets that page again, marked stale, instead of a 503 (RFC 5861 section 4, done by the origin
 * itself). Everything else still gets the 503 with Retry-After (the error handler).
 *
 * Only pages answered to requests that carried no credentials are recorded, and only such requests are answered from
 * them: those pages hold public events only, the same for every anonymous caller, so a stale answer never shows a
 * private event or another caller's view. A request with credentials cannot have them checked during an outage, so
 * it gets the 503 even for a public feed.
 *
 * The stale answer says so twice: `Age` (RFC 9111 5.1), the seconds since the database last confirmed the page, which
 * every HTTP cache and client understands; and `Warning: 110 - "Response is Stale"`, the marker RFC 5861 prescribes
 * (RFC 9111 obsoletes Warning, but it is still the one header that means exactly this). Its ETag is the page's own, so
 * a poller's If-None-Match gets 304 as before.
 *
 * Registered before the conditional plugin: its onSend hook sees the 200 and its body even when a 304 then leaves, so
 * a 304 counts as the database confirming the page.
 */
import fp from "fastify-plugin";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Counter } from "prom-client";
import { endpoints, type Endpoint } from "../../api/endpoints.js";
import type { StoreUnavailableError } from "../failures.js";
import type { StalePage, StalePages } from "../services/stale-pages.js";
import { wantsStream } from "../streams/resume.js";
import { readCredentials } from "./auth.js";

/** The feed rows of the endpoint table: the routes whose pages are kept (the id-based paths serve the same rows). */
const FEEDS = new Set<Endpoint>(Object.values(endpoints.events));

export const STALE_WARNING = '110 - "Response is Stale"';

declare module "fastify" {
  interface FastifyRequest {
    /** Set when the answer is a stale page, so it is not recorded as a fresh one. */
    servedStale: boolean;
  }
}

function header(request: FastifyRequest, name: string): string {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(",") : (value ?? "");
}

/** Whether the request is an anonymous one for a feed page: the only kind recorded and answered stale. */
function isAnonymousFeedPage(request: FastifyRequest): boolean {
  const endpoint = request.routeOptions.config?.endpoint;
  if (!endpoint || !FEEDS.has(endpoint) || request.principal !== null || wantsStream(request)) return false;
  try {
    // The auth plugin may not have run (the store's version is read first, and that is what failed).
    return readCredentials(request).type === "none";
  } catch {
    return false;
  }
}

/**
 * Everything the bytes depend on besides the database: the absolute URLs in them (scheme, host, /api/v3), the page
 * and its query, and the media type and API version asked for.
 */
function keyOf(request: FastifyRequest): string {
  return `${request.baseUrl}${request.url}\n${header(request, "accept")}\n${header(request, "x-github-api-version")}`;
}

export interface StaleIfError {
  /** Answers `request` with its stale page when it has one within the window; false when it must get the 503. */
  answer(request: FastifyRequest, reply: FastifyReply, outage: StoreUnavailableError): boolean;
}

/** Records each anonymous feed page answered 200 (a 304 included: it confirms the page). */
export default fp<{ pages: StalePages }>(
  async (app, { pages }) => {
    app.decorateRequest("servedStale", false);
    if (!pages.enabled) return;
    app.addHook("onSend", (request, reply, payload, done) => {
      if (
        request.method === "GET" &&
        reply.statusCode === 200 &&
        !request.servedStale &&
        Buffer.isBuffer(payload) &&
        isAnonymousFeedPage(request)
      )
        record(request, reply, payload);
      done(null, payload);
    });

    function record(request: FastifyRequest, reply: FastifyReply, payload: Buffer): void {
      const etag = reply.getHeader("etag");
      if (typeof etag !== "string") return;
      const key = keyOf(request);
      const page: StalePage = {
        body: payload,
        etag,
        contentType: String(reply.getHeader("content-type") ?? "application/json; charset=utf-8"),
        link: reply.getHeader("link") as string | undefined,
        pollInterval: reply.getHeader("x-poll-interval") as string | undefined,
        lastModified: request.lastModified,
      };
      const confirm = () => {
        if (!pages.confirm(key, etag)) pages.record(key, page);
      };
      confirm();
      // The same answer given again (../repeats/) is the database confirming the page again.
      request.onRepeat = confirm;
    }
  },
  { name: "stale-if-error", dependencies: ["request-context"] },
);

/** What the error handler asks on an outage. @param served counts the stale answers. */
export function staleAnswers(pages: StalePages, served?: Counter): StaleIfError {
  return {
    answer(request, reply, outage) {
      // With the rate-limit store away, no limit can be checked, and every request is refused rather than served
      // unlimited (docs/scale-out.md): a stale page would be served without one.
      if (outage.store !== "the database") return false;
      if (!pages.enabled || (request.method !== "GET" && request.method !== "HEAD") || !isAnonymousFeedPage(request))
        return false;
      const page = pages.answer(keyOf(request));
      if (!page) return false;
      request.servedStale = true;
      request.lastModified = page.lastModified; // the conditional plugin answers If-Modified-Since from it
      served?.inc();
      request.log.warn(
        { err: outage.cause, ageSeconds: page.ageSeconds },
        "served a stale feed page: the database cannot be reached",
      );
      reply
        .code(200)
        .type(page.contentType)
        .header("ETag", page.etag)
        .header("Age", String(page.ageSeconds))
        .header("Warning", STALE_WARNING);
      if (page.link) reply.header("Link", page.link);
      if (page.pollInterval) reply.header("X-Poll-Interval", page.pollInterval);
      reply.send(page.body);
      return true;
    },
  };
}
