/**
 * GitHub Enterprise Server's layout (issue 14): every API route is served at `/` and under `/api/v3`, and the
 * absolute URLs of an answer (`Link`, `Location`, `url` fields, the OpenAPI `servers`) keep the prefix the request
 * used. Probes and metrics are not API and stay at `/` only.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import type { LightMyRequestResponse } from "fastify";
import { basic, startTestApp, type TestApp } from "../helpers/test-app.js";
import { IngestService } from "../../src/server/services/ingest.js";
import { links } from "../helpers/assertions.js";

const PAT = basic("pat", "pat-password");
const HOST = "feedgate.test";
const ORIGIN = `http://${HOST}`;

const events = Array.from({ length: 5 }, (_, i) => ({
  id: String(i + 1),
  type: "PushEvent",
  actor: { login: "pat" },
  repo: { name: "pat/busy" },
  payload: {},
  public: true,
  created_at: `2026-01-14T00:0${i}:00Z`,
}));

async function seeded(config: Parameters<typeof startTestApp>[0] = {}): Promise<TestApp> {
  const t = await startTestApp({ rateLimitAnonymous: 1000, ...config });
  await new IngestService(t.store, t.clock.now).seedWorld(
    {
      users: [{ login: "pat", password: "pat-password" }],
      repos: [{ full_name: "pat/busy" }],
      events,
    },
    { baseDir: undefined },
  );
  return t;
}

const remaining = (res: LightMyRequestResponse) => Number(res.headers["x-ratelimit-remaining"]);

describe("the /api/v3 layout", () => {
  let t: TestApp;
  before(async () => {
    t = await seeded();
    // Routes registered after the app is built are served under the prefix too.
    t.app.get("/_test/later", async (request) => ({ base: request.baseUrl }));
  });
  after(() => t.close());

  const get = (url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: "GET", url, headers: { host: HOST, ...headers } });

  test("a feed under /api/v3 answers as at /, with Link URLs under /api/v3", async () => {
    const prefixed = await get("/api/v3/events?per_page=2&page=2");
    const root = await get("/events?per_page=2&page=2");
    assert.equal(prefixed.statusCode, 200);
    assert.deepEqual(
      prefixed.json().map((e: { id: string }) => e.id),
      root.json().map((e: { id: string }) => e.id),
    );
    assert.deepEqual(links(prefixed.headers.link), {
      prev: `${ORIGIN}/api/v3/events?per_page=2&page=1`,
      next: `${ORIGIN}/api/v3/events?per_page=2&page=3`,
      last: `${ORIGIN}/api/v3/events?per_page=2&page=3`,
      first: `${ORIGIN}/api/v3/events?per_page=2&page=1`,
    });
    assert.deepEqual(links(root.headers.link).next, `${ORIGIN}/events?per_page=2&page=3`);
  });

  test("url fields of events carry the prefix the request used", async () => {
    const [prefixed] = (await get("/api/v3/repos/pat/busy/events?per_page=1")).json();
    const [root] = (await get("/repos/pat/busy/events?per_page=1")).json();
    assert.equal(prefixed.actor.url, `${ORIGIN}/api/v3/users/pat`);
    assert.equal(prefixed.repo.url, `${ORIGIN}/api/v3/repos/pat/busy`);
    assert.equal(root.actor.url, `${ORIGIN}/users/pat`);
  });

  test("POST /api/v3/authorizations: Location and url under /api/v3; get, list and delete there too", async () => {
    const created = await t.app.inject({
      method: "POST",
      url: "/api/v3/authorizations",
      headers: { host: HOST, authorization: PAT },
      payload: { note: "enterprise" },
    });
    assert.equal(created.statusCode, 201);
    const { id, url } = created.json();
    assert.equal(created.headers.location, `${ORIGIN}/api/v3/authorizations/${id}`);
    assert.equal(url, created.headers.location);
    const one = await get(`/api/v3/authorizations/${id}`, { authorization: PAT });
    assert.equal(one.json().url, `${ORIGIN}/api/v3/authorizations/${id}`);
    assert.equal(
      (await get(`/authorizations/${id}`, { authorization: PAT })).json().url,
      `${ORIGIN}/authorizations/${id}`,
    );
    const list = await get("/api/v3/authorizations", { authorization: PAT });
    assert.ok(list.json().every((a: { url: string }) => a.url.startsWith(`${ORIGIN}/api/v3/authorizations/`)));
    const deleted = await t.app.inject({
      method: "DELETE",
      url: `/api/v3/authorizations/${id}`,
      headers: { host: HOST, authorization: PAT },
    });
    assert.equal(deleted.statusCode, 204);
  });

  test("GET /api/v3 and /api/v3/ answer the root document GET / answers, its URLs under /api/v3", async () => {
    const root = await get("/");
    assert.equal(root.json().current_user_url, `${ORIGIN}/user`);
    // API URLs move under the prefix; web pages stay at the host's root, as on GitHub Enterprise.
    const prefixed = Object.fromEntries(
      Object.entries(root.json() as Record<string, string>).map(([key, value]) => [
        key,
        key.endsWith("html_url") ? value : value.replace(`${ORIGIN}/`, `${ORIGIN}/api/v3/`),
      ]),
    );
    for (const url of ["/api/v3", "/api/v3/", "/api/v3?x=1"]) {
      const res = await get(url);
      assert.equal(res.statusCode, 200, url);
      assert.deepEqual(res.json(), prefixed, url);
    }
  });

  test("a route registered later is served under the prefix, its baseUrl carrying it", async () => {
    assert.deepEqual((await get("/_test/later")).json(), { base: ORIGIN });
    assert.deepEqual((await get("/api/v3/_test/later")).json(), { base: `${ORIGIN}/api/v3` });
  });

  test("unknown paths under the prefix are GitHub's 404; the prefix is stripped once, and only as a whole segment", async () => {
    // The message names the path routed: without the prefix where it was stripped.
    for (const [url, routed] of [
      ["/api/v3/nope", "/nope"],
      ["/api/v3/api/v3/events", "/api/v3/events"],
      ["/api/v3x/events", "/api/v3x/events"],
      ["/api/v30/events", "/api/v30/events"],
      ["/api/v3/authorizations/x/y", "/authorizations/x/y"],
    ] as const) {
      const res = await get(url);
      assert.equal(res.statusCode, 404, url);
      assert.deepEqual(
        res.json(),
        {
          message: `Not Found: feedgate does not implement GET ${routed}`,
          documentation_url: "https://developer.github.com/v3",
        },
        url,
      );
      assert.ok(res.headers["x-ratelimit-limit"], url);
    }
  });

  test("probes and metrics are not API: at / only", async () => {
    for (const path of ["/healthz", "/readyz", "/metrics"]) {
      assert.equal((await get(path)).statusCode, 200, path);
      const prefixed = await get(`/api/v3${path}`);
      assert.equal(prefixed.statusCode, 404, path);
      assert.equal(prefixed.json().message, `Not Found: feedgate does not implement GET /api/v3${path}`, path);
    }
  });

  test("the API description is API: under /api/v3 its server URL carries the prefix", async () => {
    assert.deepEqual((await get("/openapi.json")).json().servers, [{ url: ORIGIN }]);
    const prefixed = await get("/api/v3/openapi.json");
    assert.equal(prefixed.statusCode, 200);
    assert.deepEqual(prefixed.json().servers, [{ url: `${ORIGIN}/api/v3` }]);
  });

  test("one rate-limit window across both layouts, and 304s free in both", async () => {
    const a = await get("/events", { "x-forwarded-for": "ignored" });
    const b = await get("/api/v3/events");
    assert.equal(remaining(b), remaining(a) - 1);
    for (const url of ["/events", "/api/v3/events"]) {
      const first = await get(url);
      assert.match(String(first.headers.etag), /^"[0-9a-f]{64}"$/);
      const again = await get(url, { "if-none-match": String(first.headers.etag) });
      assert.equal(again.statusCode, 304, url);
      assert.equal(remaining(again), remaining(first), url);
    }
    // A body without URLs of its own (complete events) is the same bytes, hence the same ETag, in both layouts.
    const root = await get("/authorizations", { authorization: PAT });
    const prefixed = await get("/api/v3/authorizations", { authorization: PAT });
    assert.deepEqual([root.body, prefixed.body], ["[]", "[]"]);
    assert.equal(root.headers.etag, prefixed.headers.etag);
  });

  test("metrics label requests under /api/v3 with the route pattern", async () => {
    await get("/api/v3/repos/pat/busy/events");
    const metrics = (await get("/metrics")).body;
    assert.match(metrics, /route="\/repos\/:user\/:repo\/events"/);
    assert.doesNotMatch(metrics, /route="\/api\/v3/);
  });
});

describe("the /api/v3 layout with --base-url", () => {
  const CASES: [base: string, url: string, expected: string][] = [
    ["https://ghe.example", "/api/v3/authorizations", "https://ghe.example/api/v3/authorizations"],
    ["https://ghe.example", "/authorizations", "https://ghe.example/authorizations"],
    // A proxy that passes /api/v3 through: the base URL names it, and it is not doubled.
    ["https://ghe.example/api/v3", "/api/v3/authorizations", "https://ghe.example/api/v3/authorizations"],
    ["https://ghe.example/api/v3/", "/api/v3/authorizations", "https://ghe.example/api/v3/authorizations"],
    // A proxy that maps https://ghe.example/api/v3/ to feedgate's /: requests arrive without the prefix.
    ["https://ghe.example/api/v3", "/authorizations", "https://ghe.example/api/v3/authorizations"],
    // A proxy mounting feedgate under a path of its own.
    ["https://tools.example/github", "/api/v3/authorizations", "https://tools.example/github/api/v3/authorizations"],
  ];
  for (const [base, url, expected] of CASES) {
    test(`--base-url ${base}, POST ${url}: Location ${expected}/:id`, async () => {
      const t = await seeded({ baseUrl: base });
      try {
        const created = await t.app.inject({
          method: "POST",
          url,
          headers: { authorization: PAT },
          payload: { note: "n" },
        });
        assert.equal(created.statusCode, 201);
        assert.equal(created.headers.location, `${expected}/${created.json().id}`);
        const page = await t.app.inject({ method: "GET", url: url.replace("authorizations", "events?per_page=2") });
        assert.equal(
          links(page.headers.link).next,
          `${expected.replace("authorizations", "events")}?per_page=2&page=2`,
        );
      } finally {
        await t.close();
      }
    });
  }
});
