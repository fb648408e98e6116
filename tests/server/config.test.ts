/**
 * The settings docs/configuration.md promises: each default, the environment variable that sets it,
 * flags winning over the environment, and values refused with one line naming the setting.
 */
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { loadConfig, SETTINGS, type ConfigInput } from "../../src/server/config.js";
import { InvalidInputError } from "../../src/server/failures.js";
import { rowsOf } from "../../src/server/settings/read.js";
import { inputKey } from "../../src/server/settings/setting.js";
import { Command } from "commander";
import { settingOption, settingValue } from "../../src/cli/setting-options.js";

/**
 * Two values each setting can take, both other than its default and giving different configs, by environment
 * variable; `with`: what else a value needs (a certificate, its key).
 */
const SAMPLES: Record<string, { a: string; b: string; with?: Record<string, string> }> = {
  HOST: { a: "0.0.0.0", b: "::1" },
  PORT: { a: "4000", b: "0" },
  FEEDGATE_PORT_FILE: { a: "a.port", b: "b.port" },
  FEEDGATE_METRICS_PORT: { a: "9100", b: "9200" },
  FEEDGATE_DB: { a: "a.db", b: "postgres://localhost/b" },
  FEEDGATE_REDIS: { a: "redis://a:6379", b: "redis://b:6379" },
  FEEDGATE_REDIS_PREFIX: { a: "a:", b: "b:" },
  FEEDGATE_TLS_CERT: { a: "a.pem", b: "b.pem", with: { FEEDGATE_TLS_KEY: "key.pem" } },
  FEEDGATE_TLS_KEY: { a: "a.key", b: "b.key", with: { FEEDGATE_TLS_CERT: "cert.pem" } },
  FEEDGATE_NUMERIC_IDS: { a: "true", b: "false" },
  FEEDGATE_TEST_CONTROLS: { a: "true", b: "false" },
  FEEDGATE_BASE_URL: { a: "https://a.example", b: "https://b.example/api/v3" },
  FEEDGATE_BODY_LIMIT: { a: "100", b: "200" },
  FEEDGATE_DB_POOL_SIZE: { a: "3", b: "4" },
  FEEDGATE_DB_CONNECT_TIMEOUT: { a: "1s", b: "0" },
  FEEDGATE_DB_STATEMENT_TIMEOUT: { a: "1m", b: "0" },
  FEEDGATE_DB_QUERY_TIMEOUT: { a: "90s", b: "0" },
  FEEDGATE_DB_REPLICA: {
    a: "postgres://standby-a/feedgate postgres://standby-b/feedgate",
    b: "postgres://standby-c/x",
  },
  FEEDGATE_REPLICA_MAX_LAG: { a: "1s", b: "30s" },
  FEEDGATE_DB_DIRECT: { a: "postgres://db-a/feedgate", b: "postgres://db-b:5432,db-c:5432/x" },
  FEEDGATE_REQUEST_TIMEOUT: { a: "30s", b: "0" },
  FEEDGATE_HEADERS_TIMEOUT: { a: "500ms", b: "0" },
  FEEDGATE_KEEP_ALIVE_TIMEOUT: { a: "2m", b: "5s" },
  FEEDGATE_IDLE_TIMEOUT: { a: "60s", b: "0" },
  FEEDGATE_TRUST_PROXY: { a: "true", b: "10.0.0.0/8" },
  FEEDGATE_RATE_LIMIT_AUTHENTICATED: { a: "1", b: "2" },
  FEEDGATE_RATE_LIMIT_ANONYMOUS: { a: "1", b: "2" },
  FEEDGATE_RATE_LIMIT_WINDOW: { a: "1", b: "2" },
  FEEDGATE_LOGIN_MAX_ATTEMPTS: { a: "1", b: "2" },
  FEEDGATE_LOGIN_WINDOW: { a: "1", b: "2" },
  FEEDGATE_FEED_MAX_EVENTS: { a: "300", b: "100" },
  FEEDGATE_FEED_MAX_AGE: { a: "30d", b: "12h" },
  FEEDGATE_FEED_CACHE_MB: { a: "0", b: "1" },
  FEEDGATE_STALE_IF_ERROR: { a: "0", b: "5m" },
  FEEDGATE_MAX_STREAMS_PER_USER: { a: "0", b: "1" },
  FEEDGATE_STREAM_HEARTBEAT: { a: "5s", b: "7s" },
  FEEDGATE_STREAM_REPLAY_MAX: { a: "0", b: "50" },
  FEEDGATE_ADMIN_BODY_LIMIT: { a: "1", b: "2" },
  LOG_LEVEL: { a: "debug", b: "warn" },
  FEEDGATE_LOG_FORMAT: { a: "pretty", b: "json" },
  FEEDGATE_PASSWORD_COST: { a: "12", b: "4" },
  FEEDGATE_TOKEN_MAX_LIFETIME: { a: "90d", b: "12h" },
  FEEDGATE_WEBHOOK_RETRIES: { a: "github", b: "durable" },
  FEEDGATE_WEBHOOK_MAX_ATTEMPTS: { a: "1", b: "2" },
  FEEDGATE_WEBHOOK_DISABLE_AFTER: { a: "1h", b: "0" },
  FEEDGATE_WEBHOOK_RATE: { a: "10", b: "0.5" },
  FEEDGATE_WEBHOOK_MAX_BACKOFF: { a: "1m", b: "90s" },
  FEEDGATE_WEBHOOK_MAX_QUEUE: { a: "5", b: "6" },
  FEEDGATE_WEBHOOK_ALLOWED_HOSTS: { a: "hooks.example.com", b: "10.0.0.0/8, ::1" },
  FEEDGATE_WEBHOOK_KEY_FILE: { a: "a.key", b: "b.key" },
  FEEDGATE_WEBHOOK_DELIVERY_RETENTION: { a: "off", b: "7d" },
  FEEDGATE_EVENT_RETENTION: { a: "30d", b: "1m" },
  FEEDGATE_RETENTION_INTERVAL: { a: "1m", b: "1h" },
  FEEDGATE_RETENTION_BATCH: { a: "10", b: "5000" },
};

