import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { startTestApp, type TestApp } from "../helpers/test-app.js";

describe("load-balancer probes", () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ rateLimitAnonymous: 2 });
  });
  after(() => t.close());

  test("/healthz says the process is up; /readyz that the database and counters answer", async () => {
    const health = await t.app.inject({ url: "/healthz" });
    assert.equal(health.statusCode, 200);
    assert.deepEqual(health.json(), { status: "ok" });
    const ready = await t.app.inject({ url: "/readyz" });
    assert.equal(ready.statusCode, 200);
    assert.deepEqual(ready.json(), { status: "ok", checks: { database: "ok", counters: "ok" } });
  });

  test("probes polled far past the anonymous limit neither count nor carry rate-limit headers", async () => {
    for (let i = 0; i < 5; i++) {
      for (const url of ["/healthz", "/readyz"]) {
        const res = await t.app.inject({ url });
        assert.equal(res.statusCode, 200, `${url} poll ${i}`);
        assert.equal(res.headers["x-ratelimit-limit"], undefined);
      }
    }
    const api = await t.app.inject({ url: "/events" });
    assert.equal(api.statusCode, 200);
    assert.equal(api.headers["x-ratelimit-remaining"], "1");
  });
});
