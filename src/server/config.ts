/** Flags and environment -> one typed Config. Flags win over the environment, which wins over defaults. */
import { InvalidInputError } from "./failures.js";
import type { PoolLimits } from "./store/postgres/pool.js";
import { DEFAULT_PASSWORD_COST } from "./services/credentials.js";
import { AddressPolicy } from "./webhooks/address-policy.js";
import { DEFAULT_WEBHOOK_MAX_QUEUE } from "./store/store.js";

export interface Config {
  host: string;
  port: number;
  /** Serves `/metrics` on this port instead of `port` (which then answers 404 for it); unset: on `port`. */
  metricsPort: number | undefined;
  /** A SQLite file path, or a postgres:// URL. */
  db: string;
  /** redis:// URL: rate-limit and lockout windows shared by every instance; unset keeps them in process. */
  redis: string | undefined;
  /** Namespace of this deployment's keys in Redis. */
  redisPrefix: string;
  /**
   * Serve HTTPS with this PEM certificate (chain) and private key; unset: plain HTTP, TLS being a proxy's job. Paths:
   * the files are read at start-up (./tls.ts).
   */
  tls: { certFile: string; keyFile: string } | undefined;
  /**
   * Authorization and issue-event `id`s as JSON integers, as GitHub sent them (for clients that need it, such as
   * PyGithub); false: strings, as the spec says. Event ids are strings either way.
   */
  numericIds: boolean;
  /** Absolute base for `Location`, `Link` and `url` fields; derived from each request's Host when unset. */
  baseUrl: string | undefined;
  /** Largest accepted request body, in bytes. */
  bodyLimit: number;
  /** PostgreSQL pool size and timeouts (the SQLite file waits up to its busy timeout instead). */
  database: PoolLimits;
  /** Bounds on how long a client may take, so a slow or stalled client cannot hold a connection open forever. */
  timeouts: {
    /** Receiving the whole request, body included; then 408 and the socket is closed. */
    requestMs: number;
    /** Receiving the request line and headers; then 408 and the socket is closed. */
    headersMs: number;
    /** An idle keep-alive connection is closed after this; above common load balancers' 60 s, as Fastify's default. */
    keepAliveMs: number;
    /** A socket with no traffic at all (a request in progress included) is destroyed after this. */
    idleMs: number;
  };
  /**
   * Which peers may set the client address, protocol and host through X-Forwarded-For/-Proto/-Host: false (none,
   * the default), true (all), a hop count, or addresses and CIDRs; Fastify's `trustProxy` option.
   */
  trustProxy: boolean | number | string[];
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
  /** Live streams of the feeds (Server-Sent Events, server/streams/). */
  streams: {
    /** Streams one user (an anonymous client: one IP address) may hold open at once; 0 turns streams off. */
    maxPerUser: number;
    /** A comment line this often keeps proxies and idle timers from closing a quiet stream. */
    heartbeatMs: number;
  };
  /** Largest body `POST /admin/events` and `POST /admin/world` accept, in bytes. */
  adminBodyLimit: number;
  logLevel: string;
  /** `json`: one JSON object a line, for log collectors; `pretty`: readable lines, for a person at a terminal. */
  logFormat: LogFormat;
  /** log2 of scrypt's N for new password hashes (and the decoy unknown logins are checked against): 15 in production. */
  passwordCost: number;
  webhooks: {
    /** Attempts per delivery in all; 1 behaves as GitHub (no automatic retry). */
    maxAttempts: number;
    /** The longest wait between two attempts. */
    maxBackoffMs: number;
    /** Deliveries an ingest may queue for one hook; past it, that hook gets none until its queue drains. */
    maxQueue: number;
    /** GitHub's 10 seconds for a receiver to answer. */
    timeoutMs: number;
    /** Where deliveries may go; null: anywhere (the default: local receivers are the main use). */
    allowedHosts: AddressPolicy | null;
    /** The file holding the key webhook secrets are sealed with; unset: beside the SQLite database, or ./data/webhook.key. */
    keyFile: string | undefined;
  };
}

export type LogFormat = "json" | "pretty";

function logFormat(value: string | undefined): LogFormat {
  if (value === undefined || value === "" || value === "json") return "json";
  if (value === "pretty") return "pretty";
  throw new InvalidInputError(`log format must be json or pretty, got "${value}"`);
}

export const DEFAULT_DB = "./data/feedgate.db";

export interface ConfigInput {
  host?: string;
  port?: string | number;
  metricsPort?: string | number;
  db?: string;
  redis?: string;
  redisPrefix?: string;
  baseUrl?: string;
  numericIds?: string | boolean;
  tlsCert?: string;
  tlsKey?: string;
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
  maxStreamsPerUser?: string | number;
  streamHeartbeat?: string | number;
  logLevel?: string;
  logFormat?: string;
  dbPoolSize?: string | number;
  dbConnectTimeout?: string | number;
  dbStatementTimeout?: string | number;
  dbQueryTimeout?: string | number;
  requestTimeout?: string | number;
  headersTimeout?: string | number;
  keepAliveTimeout?: string | number;
  idleTimeout?: string | number;
  trustProxy?: string | boolean | number;
  passwordCost?: string | number;
  webhookMaxAttempts?: string | number;
  webhookMaxBackoff?: string | number;
  webhookMaxQueue?: string | number;
  webhookAllowedHosts?: string;
  webhookKeyFile?: string;
}

