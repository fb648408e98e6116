/** Flags and environment -> one typed Config. Flags win over the environment, which wins over defaults. */

export interface Config {
  host: string;
  port: number;
  /** A SQLite file path, or a postgres:// URL. */
  db: string;
  /** redis:// URL: rate-limit and lockout windows shared by every instance; unset keeps them in process. */
  redis: string | undefined;
  /** Namespace of this deployment's keys in Redis. */
  redisPrefix: string;
  /** Absolute base for `Location`, `Link` and `url` fields; derived from each request's Host when unset. */
  baseUrl: string | undefined;
  /** Largest accepted request body, in bytes. */
  bodyLimit: number;
  rateLimit: {
    /** Requests per window for an authenticated user (GitHub: 5000/hour). */
    authenticated: number;
    /** Requests per window for one anonymous client IP (GitHub: 60/hour). */
    anonymous: number;
    windowSeconds: number;
  };
  loginLockout: {
    /** Failed logins for one account within the window before every login is refused. */
    maxAttempts: number;
    windowSeconds: number;
  };
  feeds: {
    /** GitHub stops at 300 events; null serves the whole history. */
    maxEvents: number | null;
    /** GitHub leaves out events older than 30 days; null serves the whole history. */
    maxAgeSeconds: number | null;
    /** Memory for cached feed pages, in bytes; 0 turns the cache off. */
    cacheBytes: number;
  };
  /** Largest body `POST /admin/events` and `POST /admin/world` accept, in bytes. */
  adminBodyLimit: number;
  logLevel: string;
}

export const DEFAULT_DB = "./data/feedgate.db";

export interface ConfigInput {
  host?: string;
  port?: string | number;
  db?: string;
  redis?: string;
  redisPrefix?: string;
  baseUrl?: string;
  bodyLimit?: string | number;
  rateLimitAuthenticated?: string | number;
  rateLimitAnonymous?: string | number;
  rateLimitWindow?: string | number;
  loginMaxAttempts?: string | number;
  loginWindow?: string | number;
  feedMaxEvents?: string | number;
  feedMaxAge?: string | number;
  feedCacheMb?: string | number;
  adminBodyLimit?: string | number;
  logLevel?: string;
}

function positiveInteger(name: string, value: string | number | undefined, fallback: number): number {
  if (value === undefined || value === "") return fallback;
  const n = typeof value === "number" ? value : Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got "${value}"`);
  return n;
}

const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400 };

/** A duration such as `30d`, `12h`, `45m`, `90s` or plain seconds. */
function duration(name: string, value: string | number | undefined): number | null {
  if (value === undefined || value === "") return null;
  const match = /^([0-9]+)([smhd]?)$/.exec(String(value).trim());
  if (!match) throw new Error(`${name} must be a duration such as 30d, 12h, 45m or 90s, got "${value}"`);
  return Number(match[1]) * UNIT_SECONDS[match[2] || "s"]!;
}

function optionalPositive(name: string, value: string | number | undefined): number | null {
  if (value === undefined || value === "") return null;
  const n = positiveInteger(name, value, 0);
  if (n === 0) throw new Error(`${name} must be at least 1`);
  return n;
}

function normalizeBaseUrl(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const url = new URL(value); // throws a clear "Invalid URL" for nonsense
  return url.toString().replace(/\/+$/, "");
}

export function loadConfig(input: ConfigInput = {}, env: NodeJS.ProcessEnv = process.env): Config {
  return {
    host: input.host ?? env.HOST ?? "127.0.0.1",
    port: positiveInteger("port", input.port ?? env.PORT, 3000),
    db: input.db ?? env.FEEDGATE_DB ?? DEFAULT_DB,
    redis: input.redis ?? (env.FEEDGATE_REDIS || undefined),
    redisPrefix: input.redisPrefix ?? env.FEEDGATE_REDIS_PREFIX ?? "feedgate:",
    baseUrl: normalizeBaseUrl(input.baseUrl ?? env.FEEDGATE_BASE_URL),
    bodyLimit: positiveInteger("body limit", input.bodyLimit ?? env.FEEDGATE_BODY_LIMIT, 1024 * 1024),
    rateLimit: {
      authenticated: positiveInteger("authenticated rate limit",
        input.rateLimitAuthenticated ?? env.FEEDGATE_RATE_LIMIT_AUTHENTICATED, 5000),
      anonymous: positiveInteger("anonymous rate limit", input.rateLimitAnonymous ?? env.FEEDGATE_RATE_LIMIT_ANONYMOUS, 60),
      windowSeconds: positiveInteger("rate limit window", input.rateLimitWindow ?? env.FEEDGATE_RATE_LIMIT_WINDOW, 3600),
    },
    loginLockout: {
      maxAttempts: positiveInteger("login attempts", input.loginMaxAttempts ?? env.FEEDGATE_LOGIN_MAX_ATTEMPTS, 10),
      windowSeconds: positiveInteger("login window", input.loginWindow ?? env.FEEDGATE_LOGIN_WINDOW, 300),
    },
    feeds: {
      maxEvents: optionalPositive("feed max events", input.feedMaxEvents ?? env.FEEDGATE_FEED_MAX_EVENTS),
      maxAgeSeconds: duration("feed max age", input.feedMaxAge ?? env.FEEDGATE_FEED_MAX_AGE),
      cacheBytes: positiveInteger("feed cache size", input.feedCacheMb ?? env.FEEDGATE_FEED_CACHE_MB, 32) * 1024 * 1024,
    },
    adminBodyLimit: positiveInteger("admin body limit", input.adminBodyLimit ?? env.FEEDGATE_ADMIN_BODY_LIMIT, 64 * 1024 * 1024),
    logLevel: input.logLevel ?? env.LOG_LEVEL ?? "info",
  };
}
