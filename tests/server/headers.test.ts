import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import type { InjectOptions, LightMyRequestResponse } from "fastify";
import { basic, startTestApp, type TestApp } from "../helpers/test-app.js";

const ALICE = basic("alice", "alice-password");
const ORIGIN = "https://app.example";
/** GitHub's E2 list of headers browsers may read (wire notes 3.5). */
const E2_EXPOSED = [
  "ETag",
  "Link",
  "Retry-After",
  "X-GitHub-OTP",
  "X-RateLimit-Limit",
  "X-RateLimit-Remaining",
  "X-RateLimit-Reset",
  "X-OAuth-Scopes",
  "X-Accepted-OAuth-Scopes",
  "X-Poll-Interval",
];
/** `X-GitHub-Request-Id`: five colon-separated upper-case hex groups, e.g. `FD86:235B:234198C:41EAB8B:5BB12844`. */
const REQUEST_ID = /^[0-9A-F]+(?::[0-9A-F]+){4}$/;

describe("response headers", () => {
  let t: TestApp;
  let existingId: string;
  before(async () => {
    t = await startTestApp();
    const alice = await t.createUser("alice", "alice-password");
    existingId = (await t.createToken(alice, [], "existing")).id;
    // No anonymous route serves a 200 in the authorizations family, so this stands in for the public feeds.
    t.app.get("/_test/public", async () => ({ ok: true }));
  });
  after(() => t.close());

  const call = (request: InjectOptions) => t.app.inject(request);
  const list = (headers: Record<string, string> = {}) =>
    call({ method: "GET", url: "/authorizations", headers: { authorization: ALICE, ...headers } });

  /** One request per status the authorizations API answers. */
  const byStatus = async (): Promise<[string, LightMyRequestResponse][]> => {
    const created = await call({
      method: "POST",
      url: "/authorizations",
      headers: { authorization: ALICE, origin: ORIGIN },
      payload: { note: "h" },
    });
    return [
      ["200 OK", await list({ origin: ORIGIN })],
      ["201 Created", created],
      [
        "204 No Content",
        await call({
          method: "DELETE",
          url: `/authorizations/${created.json().id}`,
          headers: { authorization: ALICE, origin: ORIGIN },
        }),
      ],
      ["401 Unauthorized", await call({ method: "GET", url: "/authorizations", headers: { origin: ORIGIN } })],
      ["404 Not Found", await call({ method: "GET", url: "/nope", headers: { origin: ORIGIN } })],
      [
        "422 Unprocessable Entity",
        await call({ method: "GET", url: "/authorizations?page=x", headers: { authorization: ALICE, origin: ORIGIN } }),
      ],
    ];
  };

  test("Status mirrors the status line on every response", async () => {
    for (const [status, res] of await byStatus()) {
      assert.equal(res.statusCode, Number(status.slice(0, 3)));
      assert.equal(res.headers.status, status);
    }
  });

  test("every response names GitHub's media type, a GitHub-shaped request id, and CORS", async () => {
    const ids = new Set<string>();
    for (const [status, res] of await byStatus()) {
      assert.equal(res.headers["x-github-media-type"], "github.v3; format=json", status);
      const id = String(res.headers["x-github-request-id"]);
      assert.match(id, REQUEST_ID, status);
      ids.add(id);
      assert.equal(res.headers["access-control-allow-origin"], "*", status);
      const exposed = String(res.headers["access-control-expose-headers"]).split(", ");
      for (const name of E2_EXPOSED) assert.ok(exposed.includes(name), `${name} exposed on ${status}`);
      assert.equal(res.headers["x-content-type-options"], "nosniff", status);
      const vary = String(res.headers.vary).split(", ");
      for (const name of ["Accept", "Authorization", "X-GitHub-OTP"])
        assert.ok(vary.includes(name), `Vary ${name} on ${status}`);
    }
    assert.equal(ids.size, 6, "request ids are unique");
  });

  test("a CORS preflight is 204 with the allowed methods, OTP header and a day's Max-Age, and needs no credentials", async () => {
    const res = await call({
      method: "OPTIONS",
      url: "/authorizations",
      headers: {
        origin: ORIGIN,
        "access-control-request-method": "PATCH",
        "access-control-request-headers": "authorization, x-github-otp",
      },
    });
    assert.equal(res.statusCode, 204);
    assert.equal(res.body, "");
    assert.equal(res.headers["access-control-allow-origin"], "*");
    assert.equal(res.headers["access-control-allow-methods"], "GET, POST, PATCH, PUT, DELETE");
    assert.equal(res.headers["access-control-max-age"], "86400");
    const allowed = String(res.headers["access-control-allow-headers"]).toLowerCase().split(", ");
    for (const name of ["authorization", "x-github-otp", "if-none-match", "content-type"])
      assert.ok(allowed.includes(name), name);
  });

  test("Cache-Control is private for an authenticated GET, public for an anonymous one, no-store otherwise", async () => {
    assert.equal((await list()).headers["cache-control"], "private, max-age=60, s-maxage=60");
    assert.equal(
      (await call({ method: "GET", url: "/_test/public" })).headers["cache-control"],
      "public, max-age=60, s-maxage=60",
    );
    const write = await call({
      method: "PATCH",
      url: `/authorizations/${existingId}`,
      headers: { authorization: ALICE },
      payload: { note: "again" },
    });
    assert.equal(write.statusCode, 200);
    assert.equal(write.headers["cache-control"], "no-store");
    assert.equal((await call({ method: "GET", url: "/nope" })).headers["cache-control"], "no-store");
  });

  const servedAccept = [
    "application/vnd.github.v3+json",
    "application/json",
    "*/*",
    undefined,
    "application/vnd.github.v3.full+json",
    "application/vnd.github+json",
    "application/vnd.github.mirage-preview+json",
    "application/vnd.github.v4+json, application/vnd.github.v3+json",
  ];
  for (const accept of servedAccept) {
    test(`Accept: ${accept ?? "(none)"} is served`, async () => {
      const res = await list(accept ? { accept } : {});
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers["x-github-media-type"], "github.v3; format=json");
    });
  }

  for (const accept of ["application/vnd.github.v4+json", "application/vnd.github.v2.raw+json"]) {
    test(`Accept: ${accept} is 415 naming version 3.0.0`, async () => {
      const res = await list({ accept });
      assert.equal(res.statusCode, 415);
      const body = res.json();
      assert.deepEqual(Object.keys(body).sort(), ["documentation_url", "message"]);
      assert.match(body.message, /3\.0\.0/);
    });
  }

  test("X-GitHub-Api-Version: 2022-11-28 when none (or 3.0.0) is named, else the one named; an unknown one is GitHub's 400", async () => {
    for (const [asked, selected] of [
      [undefined, "2022-11-28"],
      ["3.0.0", "2022-11-28"],
      ["2022-11-28", "2022-11-28"],
      ["2026-03-10", "2026-03-10"],
    ]) {
      const res = await list(asked === undefined ? {} : { "x-github-api-version": asked });
      assert.equal(res.statusCode, 200, String(asked));
      assert.equal(res.headers["x-github-api-version-selected"], selected, String(asked));
    }
    const res = await list({ "x-github-api-version": "1999-01-01" });
    assert.equal(res.statusCode, 400);
    assert.deepEqual(res.json(), {
      message: "Bad Request",
      errors:
        'The version you specified in the "X-GitHub-API-Version" request header, "1999-01-01", is not a supported version. ' +
        'The following versions are currently supported: "2026-03-10" (most recent) and "2022-11-28".',
      documentation_url: "https://docs.github.com/rest",
      status: "400",
    });
    assert.equal(res.headers.status, "400 Bad Request");
    assert.equal(res.headers["x-github-api-version-selected"], undefined);
  });

  test("2026-03-10 leaves out what it removed: the rate limit's rate, the root's authorizations_url and hub_url", async () => {
    const both = async (url: string) =>
      Promise.all(
        ["2022-11-28", "2026-03-10"].map(async (version) =>
          (await t.app.inject({ url, headers: { "x-github-api-version": version } })).json<Record<string, unknown>>(),
        ),
      );
    const [oldLimit, newLimit] = await both("/rate_limit");
    assert.deepEqual(oldLimit!.rate, (oldLimit!.resources as { core: unknown }).core);
    assert.equal("rate" in newLimit!, false);
    assert.deepEqual(newLimit!.resources, oldLimit!.resources);
    const [oldRoot, newRoot] = await both("/");
    assert.ok(oldRoot!.authorizations_url && oldRoot!.hub_url);
    assert.deepEqual(
      Object.keys(newRoot!),
      Object.keys(oldRoot!).filter((key) => key !== "authorizations_url" && key !== "hub_url"),
    );
  });
});