/** `--webhook-max-queue`: also read by `import` and `replay`, which need nothing else of the server's settings. */
export function webhookMaxQueue(value: string | number | undefined): number {
  return optionalPositive("webhook max queue", value) ?? DEFAULT_WEBHOOK_MAX_QUEUE;
}

function allowedHosts(value: string | undefined): AddressPolicy | null {
  if (value === undefined || value.trim() === "") return null;
  try {
    return AddressPolicy.parse(value);
  } catch (error) {
    throw new InvalidInputError(`webhook allowed hosts: ${(error as Error).message}`);
  }
}

function positiveInteger(name: string, value: string | number | undefined, fallback: number): number {
  if (value === undefined || value === "") return fallback;
  const n = typeof value === "number" ? value : Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidInputError(`${name} must be a non-negative integer, got "${value}"`);
  return n;
}

const MS_PER_UNIT: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** Every duration setting, timeouts and `--feed-max-age` alike: `500ms`, `30s`, `2m`, `12h`, `30d`, or plain seconds. */
function milliseconds(name: string, value: string | number | undefined, fallbackMs: number): number {
  if (value === undefined || value === "") return fallbackMs;
  const match = /^([0-9]+)(ms|s|m|h|d)?$/.exec(String(value).trim());
  if (!match) throw new InvalidInputError(`${name} must be a duration such as 500ms, 30s, 2m, 12h or 30d, got "${value}"`);
  return Number(match[1]) * MS_PER_UNIT[match[2] ?? "s"]!;
}

/** A duration in whole seconds, or null when not given. */
function duration(name: string, value: string | number | undefined): number | null {
  if (value === undefined || value === "") return null;
  return Math.floor(milliseconds(name, value, 0) / 1000);
}

/** `--trust-proxy`: true/false, a hop count, or a comma-separated list of addresses and CIDRs. */
function trustProxy(value: string | boolean | number | undefined): boolean | number | string[] {
  if (value === undefined || value === "" || value === false || value === "false") return false;
  if (value === true || value === "true") return true;
  if (typeof value === "number" || /^[0-9]+$/.test(value)) return positiveInteger("trust proxy hop count", value, 0);
  const addresses = value.split(",").map((a) => a.trim()).filter(Boolean);
  for (const address of addresses) {
    if (!/^[0-9A-Fa-f.:]+(\/[0-9]{1,3})?$/.test(address) && !["loopback", "linklocal", "uniquelocal"].includes(address)) {
      throw new InvalidInputError(`trust proxy must be true, false, a hop count, or addresses and CIDRs such as 10.0.0.0/8, got "${address}"`);
    }
  }
  return addresses;
}

/**
 * `--password-cost`: log2 of scrypt's N. Each step doubles the time and memory of a hash (2^15: ~75 ms, 32 MiB);
 * below 15 is for tests, above 20 a hash would take a gigabyte.
 */
export function passwordCost(value: string | number | undefined): number {
  const log2N = positiveInteger("password cost", value, DEFAULT_PASSWORD_COST);
  if (log2N < 4 || log2N > 20) throw new InvalidInputError(`password cost must be from 4 to 20 (log2 of scrypt's N), got "${value}"`);
  return log2N;
}

function optionalPositive(name: string, value: string | number | undefined): number | null {
  if (value === undefined || value === "") return null;
  const n = positiveInteger(name, value, 0);
  if (n === 0) throw new InvalidInputError(`${name} must be at least 1`);
  return n;
}

/** A port that is not used unless given; 0 is any free port. */
function optionalPort(name: string, value: string | number | undefined): number | undefined {
  return value === undefined || value === "" ? undefined : positiveInteger(name, value, 0);
}

/** A switch given as a flag (true) or in the environment: `true`/`1`/`yes` or `false`/`0`/`no`; unset or empty is off. */
function flag(name: string, value: string | boolean | undefined): boolean {
  if (value === undefined || value === "" || typeof value === "boolean") return value === true;
  if (/^(true|1|yes|on)$/i.test(value)) return true;
  if (/^(false|0|no|off)$/i.test(value)) return false;
  throw new InvalidInputError(`${name} must be true or false, got "${value}"`);
}

/** `--tls-cert` and `--tls-key` come together: a certificate without its key (or the reverse) serves nothing. */
function tls(certFile: string | undefined, keyFile: string | undefined): Config["tls"] {
  if (!certFile && !keyFile) return undefined;
  if (!certFile) throw new InvalidInputError("--tls-key (FEEDGATE_TLS_KEY) needs --tls-cert (FEEDGATE_TLS_CERT): give both, or neither for plain HTTP");
  if (!keyFile) throw new InvalidInputError("--tls-cert (FEEDGATE_TLS_CERT) needs --tls-key (FEEDGATE_TLS_KEY): give both, or neither for plain HTTP");
  return { certFile, keyFile };
}

