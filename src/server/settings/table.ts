/**
 * THE settings table: every setting of `feedgate serve` once, as a row (flag, environment variable, parser, default,
 * help). `Config`'s type, the reading of flags and environment, the commander options and their help are all made
 * from it (../config.ts, cli/setting-options.ts). Rows are grouped as `Config` nests them.
 */
import { allowedHosts } from "./host-patterns.js";
import {
  urlList,
  postgresUrl,
  atLeastOne,
  baseUrl,
  between,
  count,
  logFormat,
  longerThanZero,
  mebibytes,
  milliseconds,
  onOff,
  perSecond,
  retention,
  seconds,
  tcpPort,
  text,
  trustProxy,
  webhookRetries,
} from "./parsers.js";
import { Combined, Fixed, optionalSetting, setting, type Values } from "./setting.js";
import { InvalidInputError } from "../failures.js";

export const DEFAULT_DB = "./data/feedgate.db";
/** SQLite's name for a database held in memory only: `--db :memory:`, which `serve --ephemeral` stands for. */
export const IN_MEMORY_DB = ":memory:";
/** log2 of scrypt's N for new password hashes (and the decoy unknown logins are checked against): 15 in production. */
export const DEFAULT_PASSWORD_COST = 15;
/** The lowest cost the setting takes: a hash in microseconds, for test instances (feedgate/testing's default). */
export const LOWEST_PASSWORD_COST = 4;
/** Deliveries an ingest may queue for one hook; past it, that hook gets none until its queue drains. */
export const DEFAULT_WEBHOOK_MAX_QUEUE = 10_000;

const tlsFiles = {
  certFile: optionalSetting({
    flag: "--tls-cert",
    arg: "<file>",
    env: "FEEDGATE_TLS_CERT",
    name: "TLS certificate",
    parse: text,
    unset: undefined,
    help: "serve HTTPS with this PEM certificate (chain); needs --tls-key",
    shownDefault: "none, plain HTTP",
  }),
  keyFile: optionalSetting({
    flag: "--tls-key",
    arg: "<file>",
    env: "FEEDGATE_TLS_KEY",
    name: "TLS key",
    parse: text,
    unset: undefined,
    help: "the PEM private key of --tls-cert",
    shownDefault: "none",
  }),
};

/** A certificate without its key (or the reverse) serves nothing: both, or neither for plain HTTP. */
function bothOrNeither({
  certFile,
  keyFile,
}: Values<typeof tlsFiles>): { certFile: string; keyFile: string } | undefined {
  if (!certFile && !keyFile) return undefined;
  const [cert, key] = [tlsFiles.certFile, tlsFiles.keyFile].map((row) => `${row.flag} (${row.env})`);
  if (!certFile) throw new InvalidInputError(`${key} needs ${cert}: give both, or neither for plain HTTP`);
  if (!keyFile) throw new InvalidInputError(`${cert} needs ${key}: give both, or neither for plain HTTP`);
  return { certFile, keyFile };
}

