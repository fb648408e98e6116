/**
 * The settings the README's Configuration table promises: each default, the environment variable that sets it,
 * flags winning over the environment, and values refused with one line naming the setting.
 */
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { loadConfig } from "../../src/server/config.js";
import { InvalidInputError } from "../../src/server/failures.js";

describe("configuration", () => {
  test("defaults: timeouts, database limits, rate limits and lockout as the README's table says", () => {
    const config = loadConfig({}, {});
    assert.deepEqual(config.timeouts, { requestMs: 120_000, headersMs: 20_000, keepAliveMs: 72_000, idleMs: 120_000 });
    assert.deepEqual(config.database, { maxConnections: 10, connectTimeoutMs: 5_000, statementTimeoutMs: 15_000, queryTimeoutMs: 20_000 });
    assert.deepEqual(config.rateLimit, { authenticated: 5000, anonymous: 60, windowSeconds: 3600 });
    assert.deepEqual(config.loginLockout, { maxAttempts: 10, windowSeconds: 300 });
    assert.deepEqual([config.host, config.port, config.db, config.trustProxy, config.numericIds, config.logFormat, config.passwordCost],
      ["127.0.0.1", 3000, "./data/feedgate.db", false, false, "json", 15]);
  });

  test("live streams: 10 per user and a 15 s heartbeat by default; the heartbeat stays under half the idle timeout", () => {
    assert.deepEqual(loadConfig({}, {}).streams, { maxPerUser: 10, heartbeatMs: 15_000 });
    assert.deepEqual(loadConfig({ maxStreamsPerUser: "0" }, { FEEDGATE_STREAM_HEARTBEAT: "5s" }).streams, { maxPerUser: 0, heartbeatMs: 5_000 });
    assert.equal(loadConfig({ idleTimeout: "10s" }, {}).streams.heartbeatMs, 5_000);
    assert.equal(loadConfig({ idleTimeout: "0" }, {}).streams.heartbeatMs, 15_000);
    assert.throws(() => loadConfig({ maxStreamsPerUser: "-1" }, {}), /max streams per user must be a non-negative integer/);
    assert.throws(() => loadConfig({ streamHeartbeat: "0" }, {}), /stream heartbeat must be longer than 0/);
  });

  test("each timeout from its environment variable, in any unit; a flag wins over the environment", () => {
    const env = {
      FEEDGATE_REQUEST_TIMEOUT: "30s", FEEDGATE_HEADERS_TIMEOUT: "500ms", FEEDGATE_KEEP_ALIVE_TIMEOUT: "2m", FEEDGATE_IDLE_TIMEOUT: "0",
      FEEDGATE_DB_CONNECT_TIMEOUT: "1s", FEEDGATE_DB_STATEMENT_TIMEOUT: "1m", FEEDGATE_DB_QUERY_TIMEOUT: "90s", FEEDGATE_DB_POOL_SIZE: "3",
    };
    const config = loadConfig({}, env);
    assert.deepEqual(config.timeouts, { requestMs: 30_000, headersMs: 500, keepAliveMs: 120_000, idleMs: 0 });
    assert.deepEqual(config.database, { maxConnections: 3, connectTimeoutMs: 1_000, statementTimeoutMs: 60_000, queryTimeoutMs: 90_000 });
    assert.equal(loadConfig({ requestTimeout: "45s" }, env).timeouts.requestMs, 45_000);
  });

  test("one duration syntax for every duration: timeouts take hours, the feed age takes milliseconds", () => {
    assert.equal(loadConfig({ requestTimeout: "1h" }, {}).timeouts.requestMs, 3_600_000);
    assert.equal(loadConfig({ feedMaxAge: "30d" }, {}).feeds.maxAgeSeconds, 30 * 86_400);
    assert.equal(loadConfig({ feedMaxAge: "90000ms" }, {}).feeds.maxAgeSeconds, 90);
  });

  test("--trust-proxy: true, a hop count, or addresses and CIDRs; anything else is refused", () => {
    assert.equal(loadConfig({}, { FEEDGATE_TRUST_PROXY: "true" }).trustProxy, true);
    assert.equal(loadConfig({}, { FEEDGATE_TRUST_PROXY: "2" }).trustProxy, 2);
    assert.deepEqual(loadConfig({ trustProxy: "10.0.0.0/8, 192.168.1.1,loopback" }, {}).trustProxy,
      ["10.0.0.0/8", "192.168.1.1", "loopback"]);
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
      assert.throws(() => loadConfig(input, env), (error: unknown) => error instanceof InvalidInputError && pattern.test(error.message),
        JSON.stringify({ input, env }));
    }
  });
});
