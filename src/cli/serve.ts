/** `feedgate serve`: migrate, listen, stop gracefully on SIGINT/SIGTERM. */
import type { Command } from "commander";
import { loadConfig } from "../server/config.js";
import { startServer } from "../server/main.js";
import { ensureDemoAccount, type DemoCredentials } from "../server/services/demo.js";
import type { CliIo } from "./io.js";
import { dbOption, passwordCostOption } from "./options.js";

function printDemo(demo: DemoCredentials, url: string, io: CliIo): void {
  // Printed once to the terminal of whoever started the demo, never logged: on stderr, apart from the log lines
  // on stdout, which a log collector may be reading.
  io.stderr.write([
    "",
    "feedgate demo account created (shown once):",
    `  login:    ${demo.login}`,
    `  password: ${demo.password}`,
    `  token:    ${demo.token}`,
    "",
    "Try:",
    `  export FEEDGATE_URL=${url} FEEDGATE_USER=${demo.login} FEEDGATE_PASSWORD='${demo.password}' FEEDGATE_TOKEN=${demo.token}`,
    '  curl -i -u "$FEEDGATE_USER:$FEEDGATE_PASSWORD" "$FEEDGATE_URL/authorizations"',
    '  curl -i -H "Authorization: token $FEEDGATE_TOKEN" "$FEEDGATE_URL/users/demo/received_events"',
    "",
    `The API reference: ${url}/docs (OpenAPI: ${url}/openapi.json)`,
    // The same account signs in to the web console: the one place to see it without curl.
    `The console: ${url}/console/ (Username: ${demo.login}, Password: ${demo.password})`,
    "",
  ].join("\n"));
}

