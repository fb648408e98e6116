/** Flags and environment -> one typed Config. Flags win over the environment, which wins over defaults. */

export interface Config {
  host: string;
  port: number;
  /** SQLite file path. */
  db: string;
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
  logLevel: string;
}

export const DEFAULT_DB = "./data/feedgate.db";

export interface ConfigInput {
  host?: string;
  port?: string | number;
  db?: string;
  baseUrl?: string;
  bodyLimit?: string | number;
  rateLimitAuthenticated?: string | number;
  rateLimitAnonymous?: string | number;
  rateLimitWindow?: string | number;
  loginMaxAttempts?: string | number;
  loginWindow?: string | number;
  logLevel?: string;
}

function positiveInteger(name: string, value: string | number | undefined, fallback: number): number {
  if (value === undefined || value === "") return fallback;
  const n = typeof value === "number" ? value : Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got "${value}"`);
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
    logLevel: input.logLevel ?? env.LOG_LEVEL ?? "info",
  };
}
