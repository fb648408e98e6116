/**
 * Paging and polling of the event feeds (wire notes 2.5, 2.6): newest first with the id breaking ties,
 * the same order however the feed is paged, GitHub's Link, ETag, Last-Modified, X-Poll-Interval and
 * Cache-Control, free 304s, and the optional 300-event / 30-day style caps.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import type { LightMyRequestResponse } from "fastify";
import { basic, startTestApp, TestClock, type TestApp } from "../helpers/test-app.js";
import { IngestService } from "../../src/server/services/ingest.js";
import { links } from "../helpers/assertions.js";
import { event, issueEvent, minutesAfter } from "../helpers/events.js";

const BASE = "https://feedgate.example";
const PAT = basic("pat", "pat-password");
const STRONG_ETAG = /^"[0-9a-f]{64}"$/;
const PAGINATION_LIMITED = {
  message:
    "In order to keep the API fast for everyone, pagination is limited for this resource. Check the rel=last " +
    "link relation in the Link response header to see how far back you can traverse.",
  documentation_url: "https://developer.github.com/v3/#pagination",
};

const ids = (res: LightMyRequestResponse) => (res.json() as { id: string }[]).map((e) => e.id);
const remaining = (res: LightMyRequestResponse) => Number(res.headers["x-ratelimit-remaining"]);
/** A push to pat's repository; `minute` counts from the world's first event. */
const push = (id: string, minute: number, repo = "pat/busy") =>
  event(id, "PushEvent", "pat", repo, { created_at: minutesAfter("2026-01-14T00:00:00Z", minute) });
const closed = (id: number, minute: number) =>
  issueEvent("pat/busy", id, "closed", "pat", {
    created_at: minutesAfter("2026-01-14T00:00:00Z", minute),
    issue: { title: `Issue ${id}`, number: id, state: "closed" },
  });