function normalizeBaseUrl(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const url = new URL(value); // throws a clear "Invalid URL" for nonsense
  return url.toString().replace(/\/+$/, "");
}

/**
 * The heartbeat: 15 s unless set, and never as long as half the idle timeout, which would otherwise close a quiet
 * stream between two heartbeats.
 */
function heartbeatMs(value: string | number | undefined, idleMs: number): number {
  const asked = milliseconds("stream heartbeat", value, 15_000);
  if (asked === 0) throw new InvalidInputError("stream heartbeat must be longer than 0");
  return idleMs > 0 ? Math.min(asked, Math.max(1, Math.floor(idleMs / 2))) : asked;
}

export function loadConfig(input: ConfigInput = {}, env: NodeJS.ProcessEnv = process.env): Config {
  const idleMs = milliseconds("idle timeout", input.idleTimeout ?? env.FEEDGATE_IDLE_TIMEOUT, 120_000);
  return {
    host: input.host ?? env.HOST ?? "127.0.0.1",
    port: positiveInteger("port", input.port ?? env.PORT, 3000),
    metricsPort: optionalPort("metrics port", input.metricsPort ?? env.FEEDGATE_METRICS_PORT),
    db: input.db ?? env.FEEDGATE_DB ?? DEFAULT_DB,
    redis: input.redis ?? (env.FEEDGATE_REDIS || undefined),
    redisPrefix: input.redisPrefix ?? env.FEEDGATE_REDIS_PREFIX ?? "feedgate:",
    numericIds: flag("numeric ids (FEEDGATE_NUMERIC_IDS)", input.numericIds ?? env.FEEDGATE_NUMERIC_IDS),
    tls: tls(input.tlsCert ?? (env.FEEDGATE_TLS_CERT || undefined), input.tlsKey ?? (env.FEEDGATE_TLS_KEY || undefined)),
    baseUrl: normalizeBaseUrl(input.baseUrl ?? env.FEEDGATE_BASE_URL),
    bodyLimit: positiveInteger("body limit", input.bodyLimit ?? env.FEEDGATE_BODY_LIMIT, 1024 * 1024),
    database: {
      maxConnections: optionalPositive("database pool size", input.dbPoolSize ?? env.FEEDGATE_DB_POOL_SIZE) ?? 10,
      connectTimeoutMs: milliseconds("database connect timeout", input.dbConnectTimeout ?? env.FEEDGATE_DB_CONNECT_TIMEOUT, 5000),
      statementTimeoutMs: milliseconds("database statement timeout",
        input.dbStatementTimeout ?? env.FEEDGATE_DB_STATEMENT_TIMEOUT, 15_000),
      queryTimeoutMs: milliseconds("database query timeout", input.dbQueryTimeout ?? env.FEEDGATE_DB_QUERY_TIMEOUT, 20_000),
    },
    timeouts: {
      requestMs: milliseconds("request timeout", input.requestTimeout ?? env.FEEDGATE_REQUEST_TIMEOUT, 120_000),
      headersMs: milliseconds("headers timeout", input.headersTimeout ?? env.FEEDGATE_HEADERS_TIMEOUT, 20_000),
      keepAliveMs: milliseconds("keep-alive timeout", input.keepAliveTimeout ?? env.FEEDGATE_KEEP_ALIVE_TIMEOUT, 72_000),
      idleMs,
    },
    trustProxy: trustProxy(input.trustProxy ?? env.FEEDGATE_TRUST_PROXY),
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
    streams: {
      maxPerUser: positiveInteger("max streams per user", input.maxStreamsPerUser ?? env.FEEDGATE_MAX_STREAMS_PER_USER, 10),
      heartbeatMs: heartbeatMs(input.streamHeartbeat ?? env.FEEDGATE_STREAM_HEARTBEAT, idleMs),
    },
    adminBodyLimit: positiveInteger("admin body limit", input.adminBodyLimit ?? env.FEEDGATE_ADMIN_BODY_LIMIT, 64 * 1024 * 1024),
    logLevel: input.logLevel ?? env.LOG_LEVEL ?? "info",
    logFormat: logFormat(input.logFormat ?? env.FEEDGATE_LOG_FORMAT),
    passwordCost: passwordCost(input.passwordCost ?? env.FEEDGATE_PASSWORD_COST),
    webhooks: {
      maxAttempts: optionalPositive("webhook max attempts", input.webhookMaxAttempts ?? env.FEEDGATE_WEBHOOK_MAX_ATTEMPTS) ?? 5,
      maxBackoffMs: milliseconds("webhook max backoff", input.webhookMaxBackoff ?? env.FEEDGATE_WEBHOOK_MAX_BACKOFF, 600_000),
      maxQueue: webhookMaxQueue(input.webhookMaxQueue ?? env.FEEDGATE_WEBHOOK_MAX_QUEUE),
      timeoutMs: 10_000,
      allowedHosts: allowedHosts(input.webhookAllowedHosts ?? env.FEEDGATE_WEBHOOK_ALLOWED_HOSTS),
      keyFile: input.webhookKeyFile ?? (env.FEEDGATE_WEBHOOK_KEY_FILE || undefined),
    },
  };
}
