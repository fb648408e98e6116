import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { basic, startTestApp, type TestApp } from "../helpers/test-app.js";
import { readPage } from "../../src/server/plugins/pagination.js";
import { links } from "../helpers/assertions.js";

const BASE = "https://feedgate.example";
const MANY = basic("many", "many-password"); // holds 105 authorizations
const FEW = basic("few", "few-password"); // holds 3

describe("paging of GET /authorizations", () => {
  let t: TestApp;
  const ids: string[] = [];
  before(async () => {
    t = await startTestApp({ baseUrl: BASE });
    const many = await t.createUser("many", "many-password");
    for (let i = 1; i <= 105; i++) ids.push((await t.createToken(many, [], `n${i}`)).id);
    const few = await t.createUser("few", "few-password");
    for (let i = 1; i <= 3; i++) await t.createToken(few, [], `f${i}`);
  });
  after(() => t.close());

  const list = (query: string, authorization = MANY, headers: Record<string, string> = {}) =>
    t.app.inject({ method: "GET", url: `/authorizations${query}`, headers: { authorization, ...headers } });
  const idsOf = (body: { id: string }[]) => body.map((a) => a.id);

  for (const param of ["page", "per_page"]) {
    for (const value of ["abc", "-1", "1.5", "", "1e2", "+1", " 1", "0x10"]) {
      test(`${param}=${JSON.stringify(value)} is 422 naming ${param}`, async () => {
        const res = await list(`?${param}=${encodeURIComponent(value)}`);
        assert.equal(res.statusCode, 422);
        const body = res.json();
        assert.equal(body.message, "Validation Failed");
        assert.deepEqual(
          body.errors.map((e: { field: string }) => e.field),
          [param],
        );
        assert.equal(body.errors[0].resource, "Pagination");
      });
    }

    test(`a repeated ${param} is 422 naming ${param}`, async () => {
      const res = await list(`?${param}=1&${param}=2`);
      assert.equal(res.statusCode, 422);
      assert.deepEqual(
        res.json().errors.map((e: { field: string }) => e.field),
        [param],
      );
    });
  }

  test("both bad parameters are named at once", async () => {
    const res = await list("?page=x&per_page=y");
    assert.equal(res.statusCode, 422);
    assert.deepEqual(
      res
        .json()
        .errors.map((e: { field: string }) => e.field)
        .sort(),
      ["page", "per_page"],
    );
  });

  test("the default page size is 30, with next and last", async () => {
    const res = await list("");
    assert.equal(res.statusCode, 200);
    assert.deepEqual(idsOf(res.json()), ids.slice(0, 30));
    assert.deepEqual(links(res.headers.link), {
      next: `${BASE}/authorizations?page=2`,
      last: `${BASE}/authorizations?page=4`,
    });
  });

  for (const perPage of ["101", "1000", "99999999999999999999"]) {
    test(`per_page=${perPage} is served as 100, and Link keeps what was asked`, async () => {
      const res = await list(`?per_page=${perPage}`);
      assert.equal(res.statusCode, 200);
      assert.deepEqual(idsOf(res.json()), ids.slice(0, 100));
      assert.deepEqual(links(res.headers.link), {
        next: `${BASE}/authorizations?per_page=${perPage}&page=2`,
        last: `${BASE}/authorizations?per_page=${perPage}&page=2`,
      });
      const second = await list(`?per_page=${perPage}&page=2`);
      assert.deepEqual(idsOf(second.json()), ids.slice(100));
    });
  }

  test("page=0 is the first page, per_page=0 the default size, and leading zeros are digits", async () => {
    assert.deepEqual(idsOf((await list("?page=0")).json()), ids.slice(0, 30));
    assert.deepEqual(idsOf((await list("?per_page=0")).json()), ids.slice(0, 30));
    assert.deepEqual(idsOf((await list("?per_page=007&page=02")).json()), ids.slice(7, 14));
  });

  test("a middle page links prev, next, last and first, keeping other query parameters", async () => {
    const res = await list("?per_page=2&foo=bar&page=3");
    assert.deepEqual(idsOf(res.json()), ids.slice(4, 6));
    const rels = links(res.headers.link);
    assert.deepEqual(Object.keys(rels), ["prev", "next", "last", "first"]);
    assert.deepEqual(rels, {
      prev: `${BASE}/authorizations?per_page=2&foo=bar&page=2`,
      next: `${BASE}/authorizations?per_page=2&foo=bar&page=4`,
      last: `${BASE}/authorizations?per_page=2&foo=bar&page=53`,
      first: `${BASE}/authorizations?per_page=2&foo=bar&page=1`,
    });
  });

  test("following next from the first page visits every item once, in order", async () => {
    const seen: string[] = [];
    let url: string | undefined = `${BASE}/authorizations?per_page=25`;
    while (url) {
      const res = await list(url.slice(`${BASE}/authorizations`.length));
      seen.push(...idsOf(res.json()));
      url = links(res.headers.link).next;
    }
    assert.deepEqual(seen, ids);
  });

  test("the last page links prev and first only", async () => {
    const res = await list("?per_page=50&page=3");
    assert.deepEqual(idsOf(res.json()), ids.slice(100));
    assert.deepEqual(links(res.headers.link), {
      prev: `${BASE}/authorizations?per_page=50&page=2`,
      first: `${BASE}/authorizations?per_page=50&page=1`,
    });
  });

  test("a page beyond the end is an empty array whose prev is the last page", async () => {
    const res = await list("?per_page=50&page=9");
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), []);
    assert.deepEqual(links(res.headers.link), {
      prev: `${BASE}/authorizations?per_page=50&page=3`,
      first: `${BASE}/authorizations?per_page=50&page=1`,
    });
  });

  test("an absurdly deep page is an empty array, not an error", async () => {
    const res = await list("?page=99999999999999999999");
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), []);
  });

  test("no Link when one page holds everything", async () => {
    for (const query of ["", "?per_page=3", "?per_page=100"]) {
      const res = await list(query, FEW);
      assert.equal(res.json().length, 3);
      assert.equal(res.headers.link, undefined, `Link for ${query}`);
    }
  });

  test("Link URLs keep the path of a configured base URL, as behind a GitHub Enterprise-style /api/v3 prefix", async () => {
    const prefixed = await startTestApp({ baseUrl: "https://ghe.example/api/v3" });
    try {
      const user = await prefixed.createUser("many", "many-password");
      for (let i = 0; i < 2; i++) await prefixed.createToken(user);
      const res = await prefixed.app.inject({
        method: "GET",
        url: "/authorizations?per_page=1",
        headers: { authorization: MANY },
      });
      assert.deepEqual(links(res.headers.link), {
        next: "https://ghe.example/api/v3/authorizations?per_page=1&page=2",
        last: "https://ghe.example/api/v3/authorizations?per_page=1&page=2",
      });
    } finally {
      await prefixed.close();
    }
  });

  test("Link URLs are absolute on the request's own host when no base URL is configured", async () => {
    const local = await startTestApp();
    try {
      const user = await local.createUser("many", "many-password");
      for (let i = 0; i < 3; i++) await local.createToken(user);
      const res = await local.app.inject({
        method: "GET",
        url: "/authorizations?per_page=1",
        headers: { authorization: MANY, host: "api.example.test:8080" },
      });
      assert.deepEqual(links(res.headers.link), {
        next: "http://api.example.test:8080/authorizations?per_page=1&page=2",
        last: "http://api.example.test:8080/authorizations?per_page=1&page=3",
      });
    } finally {
      await local.close();
    }
  });
});

describe("readPage", () => {
  const cases: { query: { page?: string; per_page?: string }; page: number; perPage: number; offset: number }[] = [
    { query: {}, page: 1, perPage: 30, offset: 0 },
    { query: { page: "3", per_page: "10" }, page: 3, perPage: 10, offset: 20 },
    { query: { page: "0", per_page: "0" }, page: 1, perPage: 30, offset: 0 },
    { query: { per_page: "100" }, page: 1, perPage: 100, offset: 0 },
    { query: { page: "2", per_page: "101" }, page: 2, perPage: 100, offset: 100 },
  ];
  for (const { query, page, perPage, offset } of cases) {
    test(`reads ${JSON.stringify(query)} as page ${page} of ${perPage}`, () => {
      assert.deepEqual(readPage(query), { page, perPage, limit: perPage, offset });
    });
  }

  test("keeps the offset of a huge page number a safe integer", () => {
    const { offset } = readPage({ page: "9".repeat(40), per_page: "100" });
    assert.ok(Number.isSafeInteger(offset));
  });
});