describe("event feed paging and polling", () => {
  let t: TestApp;
  // Ids of every length and out of time order; 9, 10 and 100 share a time, as do 3 and 11: numeric id breaks the tie.
  const EVENTS = [
    push("5", 50),
    push("7", 40),
    push("9", 30),
    push("10", 30),
    push("100", 30),
    push("2", 60),
    push("3", 20),
    push("1000", 10),
    push("11", 20),
    push("4", 0),
    push("12", 45, "pat/fork"),
  ];
  const REPO_ORDER = ["2", "5", "7", "100", "10", "9", "11", "3", "1000", "4"];
  const ALL_ORDER = ["2", "5", "12", "7", "100", "10", "9", "11", "3", "1000", "4"];
  const NEWEST = "Wed, 14 Jan 2026 01:00:00 GMT";

  before(async () => {
    t = await startTestApp({ baseUrl: BASE, rateLimitAnonymous: 10_000 });
    await new IngestService(t.store, t.clock.now).seedWorld(
      {
        users: [{ login: "pat", password: "pat-password" }],
        repos: [{ full_name: "pat/busy" }, { full_name: "pat/fork", fork_of: "pat/busy" }],
        events: EVENTS,
        issue_events: [closed(21, 5), closed(30, 5), closed(4, 5), closed(8, 9), closed(1, 1)],
      },
      { baseDir: undefined },
    );
  });
  after(() => t.close());

  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: "GET", url, headers });

  const ORDERS: [string, string[]][] = [
    ["/events", ALL_ORDER],
    ["/repos/pat/busy/events", REPO_ORDER],
    ["/networks/pat/busy/events", ALL_ORDER],
    ["/users/pat/events", ALL_ORDER],
    ["/users/pat/events/public", ALL_ORDER],
    ["/repos/pat/busy/issues/events", ["8", "30", "21", "4", "1"]],
  ];

  for (const [feed, order] of ORDERS) {
    test(`${feed} lists newest first, equal times by id descending`, async () => {
      const res = await get(`${feed}?per_page=100`);
      assert.equal(res.statusCode, 200);
      assert.deepEqual(ids(res), order);
      assert.equal(res.headers.link, undefined, "no Link when one page holds everything");
    });

    test(`${feed} walked by Link next two at a time gives the single page's order`, async () => {
      const seen: string[] = [];
      let url: string | undefined = `${BASE}${feed}?per_page=2`;
      let pages = 0;
      while (url) {
        assert.ok(url.startsWith(`${BASE}/`), `Link is absolute: ${url}`);
        const res = await get(url.slice(BASE.length));
        assert.equal(res.statusCode, 200);
        seen.push(...ids(res));
        url = links(res.headers.link).next;
        pages++;
      }
      assert.equal(pages, Math.ceil(order.length / 2));
      assert.deepEqual(seen, order);
    });
  }

  test("the default page size is 30 and per_page above 100 is served as 100", async () => {
    assert.equal(ids(await get("/events")).length, ALL_ORDER.length);
    assert.deepEqual(ids(await get("/events?per_page=1000")), ALL_ORDER);
  });

  test("a middle page links prev, next, last and first in GitHub's order, absolute and keeping other parameters", async () => {
    const res = await get("/repos/pat/busy/events?per_page=2&foo=bar&page=3");
    assert.deepEqual(ids(res), REPO_ORDER.slice(4, 6));
    const rels = links(res.headers.link);
    assert.deepEqual(Object.keys(rels), ["prev", "next", "last", "first"]);
    assert.deepEqual(rels, {
      prev: `${BASE}/repos/pat/busy/events?per_page=2&foo=bar&page=2`,
      next: `${BASE}/repos/pat/busy/events?per_page=2&foo=bar&page=4`,
      last: `${BASE}/repos/pat/busy/events?per_page=2&foo=bar&page=5`,
      first: `${BASE}/repos/pat/busy/events?per_page=2&foo=bar&page=1`,
    });
  });

  test("the first page links next and last; the last page links prev and first", async () => {
    assert.deepEqual(links((await get("/users/pat/events?per_page=4")).headers.link), {
      next: `${BASE}/users/pat/events?per_page=4&page=2`,
      last: `${BASE}/users/pat/events?per_page=4&page=3`,
    });
    const last = await get("/users/pat/events?per_page=4&page=3");
    assert.deepEqual(ids(last), ALL_ORDER.slice(8));
    assert.deepEqual(links(last.headers.link), {
      prev: `${BASE}/users/pat/events?per_page=4&page=2`,
      first: `${BASE}/users/pat/events?per_page=4&page=1`,
    });
  });

  test("a page past the end is an empty array", async () => {
    const res = await get("/events?per_page=5&page=9");
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), []);
  });

  for (const query of ["page=abc", "page=-1", "per_page=1.5", "per_page=", "per_page=1e2"]) {
    test(`${query} is 422 naming the parameter`, async () => {
      const res = await get(`/repos/pat/busy/events?${query}`);
      assert.equal(res.statusCode, 422);
      const body = res.json();
      assert.equal(body.message, "Validation Failed");
      assert.deepEqual(
        body.errors.map((e: { field: string; resource: string }) => [e.resource, e.field]),
        [["Pagination", query.split("=")[0]]],
      );
    });
  }

  test("a feed has a strong ETag, X-Poll-Interval 60 and rate-limit headers", async () => {
    const res = await get("/repos/pat/busy/events");
    assert.match(String(res.headers.etag), STRONG_ETAG);
    assert.equal(res.headers["x-poll-interval"], "60");
    for (const name of ["limit", "remaining", "reset"])
      assert.match(String(res.headers[`x-ratelimit-${name}`]), /^[0-9]+$/);
    assert.match(String(res.headers["content-type"]), /^application\/json/);
  });

  test("Last-Modified is the newest event's time in HTTP-date form, on every page", async () => {
    for (const page of ["1", "2", "5", "99"]) {
      const res = await get(`/repos/pat/busy/events?per_page=2&page=${page}`);
      assert.equal(res.headers["last-modified"], NEWEST, `page ${page}`);
    }
    assert.equal(
      (await get("/repos/pat/busy/issues/events")).headers["last-modified"],
      "Wed, 14 Jan 2026 00:09:00 GMT",
    );
  });

  test("pages have different ETags, and the same page the same one", async () => {
    const [one, two, again] = [
      await get("/events?per_page=2"),
      await get("/events?per_page=2&page=2"),
      await get("/events?per_page=2"),
    ];
    assert.notEqual(one.headers.etag, two.headers.etag);
    assert.equal(one.headers.etag, again.headers.etag);
  });

  test("Cache-Control is public for anonymous callers and private for authenticated ones", async () => {
    assert.equal((await get("/events")).headers["cache-control"], "public, max-age=60, s-maxage=60");
    assert.equal(
      (await get("/events", { authorization: PAT })).headers["cache-control"],
      "private, max-age=60, s-maxage=60",
    );
  });

  for (const [who, headers] of [
    ["anonymous", {}],
    ["authenticated", { authorization: PAT }],
  ] as const) {
    test(`an unchanged feed answers If-None-Match with 304 without spending rate limit (${who})`, async () => {
      const first = await get("/users/pat/events", headers);
      const etag = String(first.headers.etag);
      const start = remaining(first);
      for (let i = 0; i < 3; i++) {
        const res = await get("/users/pat/events", { ...headers, "if-none-match": etag });
        assert.equal(res.statusCode, 304);
        assert.equal(res.body, "");
        assert.equal(res.headers.etag, etag);
        assert.equal(res.headers["last-modified"], NEWEST);
        assert.equal(res.headers["x-poll-interval"], "60");
        assert.match(String(res.headers["cache-control"]), who === "anonymous" ? /^public, / : /^private, /);
        assert.equal(remaining(res), start);
      }
      assert.equal(remaining(await get("/users/pat/events", headers)), start - 1);
    });
  }

  test("If-Modified-Since at the newest event's time is 304", async () => {
    const res = await get("/repos/pat/busy/events", { "if-modified-since": NEWEST });
    assert.equal(res.statusCode, 304);
  });

  describe("after a new event is ingested", () => {
    let before: LightMyRequestResponse;
    const FEED = "/repos/pat/busy/events?per_page=3";

    test("the ETag and Last-Modified change and the old validators get the new page", async () => {
      before = await get(FEED);
      await new IngestService(t.store, t.clock.now).ingestEvents([push("13", 70)]);
      const byTag = await get(FEED, { "if-none-match": String(before.headers.etag) });
      assert.equal(byTag.statusCode, 200);
      assert.notEqual(byTag.headers.etag, before.headers.etag);
      assert.deepEqual(ids(byTag), ["13", "2", "5"]);
      assert.equal(byTag.headers["last-modified"], "Wed, 14 Jan 2026 01:10:00 GMT");
      const byDate = await get(FEED, { "if-modified-since": String(before.headers["last-modified"]) });
      assert.equal(byDate.statusCode, 200);
    });

    test("the new event moves older ones down a page without reordering them", async () => {
      const res = await get("/repos/pat/busy/events?per_page=100");
      assert.deepEqual(ids(res), ["13", ...REPO_ORDER]);
    });
  });
});

