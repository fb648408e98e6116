/**
 * Regressions found by running real GitHub clients against feedgate (tests/compat/), pinned at the HTTP level
 * so that they fail here, next to the server, whichever client found them.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { startTestApp, type TestApp } from "../helpers/test-app.js";
import { IngestService } from "../../src/server/services/ingest.js";

const BASE = "https://feedgate.example";
const TOKEN = "0123456789abcdef0123456789abcdef01234567";

/** `Link` as {rel: url}. */
function links(header: unknown): Record<string, URL> {
  assert.ok(typeof header === "string", "a Link header");
  return Object.fromEntries(
    header.split(", ").map((part) => {
      const match = /^<([^>]+)>; rel="(\w+)"$/.exec(part);
      assert.ok(match, `malformed Link part: ${part}`);
      return [match[2]!, new URL(match[1]!)];
    }),
  );
}

describe("regressions found by real GitHub clients", () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ baseUrl: BASE });
    await new IngestService(t.store, t.clock.now).seedWorld(
      {
        users: [{ login: "nina", password: "nina-password" }],
        repos: [{ full_name: "nina/notes", private: true }],
        tokens: [{ user: "nina", token: TOKEN, scopes: ["repo"] }],
        events: Array.from({ length: 5 }, (_, i) => ({
          id: String(100 + i),
          type: "PushEvent",
          actor: { login: "nina" },
          repo: { name: "nina/notes" },
          payload: {},
          public: false,
          created_at: `2026-01-14T00:0${i}:00Z`,
        })),
      },
      { baseDir: undefined },
    );
  });
  after(() => t.close());

  // node-github 0.2.4 authenticates with ?access_token= and its getNextPage re-sends the Link URL's query with
  // its own access_token appended: a token echoed into Link made page 2 carry it twice, which is 401.
  test("Link URLs leave out ?access_token=, keeping the other parameters", async () => {
    const res = await t.app.inject({ method: "GET", url: `/repos/nina/notes/events?per_page=2&access_token=${TOKEN}` });
    assert.equal(res.statusCode, 200);
    const rels = links(res.headers.link);
    assert.deepEqual(Object.keys(rels), ["next", "last"]);
    for (const url of Object.values(rels)) {
      assert.equal(url.searchParams.has("access_token"), false, String(url));
      assert.equal(url.searchParams.get("per_page"), "2");
    }
    assert.ok(!String(res.headers.link).includes(TOKEN));
  });

  test("the next page, asked as node-github asks it (Link query plus its own access_token), is served", async () => {
    const first = await t.app.inject({
      method: "GET",
      url: `/repos/nina/notes/events?per_page=2&access_token=${TOKEN}`,
    });
    const next = links(first.headers.link).next!;
    const res = await t.app.inject({ method: "GET", url: `${next.pathname}${next.search}&access_token=${TOKEN}` });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers["x-oauth-scopes"], "repo");
    assert.deepEqual(
      (res.json() as { id: string }[]).map((e) => e.id),
      ["102", "101"],
    );
    assert.ok(!String(res.headers.link).includes(TOKEN));
  });
});
