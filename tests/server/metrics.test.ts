/**
 * GET /metrics: Prometheus text whose numbers follow real requests (cache hits and misses, failed logins,
 * refused requests, ingested events, request durations by route pattern), that no scrape is charged for, and
 * that moves to a port of its own with `--metrics-port`.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { isDeepStrictEqual } from "node:util";
import { eventually } from "../helpers/wait.js";
import { basic, startTestApp, type TestApp } from "../helpers/test-app.js";
import { testDriver, type TestDatabase } from "../helpers/store-drivers.js";
import { ndjson } from "../helpers/ingest-fixtures.js";
import { event } from "../helpers/events.js";
import { IngestService } from "../../src/server/services/ingest.js";
import { loadConfig } from "../../src/server/config.js";
import { startServer, type RunningServer } from "../../src/server/main.js";

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

interface Exposition {
  types: Map<string, string>;
  samples: Sample[];
}

/** Prometheus text format 0.0.4: `# TYPE name type` lines and `name{label="value",...} number` samples. */
function parse(text: string): Exposition {
  const types = new Map<string, string>();
  const samples: Sample[] = [];
  for (const line of text.split("\n")) {
    const type = /^# TYPE (\S+) (\S+)$/.exec(line);
    if (type) types.set(type[1]!, type[2]!);
    if (line === "" || line.startsWith("#")) continue;
    const sample = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    assert.ok(sample, `not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, name, value] of (sample[2] ?? "").matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) {
      labels[name!] = value!.replace(/\\(.)/g, (_, c: string) => (c === "n" ? "\n" : c));
    }
    samples.push({ name: sample[1]!, labels, value: Number(sample[3]) });
  }
  return { types, samples };
}

/** The value of the one series of `name` carrying these labels; undefined when there is none. */
function sampleValue({ samples }: Exposition, name: string, labels: Record<string, string> = {}): number | undefined {
  const matches = samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  assert.ok(matches.length <= 1, `${name} ${JSON.stringify(labels)} names ${matches.length} series`);
  return matches[0]?.value;
}

async function scrape(t: TestApp): Promise<Exposition> {
  const res = await t.app.inject({ url: "/metrics" });
  assert.equal(res.statusCode, 200);
  return parse(res.body);
}

const PASSWORD = "metrics-password-Q7";
const OTP_SECRET = "JBSWY3DPEHPK3PXP";

describe("GET /metrics", () => {
  let t: TestApp;
  let token: string;
  before(async () => {
    t = await startTestApp({ rateLimitAnonymous: 10_000 });
    const owner = await t.createUser("metrics-owner", PASSWORD);
    await t.createUser("metrics-otp", PASSWORD, { otpSecret: OTP_SECRET });
    await t.createUser("metrics-root", PASSWORD, { siteAdmin: true });
    token = (await t.createToken(owner, ["repo"])).token;
    // Through a service without the app's counter: these events are not the serving app's ingests.
    await new IngestService(t.store, t.clock.now).ingestEvents([
      event("101", "PushEvent", "metrics-owner", "metrics-owner/widgets", { public: true }),
      event("102", "WatchEvent", "metrics-owner", "metrics-owner/widgets", { public: true }),
    ]);
  });
  after(() => t.close());

  test("serves each metric family with its Prometheus type, as text format 0.0.4", async () => {
    const res = await t.app.inject({ url: "/metrics" });
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers["content-type"]), /^text\/plain; version=0\.0\.4/);
    assert.equal(res.headers["cache-control"], "no-store");
    const { types } = parse(res.body);
    const expected: Record<string, string> = {
      http_request_duration_seconds: "histogram",
      feedgate_feed_cache_requests_total: "counter",
      feedgate_stale_responses_total: "counter",
      feedgate_events_ingested_total: "counter",
      feedgate_rate_limited_total: "counter",
      feedgate_login_failures_total: "counter",
      feedgate_db_pool_connections: "gauge",
      feedgate_streams_resumed_total: "counter",
      feedgate_stream_gaps_total: "counter",
      feedgate_retention_pruned_total: "counter",
      feedgate_retention_last_run_timestamp_seconds: "gauge",
      // prom-client's default process metrics
      process_cpu_seconds_total: "counter",
      process_start_time_seconds: "gauge",
      nodejs_eventloop_lag_seconds: "gauge",
      nodejs_heap_size_used_bytes: "gauge",
    };
    for (const [name, type] of Object.entries(expected)) assert.equal(types.get(name), type, name);
  });

  test("a feed read twice is one cache miss, then one hit", async () => {
    const before = await scrape(t);
    for (let i = 0; i < 2; i++) {
      assert.equal((await t.app.inject({ url: "/repos/metrics-owner/widgets/events?per_page=7" })).statusCode, 200);
    }
    const after = await scrape(t);
    const delta = (result: string) =>
      sampleValue(after, "feedgate_feed_cache_requests_total", { result })! -
      sampleValue(before, "feedgate_feed_cache_requests_total", { result })!;
    assert.equal(delta("miss"), 1);
    assert.equal(delta("hit"), 1);
  });

  test("wrong passwords and wrong one-time codes are login failures; right ones and OTP challenges are not", async () => {
    const failures = async () => sampleValue(await scrape(t), "feedgate_login_failures_total");
    const login = (who: string, password: string, otp?: string) =>
      t.app.inject({
        url: "/authorizations",
        headers: { authorization: basic(who, password), ...(otp ? { "x-github-otp": otp } : {}) },
      });
    assert.equal(await failures(), 0);
    assert.equal((await login("metrics-owner", "not-the-password")).statusCode, 401);
    assert.equal(await failures(), 1);
    assert.equal((await login("metrics-owner", PASSWORD)).statusCode, 200);
    assert.equal((await login("metrics-otp", PASSWORD)).statusCode, 401, "the challenge for a code");
    assert.equal(await failures(), 1);
    assert.equal((await login("metrics-otp", PASSWORD, "000000")).statusCode, 401);
    assert.equal(await failures(), 2);
  });

  test("admin ingests count the events they added, not those already stored", async () => {
    const ingested = async () => sampleValue(await scrape(t), "feedgate_events_ingested_total");
    const post = (url: string, payload: string) =>
      t.app.inject({
        method: "POST",
        url,
        payload,
        headers: { authorization: basic("metrics-root", PASSWORD) },
      });
    assert.equal(await ingested(), 0);
    const batch = ndjson(
      ["201", "202", "203"].map((id) => event(id, "PushEvent", "metrics-owner", "metrics-owner/gadgets")),
    );
    assert.equal((await post("/admin/events", batch)).statusCode, 200);
    assert.equal(await ingested(), 3);
    assert.equal((await post("/admin/events", batch)).statusCode, 200);
    assert.equal(await ingested(), 3, "an ingest of stored events adds nothing");
    const world = {
      events: ["203", "204"].map((id) => event(id, "PushEvent", "metrics-owner", "metrics-owner/gadgets")),
    };
    assert.equal((await post("/admin/world", JSON.stringify(world))).statusCode, 200);
    assert.equal(await ingested(), 4);
  });

  test("request durations are labelled by route pattern, never by a URL, login, token or query", async () => {
    const secretQuery = `per_page=3&access_token=${token}`;
    assert.equal((await t.app.inject({ url: `/repos/metrics-owner/widgets/events?${secretQuery}` })).statusCode, 200);
    assert.equal((await t.app.inject({ url: `/no/such/metrics-owner/${token}?${secretQuery}` })).statusCode, 404);
    assert.equal((await t.app.inject({ url: "/users/metrics-nobody/events" })).statusCode, 404);
    const metrics = await scrape(t);
    const count = (route: string, statusCode: string) =>
      sampleValue(metrics, "http_request_duration_seconds_count", { method: "GET", route, status_code: statusCode });
    assert.ok(count("/repos/:user/:repo/events", "200")! >= 1);
    assert.equal(count("unmatched", "404"), 1);
    assert.equal(count("/users/:user/events", "404"), 1, "a matched route keeps its pattern on a 404");
    const bucket = sampleValue(metrics, "http_request_duration_seconds_bucket", {
      method: "GET",
      route: "unmatched",
      status_code: "404",
      le: "+Inf",
    });
    assert.equal(bucket, 1);

    const secrets = [
      "metrics-owner",
      "metrics-nobody",
      "metrics-root",
      token,
      token.slice(-8),
      PASSWORD,
      "per_page",
      "?",
    ];
    for (const { name, labels } of metrics.samples) {
      for (const value of Object.values(labels)) {
        for (const secret of secrets)
          assert.ok(!value.includes(secret), `${name} has a label ${JSON.stringify(value)}`);
      }
    }
  });

  test("the pool gauge reports the store's connections by state", async () => {
    const gaugeNow = async () => {
      const metrics = await scrape(t);
      const gauge = Object.fromEntries(
        ["idle", "active", "waiting"].map((state) => [
          state,
          sampleValue(metrics, "feedgate_db_pool_connections", { state }),
        ]),
      );
      return { gauge, pool: t.store.connections() };
    };
    // A scrape uses no connection, but the app's background work (the dispatcher, retention) may hold one for a
    // moment while it runs: a scrape then and the pool read just after may differ, so the pair is read until the two
    // agree, as they do whenever nothing runs between them.
    const { gauge, pool } = await eventually(gaugeNow, ({ gauge, pool }) => isDeepStrictEqual(gauge, pool));
    assert.deepEqual(gauge, pool);
    if (testDriver().name === "postgres") {
      assert.ok(gauge.idle! >= 1, "the pool keeps the connections earlier requests used");
      assert.equal(gauge.waiting, 0);
    } else {
      assert.deepEqual(gauge, { idle: 1, active: 0, waiting: 0 }, "SQLite's one connection, between statements");
    }
  });
});

describe("GET /metrics and rate limits", () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ rateLimitAnonymous: 2 });
  });
  after(() => t.close());

  test("scrapes far past the anonymous limit are neither counted nor sent rate-limit headers", async () => {
    for (let i = 0; i < 5; i++) {
      const res = await t.app.inject({ url: "/metrics" });
      assert.equal(res.statusCode, 200, `scrape ${i}`);
      for (const header of Object.keys(res.headers)) assert.ok(!header.startsWith("x-ratelimit"), header);
    }
    const api = await t.app.inject({ url: "/events" });
    assert.equal(api.statusCode, 200);
    assert.equal(api.headers["x-ratelimit-remaining"], "1");
  });

  test("an anonymous client over its limit counts one rate-limited request", async () => {
    assert.equal(sampleValue(await scrape(t), "feedgate_rate_limited_total"), 0);
    assert.equal((await t.app.inject({ url: "/events" })).statusCode, 200);
    const refused = await t.app.inject({ url: "/events" });
    assert.equal(refused.statusCode, 403);
    assert.match(refused.json().message, /API rate limit exceeded/);
    assert.equal(sampleValue(await scrape(t), "feedgate_rate_limited_total"), 1);
  });
});

describe("--metrics-port", () => {
  let database: TestDatabase;
  let server: RunningServer;
  before(async () => {
    database = await testDriver().create();
    server = await startServer(
      loadConfig({ db: database.db, host: "127.0.0.1", port: 0, metricsPort: 0, logLevel: "silent" }, {}),
    );
  });
  after(async () => {
    await server.stop();
    await database.drop();
  });

  test("is read from the flag, then FEEDGATE_METRICS_PORT; unset, /metrics stays on the API port", () => {
    assert.equal(loadConfig({ metricsPort: "9464" }, { FEEDGATE_METRICS_PORT: "9100" }).metricsPort, 9464);
    assert.equal(loadConfig({}, { FEEDGATE_METRICS_PORT: "9100" }).metricsPort, 9100);
    assert.equal(loadConfig({}, {}).metricsPort, undefined);
    assert.throws(
      () => loadConfig({ metricsPort: "ninety" }, {}),
      /^InvalidInputError: --metrics-port \(or FEEDGATE_METRICS_PORT\) must be a port from 0 to 65535/,
    );
  });

  test("the API port answers /metrics with GitHub's 404 while the metrics port serves the API's metrics", async () => {
    assert.ok(server.metricsUrl && server.metricsUrl !== server.url);
    const hidden = await fetch(`${server.url}/metrics`);
    assert.equal(hidden.status, 404);
    assert.deepEqual(await hidden.json(), {
      message: "Not Found: feedgate does not implement GET /metrics",
      documentation_url: "https://developer.github.com/v3",
    });
    assert.equal((await fetch(`${server.url}/events`)).status, 200);

    const res = await fetch(`${server.metricsUrl}/metrics`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type")!, /^text\/plain; version=0\.0\.4/);
    assert.equal(res.headers.get("x-ratelimit-limit"), null);
    const metrics = parse(await res.text());
    const count = (route: string, statusCode: string) =>
      sampleValue(metrics, "http_request_duration_seconds_count", { method: "GET", route, status_code: statusCode });
    assert.equal(count("unmatched", "404"), 1, "the API port's 404 for /metrics");
    assert.equal(count("/events", "200"), 1);
  });

  test("stop() closes the metrics port with the API port", async () => {
    const { metricsUrl } = server;
    await server.stop();
    await assert.rejects(fetch(`${metricsUrl}/metrics`));
  });
});