describe("GitHub-style feed caps", () => {
  // Clock: 2026-01-15T10:00:00Z, so 30 days back is 2025-12-16T10:00:00Z.
  let t: TestApp;
  const clock = new TestClock();
  const capped = (id: string, created_at: string) =>
    event(id, "WatchEvent", "cap", "cap/repo", { payload: { action: "started" }, created_at });
  // Eight recent events (80 newest), then one just inside the 30 days and one well outside.
  const RECENT = ["80", "70", "60", "50", "40", "30", "20", "10"];

  before(async () => {
    t = await startTestApp({ baseUrl: BASE, feedMaxEvents: 5, feedMaxAge: "30d", rateLimitAnonymous: 10_000 }, clock);
    await new IngestService(t.store, clock.now).seedWorld(
      {
        events: [
          ...RECENT.map((id, i) => capped(id, `2026-01-1${4 - Math.floor(i / 4)}T0${7 - (i % 4)}:00:00Z`)),
          capped("2", "2025-12-16T11:00:00Z"),
          capped("1", "2025-11-01T00:00:00Z"),
        ],
      },
      { baseDir: undefined },
    );
  });
  after(() => t.close());

  const get = (url: string) => t.app.inject({ method: "GET", url });

  test("a feed lists at most the cap, with no Link when that fits on one page", async () => {
    const res = await get("/repos/cap/repo/events?per_page=100");
    assert.equal(res.statusCode, 200);
    assert.deepEqual(ids(res), RECENT.slice(0, 5));
    assert.equal(res.headers.link, undefined);
  });

  test("Link last stops at the cap, and the page that reaches it is cut short", async () => {
    const first = await get("/repos/cap/repo/events?per_page=2");
    assert.deepEqual(links(first.headers.link), {
      next: `${BASE}/repos/cap/repo/events?per_page=2&page=2`,
      last: `${BASE}/repos/cap/repo/events?per_page=2&page=3`,
    });
    const last = await get("/repos/cap/repo/events?per_page=2&page=3");
    assert.deepEqual(ids(last), ["40"]);
    assert.deepEqual(Object.keys(links(last.headers.link)), ["prev", "first"]);
    const cut = await get("/repos/cap/repo/events?per_page=3&page=2");
    assert.deepEqual(ids(cut), ["50", "40"]);
  });

  for (const query of ["per_page=2&page=4", "per_page=5&page=2", "page=2", "per_page=100&page=7"]) {
    test(`a page beyond the cap (${query}) is 422 with GitHub's pagination message`, async () => {
      const res = await get(`/repos/cap/repo/events?${query}`);
      assert.equal(res.statusCode, 422);
      assert.deepEqual(res.json(), PAGINATION_LIMITED);
    });
  }

  for (const url of ["/users/nobody/events", "/repos/cap/missing/events", "/users/cap/events/orgs/acme"]) {
    test(`a page beyond the cap of a feed that is 404 (${url}) is still 404`, async () => {
      // Spec 4.2 rule 3 and the 404-not-403 rule hold whatever page is asked for.
      const res = await get(`${url}?page=99`);
      assert.equal(res.statusCode, 404);
      assert.equal(res.json().message, "Not Found");
    });
  }

  test("events older than the maximum age are left out, even below the event cap, as the clock moves", async () => {
    const aging = await startTestApp({ baseUrl: BASE, feedMaxEvents: 5, feedMaxAge: "30d" }, new TestClock());
    try {
      await new IngestService(aging.store, aging.clock.now).seedWorld(
        {
          events: [capped("2", "2025-12-16T11:00:00Z"), capped("1", "2025-11-01T00:00:00Z")],
        },
        { baseDir: undefined },
      );
      const feed = () => aging.app.inject({ method: "GET", url: "/repos/cap/repo/events" });
      const now = await feed();
      assert.deepEqual(ids(now), ["2"]);
      assert.equal(now.headers["last-modified"], "Tue, 16 Dec 2025 11:00:00 GMT");
      // An hour and a half later event 2 is 30 days and 30 minutes old: gone too.
      aging.clock.advance(90 * 60 * 1000);
      const later = await feed();
      assert.equal(later.statusCode, 200);
      assert.deepEqual(later.json(), []);
    } finally {
      await aging.close();
    }
  });

  test("without caps the whole history is served", async () => {
    const open = await startTestApp({ baseUrl: BASE }, new TestClock());
    try {
      await new IngestService(open.store, open.clock.now).seedWorld(
        {
          events: [capped("2", "2025-12-16T11:00:00Z"), capped("1", "2020-11-01T00:00:00Z")],
        },
        { baseDir: undefined },
      );
      assert.deepEqual(ids(await open.app.inject({ method: "GET", url: "/repos/cap/repo/events?per_page=1&page=2" })), [
        "1",
      ]);
    } finally {
      await open.close();
    }
  });
});
