/**
 * `GET /search/issues`: GitHub's qualifiers bots use, over the issues the caller may see, with GitHub's result shape,
 * paging, its own rate-limit window, and a 422 naming a qualifier feedgate does not serve or a repository that cannot
 * be searched.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { startTestApp, type TestApp } from "../helpers/test-app.js";
import { IngestService } from "../../src/server/services/ingest.js";
import { assertSchema } from "../compat/schemas.js";

const WORLD = {
  users: [{ login: "octocat" }, { login: "hubot" }, { login: "outsider" }],
  orgs: [{ login: "acme", members: ["hubot"] }],
  repos: [{ full_name: "octocat/hello" }, { full_name: "acme/secret", private: true }, { full_name: "octocat/twins" }],
  issues: [
    {
      repo: "octocat/hello",
      number: 1,
      user: "hubot",
      title: "Crash on start",
      body: "It crashes, cc @octocat",
      labels: ["bug"],
      assignees: ["octocat"],
      created_at: "2026-01-01T10:00:00Z",
    },
    {
      repo: "octocat/hello",
      number: 2,
      user: "octocat",
      title: "Docs are thin",
      labels: ["docs", "bug"],
      state: "closed",
      created_at: "2026-01-05T10:00:00Z",
      closed_at: "2026-01-06T10:00:00Z",
    },
    { repo: "acme/secret", number: 1, user: "hubot", title: "Secret crash", created_at: "2026-01-03T10:00:00Z" },
    // Made in the same second.
    { repo: "octocat/twins", number: 1, user: "hubot", title: "Twin", created_at: "2026-01-07T10:00:00Z" },
    { repo: "octocat/twins", number: 2, user: "hubot", title: "Twin", created_at: "2026-01-07T10:00:00Z" },
  ],
};

interface Result {
  total_count: number;
  incomplete_results: boolean;
  items: { number: number; title: string; repository_url: string; score: number }[];
}

describe("GET /search/issues", () => {
  let t: TestApp;
  let hubot: string;
  let outsider: string;
  // Each request from an address of its own, each token's at most 30: the search window is 10 a minute per address
  // for anonymous callers, 30 per user (the last test spends one).
  let sent = 0;
  const search = (q: string, token?: string, extra = "") =>
    t.app.inject({
      method: "GET",
      url: `/search/issues?q=${encodeURIComponent(q)}${extra}`,
      headers: token ? { authorization: `token ${token}` } : {},
      remoteAddress: `10.1.${sent >> 8}.${sent++ & 255}`,
    });
  const numbers = async (q: string, token?: string, extra = "") => {
    const res = await search(q, token, extra);
    assert.equal(res.statusCode, 200, `${q}: ${res.body}`);
    return (res.json() as Result).items.map((i) => `${i.repository_url.split("/repos/")[1]}#${i.number}`);
  };

  before(async () => {
    t = await startTestApp();
    await new IngestService(t.store, t.clock.now).seedWorld(WORLD, { baseDir: undefined });
    hubot = (await t.createToken((await t.store.users.findByLogin("hubot"))!, ["repo"])).token;
    outsider = (await t.createToken((await t.store.users.findByLogin("outsider"))!, ["repo"])).token;
  });
  after(() => t.close());

  test("answers GitHub's result: total_count, incomplete_results, items with their score", async () => {
    const res = await search("repo:octocat/hello crash");
    assert.equal(res.statusCode, 200);
    const body = res.json() as Result;
    assert.deepEqual([body.total_count, body.incomplete_results], [1, false]);
    for (const item of body.items) assertSchema("issue-search-result-item", item);
    assert.equal(res.headers["x-ratelimit-resource"], "search");
    assert.equal(res.headers["x-ratelimit-limit"], "10", "an anonymous caller's search window");
  });

  test("qualifiers: state, is, label (each), author, assignee, mentions, no:, in:, dates and ranges", async () => {
    const cases: [string, string[]][] = [
      ["repo:octocat/hello is:open", ["octocat/hello#1"]],
      ["repo:octocat/hello state:closed", ["octocat/hello#2"]],
      ["repo:octocat/hello is:issue label:bug", ["octocat/hello#2", "octocat/hello#1"]],
      ["repo:octocat/hello label:bug label:docs", ["octocat/hello#2"]],
      ["repo:octocat/hello author:octocat", ["octocat/hello#2"]],
      ["repo:octocat/hello assignee:octocat", ["octocat/hello#1"]],
      ["repo:octocat/hello mentions:octocat", ["octocat/hello#1"]],
      ["repo:octocat/hello no:assignee", ["octocat/hello#2"]],
      ["repo:octocat/hello crashes in:body", ["octocat/hello#1"]],
      ["repo:octocat/hello crashes in:title", []],
      ['repo:octocat/hello "docs are"', ["octocat/hello#2"]],
      ["repo:octocat/hello created:>2026-01-02", ["octocat/hello#2"]],
      ["repo:octocat/hello created:2026-01-01..2026-01-01", ["octocat/hello#1"]],
      ["repo:octocat/hello closed:<=2026-01-06", ["octocat/hello#2"]],
      ["repo:octocat/hello is:pr", []],
      ["user:octocat crash", ["octocat/hello#1"]],
      ["author:nobody-at-all", []],
      ["crash foo:bar", []],
    ];
    for (const [q, expected] of cases) assert.deepEqual(await numbers(q), expected, q);
  });

  test("private repositories only for those who may read them; sort and order; paging with Link", async () => {
    assert.deepEqual(await numbers("crash"), ["octocat/hello#1"]);
    assert.deepEqual(await numbers("crash", outsider), ["octocat/hello#1"]);
    assert.deepEqual(await numbers("crash", hubot, "&sort=created&order=asc"), ["octocat/hello#1", "acme/secret#1"]);
    const paged = await search("repo:octocat/hello", hubot, "&sort=created&order=asc&per_page=1");
    assert.deepEqual(
      (paged.json() as Result).items.map((i) => i.number),
      [1],
    );
    assert.equal((paged.json() as Result).total_count, 2);
    assert.match(String(paged.headers.link), /page=2>; rel="next"/);
    assert.equal(paged.headers["x-ratelimit-limit"], "30", "a user's search window");
  });

  test("issues made in the same second keep the order asked for: order=asc is the order they were made in", async () => {
    assert.deepEqual(await numbers("repo:octocat/twins", hubot, "&sort=created&order=asc"), [
      "octocat/twins#1",
      "octocat/twins#2",
    ]);
    assert.deepEqual(await numbers("repo:octocat/twins", hubot, "&sort=created&order=desc"), [
      "octocat/twins#2",
      "octocat/twins#1",
    ]);
  });

  test("422: a qualifier not served is named, a repository that cannot be searched, a bad date, a bad sort", async () => {
    for (const [q, extra, says] of [
      ["repo:octocat/hello commenter:hubot", "", /commenter/],
      ["repo:octocat/hello -label:bug", "", /excluding/],
      ["repo:acme/secret crash", "", /cannot be searched/],
      ["repo:octocat/nowhere", "", /cannot be searched/],
      ["repo:octocat/hello created:>soon", "", /not a date/],
      ["repo:octocat/hello", "&sort=reactions", /sort/],
    ] as const) {
      const res = await search(q, outsider, extra);
      assert.equal(res.statusCode, 422, `${q}: ${res.body}`);
      const body = res.json() as { message: string; errors: { message: string }[] };
      assert.equal(body.message, "Validation Failed");
      assert.match(body.errors[0]!.message, says, q);
    }
    assert.equal(
      (await t.app.inject({ method: "GET", url: "/search/issues", remoteAddress: "10.2.0.1" })).statusCode,
      422,
      "q is required",
    );
  });

  test("its own window: the eleventh anonymous search in a minute is GitHub's 403", async () => {
    const limited = await t.app.inject({ method: "GET", url: "/rate_limit" });
    assert.equal(limited.statusCode, 200);
    let status = 0;
    for (let i = 0; i < 11; i++)
      status = (await t.app.inject({ method: "GET", url: "/search/issues?q=crash", remoteAddress: "10.9.9.9" }))
        .statusCode;
    assert.equal(status, 403);
    t.clock.advance(61_000);
    assert.equal(
      (await t.app.inject({ method: "GET", url: "/search/issues?q=crash", remoteAddress: "10.9.9.9" })).statusCode,
      200,
    );
  });
});