export const SETTINGS = {
  host: setting({
    flag: "--host",
    arg: "<host>",
    env: "HOST",
    name: "host",
    parse: text,
    default: "127.0.0.1",
    help: "interface to listen on",
  }),
  port: setting({
    flag: "--port",
    arg: "<port>",
    env: "PORT",
    name: "port",
    parse: tcpPort,
    default: 3000,
    help: "port to listen on",
    zero: "any free port",
  }),
  /** Where `feedgate serve` writes the port it bound, once listening: `--port 0` made scriptable (cli/ready.ts). */
  portFile: optionalSetting({
    flag: "--port-file",
    arg: "<file>",
    env: "FEEDGATE_PORT_FILE",
    name: "port file",
    parse: text,
    unset: undefined,
    shownDefault: "none",
    help: "once listening, write the bound port (the number alone) to this file, atomically (a temporary file renamed)",
  }),
  /** Serves `/metrics` on this port instead of `port` (which then answers 404 for it); unset: on `port`. */
  metricsPort: optionalSetting({
    flag: "--metrics-port",
    arg: "<port>",
    env: "FEEDGATE_METRICS_PORT",
    name: "metrics port",
    parse: tcpPort,
    unset: undefined,
    help: "serve GET /metrics on this port instead of --port",
    zero: "any free port",
    shownDefault: "on --port",
  }),
  /** A SQLite file path, or a postgres:// URL. */
  db: setting({
    flag: "--db",
    arg: "<path|url>",
    env: "FEEDGATE_DB",
    name: "db",
    parse: text,
    default: DEFAULT_DB,
    help: "SQLite file, :memory: (nothing written to disk), or postgres:// URL",
  }),
  /**
   * PostgreSQL itself when `db` is a pooler in transaction mode (PgBouncer): what needs a session of its own (LISTEN,
   * the migrations' advisory lock, an import's index build and VACUUM) connects here (store/postgres/direct.ts), for
   * `serve` and every command that opens the store; unset: to `db`.
   */
  dbDirect: optionalSetting({
    flag: "--db-direct",
    arg: "<url>",
    env: "FEEDGATE_DB_DIRECT",
    name: "database direct URL",
    parse: postgresUrl,
    unset: undefined,
    help: "postgres:// URL of PostgreSQL itself when --db is a pooler (PgBouncer in transaction mode): LISTEN/NOTIFY, the migrations and an import's index build connect here",
    shownDefault: "--db",
  }),
  /**
   * The test double's controls over HTTP (`/_feedgate/...`: reset, clock, faults, snapshots, deliveries) and a clock
   * that they move. Never on unless asked: any caller may then wipe the database.
   */
  testControls: setting({
    flag: "--test-controls",
    env: "FEEDGATE_TEST_CONTROLS",
    name: "test controls",
    parse: onOff,
    default: false,
    help: "serve /_feedgate/ controls for tests (reset, clock, faults, snapshots); any caller may wipe the data",
    shownDefault: "off",
  }),
  /** redis:// URL: rate-limit and lockout windows shared by every instance; unset keeps them in process. */
  redis: optionalSetting({
    flag: "--redis",
    arg: "<url>",
    env: "FEEDGATE_REDIS",
    name: "redis",
    parse: text,
    unset: undefined,
    help: "redis:// URL for rate-limit and lockout windows shared by instances",
    shownDefault: "none, in process",
  }),
  /** Namespace of this deployment's keys in Redis. */
  redisPrefix: setting({
    flag: "--redis-prefix",
    arg: "<prefix>",
    env: "FEEDGATE_REDIS_PREFIX",
    name: "redis prefix",
    parse: text,
    default: "feedgate:",
    help: "namespace of this deployment's Redis keys",
  }),
  /**
   * Serve HTTPS with this PEM certificate (chain) and private key; unset: plain HTTP, TLS being a proxy's job. Paths:
   * the files are read at start-up (../tls.ts).
   */
  tls: new Combined(tlsFiles, bothOrNeither),
  /**
   * Authorization and issue-event `id`s as JSON integers, as GitHub sent them (for clients that need it, such as
   * PyGithub); false: strings, as the spec says. Event ids are strings either way.
   */
  numericIds: setting({
    flag: "--numeric-ids",
    env: "FEEDGATE_NUMERIC_IDS",
    name: "numeric ids",
    parse: onOff,
    default: false,
    help: "send authorization and issue-event ids as JSON integers, as GitHub did",
    shownDefault: "off, strings",
  }),
  /** Absolute base for `Location`, `Link` and `url` fields; derived from each request's Host when unset. */
  baseUrl: optionalSetting({
    flag: "--base-url",
    arg: "<url>",
    env: "FEEDGATE_BASE_URL",
    name: "base URL",
    parse: baseUrl,
    unset: undefined,
    help: "public base URL for Location, Link and url fields",
    shownDefault: "from each request's Host",
  }),
  /** Largest accepted request body, in bytes. */
  bodyLimit: setting({
    flag: "--body-limit",
    arg: "<bytes>",
    env: "FEEDGATE_BODY_LIMIT",
    name: "body limit",
    parse: count,
    default: 1024 * 1024,
    help: "largest request body accepted",
  }),
  /** PostgreSQL pool size and timeouts (the SQLite file waits up to its busy timeout instead); store/postgres/pool.ts. */
  database: {
    maxConnections: setting({
      flag: "--db-pool-size",
      arg: "<n>",
      env: "FEEDGATE_DB_POOL_SIZE",
      name: "database pool size",
      parse: atLeastOne,
      default: 10,
      help: "PostgreSQL connections per instance, at least 1",
    }),
    connectTimeoutMs: setting({
      flag: "--db-connect-timeout",
      arg: "<duration>",
      env: "FEEDGATE_DB_CONNECT_TIMEOUT",
      name: "database connect timeout",
      parse: milliseconds,
      default: "5s",
      help: "PostgreSQL connect timeout; then 503",
      zero: "none",
    }),
    statementTimeoutMs: setting({
      flag: "--db-statement-timeout",
      arg: "<duration>",
      env: "FEEDGATE_DB_STATEMENT_TIMEOUT",
      name: "database statement timeout",
      parse: milliseconds,
      default: "15s",
      help: "PostgreSQL statement_timeout for requests; then 503",
      zero: "none",
    }),
    queryTimeoutMs: setting({
      flag: "--db-query-timeout",
      arg: "<duration>",
      env: "FEEDGATE_DB_QUERY_TIMEOUT",
      name: "database query timeout",
      parse: milliseconds,
      default: "20s",
      help: "give up on a PostgreSQL query that gets no answer; then 503",
      zero: "none",
    }),
  },
  /** Hot standbys that serve reads (store/postgres/standbys.ts); none: the primary serves everything. */
  standbys: {
    urls: setting({
      flag: "--db-replica",
      arg: "<url>",
      env: "FEEDGATE_DB_REPLICA",
      name: "database replica",
      parse: urlList,
      default: "",
      repeatable: true,
      help: "postgres:// URL of a hot standby that serves reads (repeatable; the variable takes several, space-separated)",
      shownDefault: "none",
    }),
    maxLagMs: setting({
      flag: "--replica-max-lag",
      arg: "<duration>",
      env: "FEEDGATE_REPLICA_MAX_LAG",
      name: "replica max lag",
      parse: milliseconds,
      default: "5s",
      help: "leave out a standby whose replay is further behind the primary than this, until it catches up",
    }),
  },
  /** Bounds on how long a client may take, so a slow or stalled client cannot hold a connection open forever. */
  timeouts: {
    /** Receiving the whole request, body included; then 408 and the socket is closed. */
    requestMs: setting({
      flag: "--request-timeout",
      arg: "<duration>",
      env: "FEEDGATE_REQUEST_TIMEOUT",
      name: "request timeout",
      parse: milliseconds,
      default: "120s",
      help: "longest time to receive a whole request, e.g. 120s; then 408",
      zero: "none",
    }),
    /** Receiving the request line and headers; then 408 and the socket is closed. */
    headersMs: setting({
      flag: "--headers-timeout",
      arg: "<duration>",
      env: "FEEDGATE_HEADERS_TIMEOUT",
      name: "headers timeout",
      parse: milliseconds,
      default: "20s",
      help: "longest time to receive a request's headers, at most --request-timeout; then 408",
      zero: "none",
    }),
    /** An idle keep-alive connection is closed after this; above common load balancers' 60 s, as Fastify's default. */
    keepAliveMs: setting({
      flag: "--keep-alive-timeout",
      arg: "<duration>",
      env: "FEEDGATE_KEEP_ALIVE_TIMEOUT",
      name: "keep-alive timeout",
      parse: milliseconds,
      default: "72s",
      help: "close idle keep-alive connections after this",
    }),
    /** A socket with no traffic at all (a request in progress included) is destroyed after this. */
    idleMs: setting({
      flag: "--idle-timeout",
      arg: "<duration>",
      env: "FEEDGATE_IDLE_TIMEOUT",
      name: "idle timeout",
      parse: milliseconds,
      default: "120s",
      help: "destroy a socket with no traffic for this long",
      zero: "never",
    }),
  },
  /**
   * Which peers may set the client address, protocol and host through X-Forwarded-For/-Proto/-Host: false (none,
   * the default), true (all), a hop count, or addresses and CIDRs; Fastify's `trustProxy` option.
   */
  trustProxy: setting({
    flag: "--trust-proxy",
    arg: "<trust>",
    env: "FEEDGATE_TRUST_PROXY",
    name: "trust proxy",
    parse: trustProxy,
    default: false,
    shownDefault: "nobody",
    help:
      "believe X-Forwarded-For/-Proto/-Host from: addresses/CIDRs of your proxies, a hop count, or true; a hop " +
      "count or true also trusts whoever connects directly, so only with a proxy always in front",
  }),
  rateLimit: {
    /** Requests per window for an authenticated user (GitHub: 5000/hour). */
    authenticated: setting({
      flag: "--rate-limit-authenticated",
      arg: "<n>",
      env: "FEEDGATE_RATE_LIMIT_AUTHENTICATED",
      name: "authenticated rate limit",
      parse: count,
      default: 5000,
      help: "requests per window per user",
    }),
    /** Requests per window for one anonymous client IP (GitHub: 60/hour). */
    anonymous: setting({
      flag: "--rate-limit-anonymous",
      arg: "<n>",
      env: "FEEDGATE_RATE_LIMIT_ANONYMOUS",
      name: "anonymous rate limit",
      parse: count,
      default: 60,
      help: "requests per window per client IP",
    }),
    windowSeconds: setting({
      flag: "--rate-limit-window",
      arg: "<seconds>",
      env: "FEEDGATE_RATE_LIMIT_WINDOW",
      name: "rate limit window",
      parse: count,
      default: 3600,
      help: "rate-limit window",
    }),
  },
  loginLockout: {
    /** Failed logins for one account within the window before every login is refused. */
    maxAttempts: setting({
      flag: "--login-max-attempts",
      arg: "<n>",
      env: "FEEDGATE_LOGIN_MAX_ATTEMPTS",
      name: "login attempts",
      parse: count,
      default: 10,
      help: "failed logins per account before lockout",
    }),
    windowSeconds: setting({
      flag: "--login-window",
      arg: "<seconds>",
      env: "FEEDGATE_LOGIN_WINDOW",
      name: "login window",
      parse: count,
      default: 300,
      help: "failed-login lockout window",
    }),
  },
  feeds: {
    /** GitHub stops at 300 events; null serves the whole history. */
    maxEvents: optionalSetting({
      flag: "--feed-max-events",
      arg: "<n>",
      env: "FEEDGATE_FEED_MAX_EVENTS",
      name: "feed max events",
      parse: atLeastOne,
      unset: null,
      shownDefault: "all",
      help: "serve at most this many events per feed, as GitHub's 300",
    }),
    /** GitHub leaves out events older than 30 days; null serves the whole history. */
    maxAgeSeconds: optionalSetting({
      flag: "--feed-max-age",
      arg: "<duration>",
      env: "FEEDGATE_FEED_MAX_AGE",
      name: "feed max age",
      parse: seconds,
      unset: null,
      shownDefault: "all",
      help: "leave out events older than this, e.g. 30d as GitHub",
    }),
    /** Memory for cached feed pages, in bytes; 0 turns the cache off. */
    cacheBytes: setting({
      flag: "--feed-cache-mb",
      arg: "<n>",
      env: "FEEDGATE_FEED_CACHE_MB",
      name: "feed cache size",
      parse: mebibytes,
      default: 32,
      help: "memory for cached feed pages, in MiB",
      zero: "off",
    }),
    /**
     * How long after the database last gave a public feed page that page may still be served, marked stale, while
     * the database cannot be reached (plugins/stale-if-error.ts); 0 answers every request 503 during an outage.
     */
    staleIfErrorMs: setting({
      flag: "--stale-if-error",
      arg: "<duration>",
      env: "FEEDGATE_STALE_IF_ERROR",
      name: "stale if error",
      parse: milliseconds,
      default: "60s",
      zero: "off",
      help: "during a database outage, serve anonymous feed pages answered within this long before, marked stale",
    }),
  },
  /** Live streams of the feeds (Server-Sent Events, server/streams/). */
  streams: {
    /** Streams one user (an anonymous client: one IP address) may hold open at once; 0 turns streams off. */
    maxPerUser: setting({
      flag: "--max-streams-per-user",
      arg: "<n>",
      env: "FEEDGATE_MAX_STREAMS_PER_USER",
      name: "max streams per user",
      parse: count,
      default: 10,
      zero: "streams off",
      help: "live feed streams (Accept: text/event-stream) one user, or one anonymous IP address, may hold open",
    }),
    /** A comment line this often keeps proxies and idle timers from closing a quiet stream; capped in ../config.ts. */
    heartbeatMs: setting({
      flag: "--stream-heartbeat",
      arg: "<duration>",
      env: "FEEDGATE_STREAM_HEARTBEAT",
      name: "stream heartbeat",
      parse: longerThanZero,
      default: "15s",
      help: "comment line sent on quiet streams this often, at most half --idle-timeout",
    }),
    /**
     * The most events a stream resumed with `Last-Event-ID` replays; past it, a `gap` event sends the client to the
     * feed's pages and the stream goes on live. It bounds what one reconnection costs the server.
     */
    replayMax: setting({
      flag: "--stream-replay-max",
      arg: "<n>",
      env: "FEEDGATE_STREAM_REPLAY_MAX",
      name: "stream replay max",
      parse: count,
      default: 1000,
      zero: "no replay: a gap whenever anything was missed",
      help: "events a stream resumed with Last-Event-ID replays at most; past it, a gap event points to the feed",
    }),
  },
  /** Largest body `POST /admin/events` and `POST /admin/world` accept, in bytes. */
  adminBodyLimit: setting({
    flag: "--admin-body-limit",
    arg: "<bytes>",
    env: "FEEDGATE_ADMIN_BODY_LIMIT",
    name: "admin body limit",
    parse: count,
    default: 64 * 1024 * 1024,
    help: "largest body of POST /admin/events and /admin/world",
  }),
  logLevel: setting({
    flag: "--log-level",
    arg: "<level>",
    env: "LOG_LEVEL",
    name: "log level",
    parse: text,
    default: "info",
    help: "pino log level",
  }),
  /**
   * `json`: one JSON object a line, for log collectors; `pretty`: readable lines, for a person at a terminal, whose
   * default cli/serve.ts picks.
   */
  logFormat: setting({
    flag: "--log-format",
    arg: "<json|pretty>",
    env: "FEEDGATE_LOG_FORMAT",
    name: "log format",
    parse: logFormat,
    default: "json",
    shownDefault: "pretty on a terminal, else json",
    help: "log lines as JSON or readable",
  }),
  /** log2 of scrypt's N for new password hashes (and the decoy unknown logins are checked against). */
  passwordCost: setting({
    flag: "--password-cost",
    arg: "<log2>",
    env: "FEEDGATE_PASSWORD_COST",
    name: "password cost",
    // Each step doubles the time and memory of a hash (2^15: ~75 ms, 32 MiB); below 15 is for tests, above 20 a
    // hash would take a gigabyte.
    parse: between(LOWEST_PASSWORD_COST, 20, "log2 of scrypt's N"),
    default: DEFAULT_PASSWORD_COST,
    help: "log2 of scrypt's N for new password hashes, 4 to 20",
  }),
  /** The longest a token may live (GitHub organizations can set one); null: tokens may never expire, as on github.com. */
  tokenMaxLifetimeMs: optionalSetting({
    flag: "--token-max-lifetime",
    arg: "<duration>",
    env: "FEEDGATE_TOKEN_MAX_LIFETIME",
    name: "token max lifetime",
    parse: longerThanZero,
    unset: null,
    shownDefault: "none",
    help: "the longest expiry a new token may have, e.g. 90d; tokens asked for without one get it",
  }),
  /**
   * What background retention removes, and how (services/retention.ts): in batches of `batchSize` rows, one short
   * transaction each, every `intervalMs` (and at start-up). Expired console sessions go at every run.
   */
  retention: {
    /** Webhook attempts (`hook_deliveries`) older than this are deleted; null keeps them all. */
    webhookDeliveriesMs: setting({
      flag: "--webhook-delivery-retention",
      arg: "<duration|off>",
      env: "FEEDGATE_WEBHOOK_DELIVERY_RETENTION",
      name: "webhook delivery retention",
      parse: retention,
      default: "30d",
      help: "delete webhook deliveries (attempts) older than this, at least 1m; off keeps them all",
    }),
    /** Events created longer ago than this are deleted (PostgreSQL: whole months); null, the default, keeps them all. */
    eventsMs: setting({
      flag: "--event-retention",
      arg: "<duration|off>",
      env: "FEEDGATE_EVENT_RETENTION",
      name: "event retention",
      parse: retention,
      default: "off",
      help: "delete events created longer ago than this, e.g. 30d as GitHub, at least 1m; PostgreSQL drops whole months",
    }),
    intervalMs: setting({
      flag: "--retention-interval",
      arg: "<duration>",
      env: "FEEDGATE_RETENTION_INTERVAL",
      name: "retention interval",
      parse: longerThanZero,
      default: "10m",
      help: "how often retention runs",
    }),
    batchSize: setting({
      flag: "--retention-batch",
      arg: "<rows>",
      env: "FEEDGATE_RETENTION_BATCH",
      name: "retention batch",
      parse: atLeastOne,
      default: 1000,
      help: "rows deleted per transaction by retention, which pauses between batches",
    }),
  },
  webhooks: {
    /**
     * `durable`: a failed delivery is retried with backoff (up to --webhook-max-attempts); `github`: one attempt, as
     * GitHub makes, the failure kept for a redelivery someone asks for (tests that need GitHub's exact behaviour).
     */
    retries: setting({
      flag: "--webhook-retries",
      arg: "<github|durable>",
      env: "FEEDGATE_WEBHOOK_RETRIES",
      name: "webhook retries",
      parse: webhookRetries,
      default: "durable",
      help: "durable: retry failed deliveries with backoff; github: one attempt, failures kept for manual redelivery",
    }),
    /** Attempts per delivery in all; 1 behaves as GitHub (no automatic retry). */
    maxAttempts: setting({
      flag: "--webhook-max-attempts",
      arg: "<n>",
      env: "FEEDGATE_WEBHOOK_MAX_ATTEMPTS",
      name: "webhook max attempts",
      parse: atLeastOne,
      default: 5,
      help: "attempts per webhook delivery, the first included; 1 behaves as GitHub, which does not retry",
    }),
    /** The longest wait between two attempts. */
    maxBackoffMs: setting({
      flag: "--webhook-max-backoff",
      arg: "<duration>",
      env: "FEEDGATE_WEBHOOK_MAX_BACKOFF",
      name: "webhook max backoff",
      parse: milliseconds,
      default: "10m",
      help: "longest wait between two attempts; they start at about 1s and double",
    }),
    /** Deliveries an ingest may queue for one hook; past it, that hook gets none until its queue drains. */
    maxQueue: setting({
      flag: "--webhook-max-queue",
      arg: "<n>",
      env: "FEEDGATE_WEBHOOK_MAX_QUEUE",
      name: "webhook max queue",
      parse: atLeastOne,
      default: DEFAULT_WEBHOOK_MAX_QUEUE,
      help: "deliveries queued for one hook at most; ingests queue none more for it while full",
    }),
    /**
     * A hook whose deliveries have all failed for this long (by the server's clock) is made inactive, as delivery
     * services disable an endpoint that is gone; 0: never.
     */
    disableAfterMs: setting({
      flag: "--webhook-disable-after",
      arg: "<duration>",
      env: "FEEDGATE_WEBHOOK_DISABLE_AFTER",
      name: "webhook disable after",
      parse: milliseconds,
      default: "5d",
      zero: "never",
      help: "make a hook inactive once every delivery to it has failed for this long",
    }),
    /** Deliveries per second to one hook at most, so a backlog does not flood a receiver; 0: no limit. */
    ratePerSecond: setting({
      flag: "--webhook-rate",
      arg: "<n>",
      env: "FEEDGATE_WEBHOOK_RATE",
      name: "webhook rate",
      parse: perSecond,
      default: 0,
      zero: "no limit",
      shownDefault: "0, no limit",
      help: "deliveries per second to one hook at most, fractions allowed (0.5: one every 2 s), per instance",
    }),
    /** GitHub's 10 seconds for a receiver to answer. */
    timeoutMs: new Fixed(10_000),
    /** Where deliveries may go (host names, addresses, CIDRs); null: anywhere (the default: local receivers are the main use). */
    allowedHosts: optionalSetting({
      flag: "--webhook-allowed-hosts",
      arg: "<list>",
      env: "FEEDGATE_WEBHOOK_ALLOWED_HOSTS",
      name: "webhook allowed hosts",
      parse: allowedHosts,
      unset: null,
      shownDefault: "every host",
      help: "host names, IPs and CIDRs deliveries may go to, checked on the address connected to",
    }),
    /** The file holding the key webhook secrets are sealed with; unset: beside the SQLite database, or ./data/webhook.key. */
    keyFile: optionalSetting({
      flag: "--webhook-key-file",
      arg: "<file>",
      env: "FEEDGATE_WEBHOOK_KEY_FILE",
      name: "webhook key file",
      parse: text,
      unset: undefined,
      shownDefault: "<db>.webhook-key, or ./data/webhook.key",
      help: "the key webhook secrets are sealed with, made on first use; every instance on one database needs the same",
    }),
  },
};