export function serveCommand(program: Command, io: CliIo): void {
  passwordCostOption(dbOption(program.command("serve").description("start the HTTP service (migrates the database first)"), io.env), io.env)
    .option("--host <host>", "interface to listen on (env HOST, default 127.0.0.1)")
    .option("--port <port>", "port to listen on, 0 for any free port (env PORT, default 3000)")
    .option("--metrics-port <port>", "serve GET /metrics on this port instead of --port (env FEEDGATE_METRICS_PORT)")
    .option("--redis <url>", "redis:// URL for rate-limit and lockout windows shared by instances (env FEEDGATE_REDIS)")
    .option("--redis-prefix <prefix>", "namespace of this deployment's Redis keys (env FEEDGATE_REDIS_PREFIX, default feedgate:)")
    .option("--tls-cert <file>", "serve HTTPS with this PEM certificate (chain); needs --tls-key (env FEEDGATE_TLS_CERT)")
    .option("--tls-key <file>", "the PEM private key of --tls-cert (env FEEDGATE_TLS_KEY)")
    .option("--numeric-ids", "send authorization and issue-event ids as JSON integers, as GitHub did (env FEEDGATE_NUMERIC_IDS)")
    .option("--base-url <url>", "public base URL for Location, Link and url fields (env FEEDGATE_BASE_URL)")
    .option("--body-limit <bytes>", "largest request body accepted (env FEEDGATE_BODY_LIMIT, default 1048576)")
    .option("--rate-limit-authenticated <n>", "requests per window per user (default 5000)")
    .option("--rate-limit-anonymous <n>", "requests per window per client IP (default 60)")
    .option("--rate-limit-window <seconds>", "rate-limit window (default 3600)")
    .option("--login-max-attempts <n>", "failed logins per account before lockout (default 10)")
    .option("--login-window <seconds>", "failed-login lockout window (default 300)")
    .option("--log-format <json|pretty>", "log lines as JSON or readable (env FEEDGATE_LOG_FORMAT; default pretty on a terminal, else json)")
    .option("--feed-max-events <n>", "serve at most this many events per feed, as GitHub's 300 (default: all)")
    .option("--feed-max-age <duration>", "leave out events older than this, e.g. 30d as GitHub (default: all)")
    .option("--feed-cache-mb <n>", "memory for cached feed pages, in MiB; 0 turns the cache off (default 32)")
    .option("--max-streams-per-user <n>", "live feed streams (Accept: text/event-stream) one user, or one anonymous " +
      "IP address, may hold open; 0 turns streams off (env FEEDGATE_MAX_STREAMS_PER_USER, default 10)")
    .option("--stream-heartbeat <duration>", "comment line sent on quiet streams this often, at most half --idle-timeout " +
      "(env FEEDGATE_STREAM_HEARTBEAT, default 15s)")
    .option("--admin-body-limit <bytes>", "largest body of POST /admin/events and /admin/world (default 67108864)")
    .option("--log-level <level>", "pino log level (env LOG_LEVEL, default info)")
    .option("--trust-proxy <trust>", "believe X-Forwarded-For/-Proto/-Host from: addresses/CIDRs of your proxies, a hop " +
      "count, or true; a hop count or true also trusts whoever connects directly, so only with a proxy always in front " +
      "(env FEEDGATE_TRUST_PROXY, default: nobody)")
    .option("--request-timeout <duration>", "longest time to receive a whole request, e.g. 120s; then 408; 0: none " +
      "(env FEEDGATE_REQUEST_TIMEOUT, default 120s)")
    .option("--headers-timeout <duration>", "longest time to receive a request's headers, at most --request-timeout; " +
      "then 408; 0: none (env FEEDGATE_HEADERS_TIMEOUT, default 20s)")
    .option("--keep-alive-timeout <duration>", "close idle keep-alive connections after this (env FEEDGATE_KEEP_ALIVE_TIMEOUT, default 72s)")
    .option("--idle-timeout <duration>", "destroy a socket with no traffic for this long; 0: never (env FEEDGATE_IDLE_TIMEOUT, default 120s)")
    .option("--db-pool-size <n>", "PostgreSQL connections per instance, at least 1 (env FEEDGATE_DB_POOL_SIZE, default 10)")
    .option("--db-connect-timeout <duration>", "PostgreSQL connect timeout; then 503 (env FEEDGATE_DB_CONNECT_TIMEOUT, default 5s)")
    .option("--db-statement-timeout <duration>", "PostgreSQL statement_timeout for requests; then 503; 0: none " +
      "(env FEEDGATE_DB_STATEMENT_TIMEOUT, default 15s)")
    .option("--db-query-timeout <duration>", "give up on a PostgreSQL query that gets no answer; then 503; 0: none " +
      "(env FEEDGATE_DB_QUERY_TIMEOUT, default 20s)")
    .option("--webhook-max-attempts <n>", "attempts per webhook delivery, the first included; 1 behaves as GitHub, which " +
      "does not retry (env FEEDGATE_WEBHOOK_MAX_ATTEMPTS, default 5)")
    .option("--webhook-max-backoff <duration>", "longest wait between two attempts; they start at about 1s and double " +
      "(env FEEDGATE_WEBHOOK_MAX_BACKOFF, default 10m)")
    .option("--webhook-max-queue <n>", "deliveries queued for one hook at most; ingests queue none more for it while full " +
      "(env FEEDGATE_WEBHOOK_MAX_QUEUE, default 10000)")
    .option("--webhook-allowed-hosts <list>", "host names, IPs and CIDRs deliveries may go to, checked on the address " +
      "connected to (env FEEDGATE_WEBHOOK_ALLOWED_HOSTS, default: every host)")
    .option("--webhook-key-file <file>", "the key webhook secrets are sealed with, made on first use; every instance on " +
      "one database needs the same (env FEEDGATE_WEBHOOK_KEY_FILE, default: <db>.webhook-key, or ./data/webhook.key)")
    .option("--demo", "on a fresh database, create a demo account and print its credentials")
    .action(async (options) => {
      // JSON stays the default for machines; a person at a terminal reads lines.
      const logFormat = options.logFormat ?? io.env.FEEDGATE_LOG_FORMAT ?? (io.stdout.isTTY ? "pretty" : "json");
      const config = loadConfig({ ...options, logFormat }, io.env);
      let demo: DemoCredentials | null = null;
      const server = await startServer(config, {
        beforeListen: async (store) => {
          if (options.demo) demo = await ensureDemoAccount(store);
        },
        exitOnSignals: true,
      });
      if (demo) printDemo(demo, config.baseUrl ?? server.url, io);
      else if (options.demo) {
        io.stderr.write("The demo account was created on an earlier start; its credentials were shown then. " +
          "Delete the database to start afresh.\n");
      }
    });
}