describe("configuration", () => {
  test("defaults: timeouts, database limits, rate limits and lockout as docs/configuration.md says", () => {
    const config = loadConfig({}, {});
    assert.deepEqual(config.timeouts, { requestMs: 120_000, headersMs: 20_000, keepAliveMs: 72_000, idleMs: 120_000 });
    assert.deepEqual(config.database, {
      maxConnections: 10,
      connectTimeoutMs: 5_000,
      statementTimeoutMs: 15_000,
      queryTimeoutMs: 20_000,
    });
    assert.deepEqual(config.rateLimit, { authenticated: 5000, anonymous: 60, windowSeconds: 3600 });
    assert.deepEqual(config.loginLockout, { maxAttempts: 10, windowSeconds: 300 });
    assert.deepEqual(
      [
        config.host,
        config.port,
        config.db,
        config.trustProxy,
        config.numericIds,
        config.logFormat,
        config.passwordCost,
      ],
      ["127.0.0.1", 3000, "./data/feedgate.db", false, false, "json", 15],
    );
  });

  test("live streams: 10 per user and a 15 s heartbeat by default; the heartbeat stays under half the idle timeout", () => {
    assert.deepEqual(loadConfig({}, {}).streams, { maxPerUser: 10, heartbeatMs: 15_000, replayMax: 1000 });
    assert.deepEqual(loadConfig({ maxStreamsPerUser: "0" }, { FEEDGATE_STREAM_HEARTBEAT: "5s" }).streams, {
      maxPerUser: 0,
      heartbeatMs: 5_000,
      replayMax: 1000,
    });
    assert.equal(loadConfig({ idleTimeout: "10s" }, {}).streams.heartbeatMs, 5_000);
    assert.equal(loadConfig({ idleTimeout: "0" }, {}).streams.heartbeatMs, 15_000);
    assert.throws(
      () => loadConfig({ maxStreamsPerUser: "-1" }, {}),
      /max streams per user must be a non-negative integer/,
    );
    assert.throws(() => loadConfig({ streamHeartbeat: "0" }, {}), /stream heartbeat must be longer than 0/);
  });

  test("each timeout from its environment variable, in any unit; a flag wins over the environment", () => {
    const env = {
      FEEDGATE_REQUEST_TIMEOUT: "30s",
      FEEDGATE_HEADERS_TIMEOUT: "500ms",
      FEEDGATE_KEEP_ALIVE_TIMEOUT: "2m",
      FEEDGATE_IDLE_TIMEOUT: "0",
      FEEDGATE_DB_CONNECT_TIMEOUT: "1s",
      FEEDGATE_DB_STATEMENT_TIMEOUT: "1m",
      FEEDGATE_DB_QUERY_TIMEOUT: "90s",
      FEEDGATE_DB_POOL_SIZE: "3",
    };
    const config = loadConfig({}, env);
    assert.deepEqual(config.timeouts, { requestMs: 30_000, headersMs: 500, keepAliveMs: 120_000, idleMs: 0 });
    assert.deepEqual(config.database, {
      maxConnections: 3,
      connectTimeoutMs: 1_000,
      statementTimeoutMs: 60_000,
      queryTimeoutMs: 90_000,
    });
    assert.equal(loadConfig({ requestTimeout: "45s" }, env).timeouts.requestMs, 45_000);
  });

  test("one duration syntax for every duration: timeouts take hours, the feed age takes milliseconds", () => {
    assert.equal(loadConfig({ requestTimeout: "1h" }, {}).timeouts.requestMs, 3_600_000);
    assert.equal(loadConfig({ feedMaxAge: "30d" }, {}).feeds.maxAgeSeconds, 30 * 86_400);
    assert.equal(loadConfig({ feedMaxAge: "90000ms" }, {}).feeds.maxAgeSeconds, 90);
  });

  test("retention: webhook deliveries 30 days, events kept, every 10 minutes in batches of 1000; under a minute is refused", () => {
    assert.deepEqual(loadConfig({}, {}).retention, {
      webhookDeliveriesMs: 30 * 86_400_000,
      eventsMs: null,
      intervalMs: 600_000,
      batchSize: 1000,
    });
    assert.equal(loadConfig({ eventRetention: "30d" }, {}).retention.eventsMs, 30 * 86_400_000);
    assert.equal(loadConfig({}, { FEEDGATE_WEBHOOK_DELIVERY_RETENTION: "OFF" }).retention.webhookDeliveriesMs, null);
    assert.equal(loadConfig({ eventRetention: "1m" }, {}).retention.eventsMs, 60_000);
    for (const [input, pattern] of [
      [{ eventRetention: "30s" }, /^event retention must be off or at least 1m \(a minute\), such as 30d, got "30s"$/],
      [{ webhookDeliveryRetention: "0" }, /^webhook delivery retention must be off or at least 1m/],
      [{ eventRetention: "forever" }, /^event retention must be a duration/],
      [{ retentionBatch: "0" }, /^retention batch must be at least 1/],
      [{ retentionInterval: "0" }, /^retention interval must be longer than 0/],
    ] as const) {
      assert.throws(
        () => loadConfig(input, {}),
        (error: unknown) => error instanceof InvalidInputError && pattern.test(error.message),
        JSON.stringify(input),
      );
    }
  });

  test("--trust-proxy: true, a hop count, or addresses and CIDRs; anything else is refused", () => {
    assert.equal(loadConfig({}, { FEEDGATE_TRUST_PROXY: "true" }).trustProxy, true);
    assert.equal(loadConfig({}, { FEEDGATE_TRUST_PROXY: "2" }).trustProxy, 2);
    assert.deepEqual(loadConfig({ trustProxy: "10.0.0.0/8, 192.168.1.1,loopback" }, {}).trustProxy, [
      "10.0.0.0/8",
      "192.168.1.1",
      "loopback",
    ]);
    assert.throws(() => loadConfig({ trustProxy: "the balancer" }, {}), InvalidInputError);
  });

  test("values a setting cannot take are one InvalidInputError naming it", () => {
    for (const [input, env, pattern] of [
      [{ requestTimeout: "soon" }, {}, /^request timeout must be a duration/],
      [{}, { FEEDGATE_DB_POOL_SIZE: "-1" }, /^database pool size must be a non-negative integer/],
      [{ dbPoolSize: "0" }, {}, /^database pool size must be at least 1/],
      [{ logFormat: "yaml" }, {}, /^log format must be json or pretty/],
      [{}, { FEEDGATE_NUMERIC_IDS: "maybe" }, /^numeric ids \(FEEDGATE_NUMERIC_IDS\) must be true or false/],
      [{ passwordCost: "30" }, {}, /^password cost must be from 4 to 20/],
    ] as const) {
      assert.throws(
        () => loadConfig(input, env),
        (error: unknown) => error instanceof InvalidInputError && pattern.test(error.message),
        JSON.stringify({ input, env }),
      );
    }
  });

  test("every setting has a flag and an environment variable of its own, FEEDGATE_ ones but for the usual three", () => {
    const rows = rowsOf(SETTINGS);
    assert.equal(new Set(rows.map((row) => row.flag)).size, rows.length);
    assert.equal(new Set(rows.map((row) => row.env)).size, rows.length);
    assert.deepEqual(
      rows.map((row) => row.env).filter((env) => !env.startsWith("FEEDGATE_")),
      ["HOST", "PORT", "LOG_LEVEL"],
    );
  });

  test("each setting is read from its environment variable; its flag wins over the variable, which wins over the default", () => {
    const defaults = loadConfig({}, {});
    assert.deepEqual(
      Object.keys(SAMPLES).sort(),
      rowsOf(SETTINGS)
        .map((row) => row.env)
        .sort(),
      "a sample for every row",
    );
    for (const row of rowsOf(SETTINGS)) {
      const { a, b, with: needs = {} } = SAMPLES[row.env]!;
      const fromEnv = loadConfig({}, { ...needs, [row.env]: a });
      const fromFlag = loadConfig({ [inputKey(row)]: b } as ConfigInput, needs);
      assert.notDeepEqual(fromEnv, defaults, `${row.env}=${a} is read`);
      assert.notDeepEqual(fromFlag, fromEnv, `${row.flag} ${b} is read`);
      assert.deepEqual(
        loadConfig({ [inputKey(row)]: b } as ConfigInput, { ...needs, [row.env]: a }),
        fromFlag,
        `${row.flag} wins over ${row.env}`,
      );
      assert.deepEqual(loadConfig({}, { [row.env]: "" }), defaults, `an empty ${row.env} is the default`);
    }
  });

  test("--db-replica is repeatable and its variable takes several URLs; anything but postgres:// is refused", () => {
    const command = settingOption(new Command().exitOverride(), SETTINGS.standbys.urls);
    command.parse(["--db-replica", "postgres://a/feedgate", "--db-replica", "postgres://b,c/feedgate"], {
      from: "user",
    });
    assert.deepEqual(settingValue(command, SETTINGS.standbys.urls, {}), [
      "postgres://a/feedgate",
      "postgres://b,c/feedgate",
    ]);
    assert.deepEqual(loadConfig({}, { FEEDGATE_DB_REPLICA: " postgres://a/x\tpostgres://b/x " }).standbys.urls, [
      "postgres://a/x",
      "postgres://b/x",
    ]);
    assert.deepEqual(loadConfig({}, {}).standbys, { urls: [], maxLagMs: 5000 });
    assert.throws(
      () => loadConfig({ dbReplica: "standby.db" }, {}),
      /^InvalidInputError: database replica must be a postgres:\/\/ URL, got "standby.db"$/,
    );
  });

  test("--db-direct names PostgreSQL itself for a pooled --db: unset by default, anything but postgres:// refused", () => {
    assert.equal(loadConfig({}, {}).dbDirect, undefined);
    assert.equal(loadConfig({}, { FEEDGATE_DB_DIRECT: " postgres://db/x " }).dbDirect, "postgres://db/x");
    assert.throws(
      () => loadConfig({ dbDirect: "localhost:5432" }, {}),
      /^InvalidInputError: database direct URL must be a postgres:\/\/ URL, got "localhost:5432"$/,
    );
  });
});
