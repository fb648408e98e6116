/**
 * Rate limits as GitHub reports them (wire notes 3.2): a window per user when authenticated (per installation for an
 * installation token), per client IP otherwise; `X-RateLimit-*` on every response; 403 with GitHub's message when spent. A 304 gives its hit
 * back, because conditional requests are free on GitHub and pollers depend on that. An operation whose table row
 * has a window of its own (`rateLimit`: credential revocation) is counted there instead, per client IP.
 */
import fp from "fastify-plugin";
import { rateLimitWindow } from "../convert/meta.js";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Counter } from "prom-client";
import type { WindowCounters } from "../counters/counters.js";
import {
  type Charge,
  type CoreLimits,
  givesHitBack,
  isOver,
  RateLimitRule,
  windowFor,
} from "../counters/rate-limit-rule.js";
import { ApiError } from "../errors.js";
import type { OwnRateLimit, RateLimitState } from "../../api/rate-limit.js";

export interface RateLimitOptions extends CoreLimits {
  counters: WindowCounters;
  /** Counts the requests refused for a spent limit. */
  refused?: Counter;
}

const DOCS = "https://developer.github.com/v3/#rate-limiting";

/** The route's own window, from its table row, if it has one. */
const ownLimit = (request: FastifyRequest): OwnRateLimit | undefined =>
  request.routeOptions.config?.endpoint?.rateLimit;

/** An installation token's installation and rate scale, for its own window. */
function installationOf(request: FastifyRequest): { id: number; scale: number } | undefined {
  const grant = request.principal?.kind === "token" ? request.principal.authorization.fineGrained : null;
  return grant?.installationId === undefined ? undefined : { id: grant.installationId, scale: grant.rateScale ?? 0 };
}

function exceeded(request: FastifyRequest): ApiError {
  const own = ownLimit(request);
  if (own) {
    const who = own.per === "user" && request.principal ? `user ID ${request.principal.user.id}` : request.ip;
    return new ApiError(own.status, `API rate limit exceeded for ${who}.`, {
      code: "FEEDGATE_RATE_LIMIT_EXCEEDED",
      documentationUrl: request.routeOptions.config.endpoint!.documentationUrl,
    });
  }
  const installation = installationOf(request);
  const message = installation
    ? `API rate limit exceeded for installation ID ${installation.id}.`
    : request.principal
      ? `API rate limit exceeded for user ID ${request.principal.user.id}.`
      : `API rate limit exceeded for ${request.ip}. (But here's the good news: Authenticated requests get a higher ` +
        "rate limit. Check out the documentation for more details.)";
  return new ApiError(403, message, { code: "FEEDGATE_RATE_LIMIT_EXCEEDED", documentationUrl: DOCS });
}

export default fp<RateLimitOptions>(
  async (app, options) => {
    const rule = new RateLimitRule(options.counters);

    /** The caller's window (counters/rate-limit-rule.ts windowFor): the operation's own, or the core one. */
    const windowOf = (request: FastifyRequest) =>
      windowFor(
        {
          userId: request.principal?.user.id ?? null,
          ip: request.ip,
          own: ownLimit(request),
          installation: installationOf(request),
        },
        options,
      );

    /** Counts this request against its caller's window (once) and remembers the state for the headers. */
    async function charge(request: FastifyRequest): Promise<Charge> {
      request.rateLimit ??= await rule.charge(windowOf(request), request.receivedAt);
      return request.rateLimit;
    }

    // `GET /rate_limit` reads the same counters without charging them (GitHub: "does not count against your limit"),
    // once: its body and its headers report the same reading.
    const statuses = new WeakMap<FastifyRequest, Promise<Charge>>();
    function status(request: FastifyRequest): Promise<Charge> {
      let reading = statuses.get(request);
      if (!reading) statuses.set(request, (reading = rule.status(windowOf(request), request.receivedAt)));
      return reading;
    }
    app.decorate("rateLimitStatus", status);

    function writeHeaders(request: FastifyRequest, reply: FastifyReply, state: RateLimitState) {
      const { limit, remaining, reset, used } = rateLimitWindow(state);
      reply.header("X-RateLimit-Limit", String(limit));
      reply.header("X-RateLimit-Remaining", String(remaining));
      reply.header("X-RateLimit-Reset", String(reset));
      reply.header("X-RateLimit-Used", String(used));
      reply.header("X-RateLimit-Resource", ownLimit(request)?.resource ?? "core");
    }

    // Runs after the auth hook (registration order), so the window is the caller's.
    const exempt = (request: FastifyRequest) => request.routeOptions.config?.rateLimit === false;
    const uncounted = (request: FastifyRequest) => request.routeOptions.config?.rateLimit === "uncounted";

    app.addHook("onRequest", async (request) => {
      if (exempt(request) || uncounted(request)) return;
      if (isOver(await charge(request))) {
        options.refused?.inc();
        throw exceeded(request);
      }
    });

    /** The window's state for the headers, after giving back a 304's hit; null when the counters went away. */
    async function settle(request: FastifyRequest, reply: FastifyReply): Promise<RateLimitState | null> {
      // Requests refused before this plugin's onRequest (bad credentials, unsupported version) still count,
      // against the client IP, as GitHub's 401s do.
      try {
        request.rateLimit = await rule.settle(await charge(request), reply.statusCode, request.receivedAt);
        return request.rateLimit;
      } catch (error) {
        // The counters went away while answering: the response goes out without rate-limit headers.
        request.log.warn({ err: error }, "rate-limit counters unavailable");
        return null;
      }
    }

    app.addHook("onSend", (request, reply, payload, done) => {
      if (exempt(request)) return done(null, payload);
      if (uncounted(request)) {
        status(request).then(
          (state) => {
            writeHeaders(request, reply, state);
            done(null, payload);
          },
          (error: unknown) => {
            request.log.warn({ err: error }, "rate-limit counters unavailable");
            done(null, payload);
          },
        );
        return;
      }
      const charged = request.rateLimit;
      // Charged already and nothing to give back (most responses): no counter to wait for.
      if (charged && !givesHitBack(charged, reply.statusCode)) {
        writeHeaders(request, reply, charged);
        return done(null, payload);
      }
      settle(request, reply).then((state) => {
        if (state) writeHeaders(request, reply, state);
        done(null, payload);
      }, done);
    });
  },
  { name: "rate-limit", dependencies: ["request-context", "auth"] },
);
