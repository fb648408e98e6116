/**
 * Paging by the server's `Link` header (wire notes 2.5): has/get Next, Prev, First and Last pages, and
 * `paginate` across every page, against a real feedgate holding 46 events on alice/hello (five pages of ten).
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { Client, ParameterError } from "../../src/client/index.js";
import { parseLink } from "../../src/client/link.js";
import { jsonResponse, recordingFetch } from "../helpers/recording-fetch.js";
import { startListeningApp, type ListeningApp } from "../helpers/listening-app.js";
import { ALICE, HELLO_IDS } from "../helpers/client-world.js";

const ids = (events: readonly { id: string }[]) => events.map((e) => e.id);
const HELLO = { user: "alice", repo: "hello" };

describe("paging", () => {
  let t: ListeningApp;
  let client: Client;
  let recorder: ReturnType<typeof recordingFetch>;
  before(async () => {
    t = await startListeningApp();
    recorder = recordingFetch();
    client = new Client({ baseUrl: t.url, version: "3.0.0", fetch: recorder.fetch });
  });
  after(() => t.close());

  test("the first page has next and last, and no prev or first", async () => {
    const first = await client.events.getFromRepo({ ...HELLO, per_page: 10 });
    assert.deepEqual(ids(first.data), HELLO_IDS.slice(0, 10));
    assert.deepEqual(
      [client.hasNextPage(first), client.hasLastPage(first), client.hasPrevPage(first), client.hasFirstPage(first)],
      [true, true, false, false],
    );
  });

  test("getNextPage, getLastPage, getPrevPage and getFirstPage follow the Link URLs", async () => {
    const first = await client.events.getFromRepo({ ...HELLO, per_page: 10 });
    const second = await client.getNextPage(first);
    assert.deepEqual(ids(second.data), HELLO_IDS.slice(10, 20));
    assert.ok(client.hasPrevPage(second) && client.hasFirstPage(second));

    const last = await client.getLastPage(first);
    assert.deepEqual(ids(last.data), HELLO_IDS.slice(40));
    assert.equal(client.hasNextPage(last), false);
    assert.equal(new URL(last.url).searchParams.get("page"), "5");

    const fourth = await client.getPrevPage(last);
    assert.deepEqual(ids(fourth.data), HELLO_IDS.slice(30, 40));
    assert.deepEqual(ids((await client.getFirstPage(fourth)).data), ids(first.data));
  });

  test("a Link header value works as well as a result", async () => {
    const first = await client.events.getFromRepo({ ...HELLO, per_page: 10 });
    assert.equal(client.hasNextPage(first.meta.link!), true);
    const second = await client.getNextPage(first.meta.link!);
    assert.deepEqual(ids(second.data as { id: string }[]), HELLO_IDS.slice(10, 20));
  });

  test("there is no page after the last: refused before any request", async () => {
    const last = await client.events.getFromRepo({ ...HELLO, per_page: 10, page: 5 });
    const before = recorder.sent.length;
    await assert.rejects(
      client.getNextPage(last),
      (e: unknown) => e instanceof ParameterError && /no next page/.test(e.message),
    );
    assert.equal(recorder.sent.length, before);
  });

  test("paginate yields every page once, in order, and together they are the whole feed", async () => {
    const pages: string[][] = [];
    for await (const page of client.paginate(client.events.getFromRepo, { ...HELLO, per_page: 10 }))
      pages.push(ids(page.data));
    assert.deepEqual(
      pages.map((p) => p.length),
      [10, 10, 10, 10, 6],
    );
    assert.deepEqual(pages.flat(), HELLO_IDS);
  });

  test("paginate pages by the server's default of 30, and a feed that fits one page is one page without Link", async () => {
    const pages = [];
    for await (const page of client.paginate(client.events.getFromRepo, HELLO)) pages.push(page);
    assert.deepEqual(
      pages.map((p) => p.data.length),
      [30, 16],
    );
    for await (const page of client.paginate(client.events.getFromOrg, { org: "acme" })) pages.push(page);
    assert.equal(pages.length, 3);
    assert.equal(pages[2]!.meta.link, undefined);
  });

  test("paginate walks issue events and the authorizations list too", async () => {
    const issues: string[] = [];
    for await (const page of client.paginate(client.events.getFromRepoIssues, { ...HELLO, per_page: 1 }))
      issues.push(...ids(page.data));
    assert.deepEqual(issues, ["13", "12", "11"]);

    const alice = new Client({
      baseUrl: t.url,
      version: "3.0.0",
      auth: { type: "basic", username: ALICE.login, password: ALICE.password },
    });
    for (const note of ["p1", "p2", "p3"]) await alice.authorization.create({ note });
    const notes: (string | null)[] = [];
    let pages = 0;
    for await (const page of alice.paginate(alice.authorization.getAll, { per_page: 2 })) {
      pages++;
      notes.push(...page.data.map((a) => a.note));
    }
    assert.equal(pages, 3);
    assert.deepEqual(notes.sort(), ["alice full", "alice public", "p1", "p2", "p3"]);
  });

  test("breaking out of paginate sends no further request", async () => {
    const before = recorder.sent.length;
    for await (const page of client.paginate(client.events.getFromRepo, { ...HELLO, per_page: 10 })) {
      assert.equal(page.data.length, 10);
      break;
    }
    assert.equal(recorder.sent.length, before + 1);
  });

  test("paginate with the first page's ETag yields nothing when nothing changed", async () => {
    const first = await client.events.getFromRepo({ ...HELLO, per_page: 10 });
    const pages = [];
    for await (const page of client.paginate(client.events.getFromRepo, {
      ...HELLO,
      per_page: 10,
      headers: { "If-None-Match": first.meta.etag! },
    })) {
      pages.push(page);
    }
    assert.equal(pages.length, 0);
  });

  test("credentials follow Link URLs on the service's origin only", async () => {
    const fake = recordingFetch((request) =>
      jsonResponse([], {
        headers: request.url.includes("page=2")
          ? {}
          : {
              link: '<https://elsewhere.example/events?page=2>; rel="next", <https://api.example/events?page=2>; rel="last"',
            },
      }),
    );
    const remote = new Client({
      baseUrl: "https://api.example",
      version: "3.0.0",
      fetch: fake.fetch,
      auth: { type: "oauth", token: "secret" },
    });
    const first = await remote.events.get();
    await remote.getNextPage(first);
    await remote.getLastPage(first);
    assert.deepEqual(
      fake.sent.map((r) => [r.url, r.headers.authorization]),
      [
        ["https://api.example/events", "token secret"],
        ["https://elsewhere.example/events?page=2", undefined],
        ["https://api.example/events?page=2", "token secret"],
      ],
    );
  });
});

describe("parseLink", () => {
  const BASE = "https://api.example/repos/a/b/events?page=2";

  test("reads GitHub's format, in any relation order", () => {
    assert.deepEqual(
      parseLink(
        '<https://api.example/x?page=1>; rel="prev", <https://api.example/x?page=3>; rel="next", ' +
          '<https://api.example/x?page=5>; rel="last", <https://api.example/x?page=1>; rel="first"',
        BASE,
      ),
      {
        prev: "https://api.example/x?page=1",
        next: "https://api.example/x?page=3",
        last: "https://api.example/x?page=5",
        first: "https://api.example/x?page=1",
      },
    );
  });

  test("resolves relative URLs, reads unquoted and multiple rels, and skips what it cannot read", () => {
    assert.deepEqual(
      parseLink(
        '</x?page=3>; rel=next, <y?page=9>; title="t"; rel="last  first", <http://[bad>; rel="prev", junk',
        BASE,
      ),
      {
        next: "https://api.example/x?page=3",
        last: "https://api.example/repos/a/b/y?page=9",
        first: "https://api.example/repos/a/b/y?page=9",
      },
    );
    assert.deepEqual(parseLink(undefined, BASE), {});
    assert.deepEqual(parseLink("", BASE), {});
  });

  test("keeps commas inside URLs", () => {
    assert.deepEqual(parseLink('<https://api.example/x?a=1,2&page=2>; rel="next"', BASE), {
      next: "https://api.example/x?a=1,2&page=2",
    });
  });
});
