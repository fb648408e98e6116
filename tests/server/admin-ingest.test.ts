import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { gzipSync } from "node:zlib";
import { basic, startTestApp, type TestApp } from "../helpers/test-app.js";
import { ids, ndjson, sampleLines, snapshot } from "../helpers/ingest-fixtures.js";
import { event } from "../helpers/events.js";

const ROOT = basic("root", "root-password");
const ALICE = basic("alice", "alice-password");
const HELPER_TOKEN = "0123456789abcdef0123456789abcdef01234567";
const DOCS = "https://developer.github.com/v3";
/** Ends every refusal's entry: HTTP ingest is all or nothing, unlike `feedgate import`. */
const WHOLE = "; nothing was written: a body is ingested whole or not at all";

const summary = (added: number, skipped: number, issueAdded = 0, issueSkipped = 0) => ({
  events_added: added,
  events_skipped: skipped,
  issue_events_added: issueAdded,
  issue_events_skipped: issueSkipped,
});

describe("admin ingest routes", () => {
  let t: TestApp;
  /** Credentials by name, filled once the users and tokens exist. */
  const auth: Record<string, string> = {};

  before(async () => {
    t = await startTestApp({ rateLimitAnonymous: 10_000 });
    const root = await t.createUser("root", "root-password", { siteAdmin: true });
    const alice = await t.createUser("alice", "alice-password");
    auth.rootAdminToken = `token ${(await t.createToken(root, ["site_admin"])).token}`;
    auth.rootRepoToken = `token ${(await t.createToken(root, ["repo", "user"])).token}`;
    auth.aliceAdminToken = `token ${(await t.createToken(alice, ["site_admin"])).token}`;
  });
  after(() => t.close());

  const post = (url: string, payload: string, authorization?: string) =>
    t.app.inject({
      method: "POST",
      url,
      payload,
      headers: { "content-type": "application/x-ndjson", ...(authorization ? { authorization } : {}) },
    });
  const get = (url: string, authorization?: string) =>
    t.app.inject({ method: "GET", url, headers: authorization ? { authorization } : {} });

  describe("who may ingest", () => {
    const STRANGERS: { who: string; authorization: () => string | undefined }[] = [
      { who: "an anonymous caller", authorization: () => undefined },
      { who: "a normal user with a password", authorization: () => ALICE },
      { who: "a normal user's token, even with the site_admin scope", authorization: () => auth.aliceAdminToken },
      { who: "a site admin's token without the site_admin scope", authorization: () => auth.rootRepoToken },
    ];
    const BODIES = [
      { url: "/admin/events", body: ndjson([event("1", "PushEvent", "intruder", "intruder/repo")]) },
      {
        url: "/admin/world",
        body: JSON.stringify({ users: [{ login: "intruder", password: "x", site_admin: true }] }),
      },
    ];

    for (const { who, authorization } of STRANGERS) {
      for (const { url, body } of BODIES) {
        test(`POST ${url} by ${who} is 404 and writes nothing`, async () => {
          const before = await snapshot(t.dbPath);
          const res = await post(url, body, authorization());
          assert.equal(res.statusCode, 404);
          assert.deepEqual(res.json(), { message: "Not Found", documentation_url: DOCS });
          assert.deepEqual(await snapshot(t.dbPath), before);
        });
      }
    }

    const ADMINS = [
      { who: "a site admin with a password", authorization: () => ROOT, id: "11" },
      { who: "a site admin's token with the site_admin scope", authorization: () => auth.rootAdminToken!, id: "12" },
    ];
    for (const { who, authorization, id } of ADMINS) {
      test(`${who} may ingest`, async () => {
        const res = await post(
          "/admin/events",
          ndjson([event(id, "PushEvent", "admin-made", "admin-made/repo")]),
          authorization(),
        );
        assert.equal(res.statusCode, 200);
        assert.deepEqual(res.json(), summary(1, 0));
      });
    }
  });

  describe("POST /admin/events", () => {
    const EVENTS = [
      event("21", "WatchEvent", "watcher", "upstream/lib", {
        payload: { action: "started" },
        created_at: "2021-07-21T10:00:00Z",
      }),
      event("22", "ForkEvent", "forker", "upstream/lib", {
        payload: { forkee: { full_name: "forker/lib" } },
        created_at: "2021-07-21T10:01:00Z",
      }),
      event("23", "PushEvent", "forker", "forker/lib", { created_at: "2021-07-21T10:02:00Z" }),
      event("24", "PushEvent", "upstream", "upstream/lib", {
        org: { login: "upco" },
        created_at: "2021-07-21T10:03:00Z",
      }),
    ];
    const PRIVATE = [
      event("25", "CreateEvent", "upstream", "upstream/secret", { public: false, created_at: "2021-07-21T10:04:00Z" }),
      event("26", "MemberEvent", "upstream", "upstream/secret", {
        public: false,
        payload: { action: "added", member: { login: "helper" } },
        created_at: "2021-07-21T10:05:00Z",
      }),
    ];

    test("an NDJSON body adds its events and answers a summary", async () => {
      const res = await post("/admin/events", `${ndjson(EVENTS)}\n`, ROOT);
      assert.equal(res.statusCode, 200);
      assert.deepEqual(res.json(), summary(4, 0));
    });

    test("a JSON array body adds its events too", async () => {
      const res = await t.app.inject({
        method: "POST",
        url: "/admin/events",
        headers: { authorization: ROOT },
        payload: PRIVATE,
      });
      assert.equal(res.statusCode, 200);
      assert.deepEqual(res.json(), summary(2, 0));
    });

    test("re-posting the same events adds nothing, in either form", async () => {
      const before = await snapshot(t.dbPath);
      assert.deepEqual((await post("/admin/events", ndjson([...EVENTS, ...PRIVATE]), ROOT)).json(), summary(0, 6));
      assert.deepEqual((await post("/admin/events", JSON.stringify(EVENTS), ROOT)).json(), summary(0, 4));
      assert.deepEqual(await snapshot(t.dbPath), before);
    });

    test("the events show in the feeds, with the relations they imply", async () => {
      assert.deepEqual(ids((await get("/users/watcher/received_events")).body), ["24", "22", "21"]); // watches upstream/lib
      assert.deepEqual(ids((await get("/networks/upstream/lib/events")).body), ["24", "23", "22", "21"]); // forker/lib joined
      assert.deepEqual(ids((await get("/orgs/upco/events")).body), ["24"]);
      assert.deepEqual(ids((await get("/users/forker/events")).body), ["23", "22"]);
      assert.ok(
        !ids((await get("/events?per_page=100")).body).includes("25"),
        "private events stay out of the public timeline",
      );
    });

    test("a private repository's member, given a repo token by a posted world, reads its feed; others get 404", async () => {
      const world = { tokens: [{ user: "helper", token: HELPER_TOKEN, scopes: ["repo"] }] };
      assert.equal((await post("/admin/world", JSON.stringify(world), ROOT)).statusCode, 200);
      assert.equal((await get("/repos/upstream/secret/events")).statusCode, 404);
      assert.equal((await get("/repos/upstream/secret/events", auth.rootRepoToken)).statusCode, 404);
      assert.deepEqual(ids((await get("/repos/upstream/secret/events", `token ${HELPER_TOKEN}`)).body), ["26", "25"]);
    });

    test("the real GH Archive sample goes in whole and comes out verbatim", async () => {
      const lines = sampleLines();
      const res = await post("/admin/events", lines.join("\n"), auth.rootAdminToken);
      assert.equal(res.statusCode, 200);
      assert.deepEqual(res.json(), summary(800, 0));
      const last = lines.at(-1)!;
      const feed = await get(
        `/repos/${(JSON.parse(last) as { repo: { name: string } }).repo.name}/events?per_page=100`,
      );
      assert.ok(feed.body.includes(last), "the stored line comes back verbatim");
    });

    test("a complete event is stored as its line, keys in the order sent, as `feedgate import` stores a file's", async () => {
      const { created_at, ...rest } = JSON.parse(sampleLines()[0]!) as Record<string, unknown>;
      const line = JSON.stringify({ created_at, ...rest, id: "7100000000" });
      assert.equal((await post("/admin/events", line, ROOT)).statusCode, 200);
      const feed = await get(`/repos/${(rest.repo as { name: string }).name}/events?per_page=100`);
      assert.ok(feed.body.includes(line), "the line as sent, not re-serialized in GitHub's key order");
    });

    const UNPROCESSABLE: { problem: string; body: string; field: string; message: string }[] = [
      {
        problem: "an event without a repository name",
        field: "events[1].repo.name",
        message: 'must be "owner/name"',
        body: ndjson([event("31", "PushEvent", "x", "x/y"), { ...event("32", "PushEvent", "x", "x/y"), repo: {} }]),
      },
      {
        problem: "an array entry that is not an object",
        field: "events[0]",
        message: "must be a JSON object",
        body: "[42]",
      },
      {
        problem: "an event time that is not ISO 8601",
        field: "events[0].created_at",
        message: "must be an ISO 8601 time such as 2012-10-05T15:03:11Z",
        body: JSON.stringify([event("33", "PushEvent", "x", "x/y", { created_at: "soon" })]),
      },
      {
        problem: "a payload that is not an object",
        field: "events[0].payload",
        message: "must be an object",
        body: ndjson([event("34", "PushEvent", "x", "x/y", { payload: [] })]),
      },
    ];
    for (const { problem, body, field, message } of UNPROCESSABLE) {
      test(`${problem} is 422 naming ${field}, and nothing is written`, async () => {
        const before = await snapshot(t.dbPath);
        const res = await post("/admin/events", body, ROOT);
        assert.equal(res.statusCode, 422);
        assert.deepEqual(res.json(), {
          message: "Validation Failed",
          documentation_url: DOCS,
          errors: [{ resource: "Ingest", field, code: "invalid", message: `${message}${WHOLE}` }],
        });
        assert.deepEqual(await snapshot(t.dbPath), before);
      });
    }

    const UNPARSEABLE: { problem: string; body: string; field: string }[] = [
      {
        problem: "an NDJSON line that is not JSON",
        body: `${ndjson([event("35", "PushEvent", "x", "x/y")])}\n{"id":`,
        field: "line 2",
      },
      {
        problem: "a bad line after blank lines, counted as lines",
        body: `\n${ndjson([event("36", "PushEvent", "x", "x/y")])}\n\n{oops`,
        field: "line 4",
      },
      {
        problem: "a JSON array cut short",
        body: `[${JSON.stringify(event("37", "PushEvent", "x", "x/y"))}`,
        field: "body",
      },
    ];
    for (const { problem, body, field } of UNPARSEABLE) {
      test(`${problem} is 400 naming ${field}, and nothing is written`, async () => {
        const before = await snapshot(t.dbPath);
        const res = await post("/admin/events", body, ROOT);
        assert.equal(res.statusCode, 400);
        assert.deepEqual(res.json(), {
          message: "Problems parsing JSON",
          documentation_url: DOCS,
          errors: [{ resource: "Ingest", field, code: "invalid", message: `not JSON${WHOLE}` }],
        });
        assert.deepEqual(await snapshot(t.dbPath), before);
      });
    }
  });

  describe("POST /admin/world", () => {
    const WORLD = {
      users: [{ login: "wendy", password: "wendy-password", following: ["walter"] }],
      orgs: [{ login: "worldco", members: ["wendy"] }],
      repos: [{ full_name: "worldco/plans", private: true }],
      tokens: [{ user: "wendy", token: "fedcba9876543210fedcba9876543210fedcba98", scopes: ["repo"], note: "posted" }],
      events: [
        event("41", "PushEvent", "walter", "walter/site"),
        event("42", "PushEvent", "wendy", "worldco/plans", { public: false }),
      ],
      issue_events: [
        {
          repo: "walter/site",
          id: "43",
          event: "closed",
          actor: { login: "walter" },
          created_at: "2021-07-21T10:00:00Z",
          issue: { number: 1, title: "t", state: "closed" },
        },
      ],
    };

    test("a site admin's world is seeded: its user logs in, its token works, its relations drive the feeds", async () => {
      const res = await post("/admin/world", JSON.stringify(WORLD), auth.rootAdminToken);
      assert.equal(res.statusCode, 200);
      assert.deepEqual(res.json(), summary(2, 0, 1, 0));
      assert.equal((await get("/authorizations", basic("wendy", "wendy-password"))).statusCode, 200);
      const token = "token fedcba9876543210fedcba9876543210fedcba98";
      assert.deepEqual(ids((await get("/repos/worldco/plans/events", token)).body), ["42"]);
      assert.deepEqual(ids((await get("/users/wendy/received_events")).body), ["41"]);
      assert.deepEqual(ids((await get("/repos/walter/site/issues/events")).body), ["43"]);
    });

    test("re-posting the same world changes nothing", async () => {
      const before = await snapshot(t.dbPath);
      const res = await post("/admin/world", JSON.stringify(WORLD), ROOT);
      assert.deepEqual(res.json(), summary(0, 2, 0, 1));
      assert.deepEqual(await snapshot(t.dbPath), before);
    });

    const UNPROCESSABLE: { problem: string; world: object; field: string; message: RegExp }[] = [
      {
        problem: "a repository name without a slash",
        field: "repos[1].full_name",
        message: /^must be "owner\/name"$/,
        world: { users: [{ login: "newbie" }], repos: [{ full_name: "a/b" }, { full_name: "ab" }] },
      },
      {
        problem: "an event without a repository name",
        field: "events[0].repo.name",
        message: /^must be "owner\/name"$/,
        world: { events: [{ ...event("44", "PushEvent", "newbie", "x/y"), repo: { name: "" } }] },
      },
      {
        problem: "a token for an unknown user, found while writing",
        field: "tokens[0]",
        message: /^no user ghost$/,
        world: {
          users: [{ login: "newbie", password: "pw" }],
          events: [event("45", "PushEvent", "newbie", "newbie/x")],
          tokens: [{ user: "ghost", token: "abababababababababababababababababababab" }],
        },
      },
      {
        problem: "an events file, which only the command line may read",
        field: "events_files[0]",
        message: /^events files can only be seeded from the command line$/,
        world: { events_files: ["/etc/passwd"] },
      },
      { problem: "an unknown key", field: "world", message: /^unknown key "user"$/, world: { user: [] } },
    ];
    for (const { problem, world, field, message } of UNPROCESSABLE) {
      test(`${problem} is 422 naming ${field}, and nothing is written`, async () => {
        const before = await snapshot(t.dbPath);
        const res = await post("/admin/world", JSON.stringify(world), ROOT);
        assert.equal(res.statusCode, 422);
        const body = res.json();
        assert.equal(body.message, "Validation Failed");
        assert.equal(body.errors.length, 1);
        assert.deepEqual(
          [body.errors[0].resource, body.errors[0].field, body.errors[0].code],
          ["Ingest", field, "invalid"],
        );
        assert.ok(body.errors[0].message.endsWith(WHOLE), body.errors[0].message);
        assert.match(body.errors[0].message.slice(0, -WHOLE.length), message);
        assert.deepEqual(await snapshot(t.dbPath), before);
      });
    }

    for (const [problem, body, message] of [
      ["a body that is not JSON", "{users: []}", "Problems parsing JSON"],
      ["a body that is an array", "[]", "Body should be a JSON object"],
    ] as const) {
      test(`${problem} is 400 "${message}"`, async () => {
        const res = await post("/admin/world", body, ROOT);
        assert.equal(res.statusCode, 400);
        assert.equal(res.json().message, message);
      });
    }
  });
});

describe("admin ingest body limit", () => {
  let t: TestApp;
  before(async () => {
    // The API's own limit is far smaller: the admin routes have theirs.
    t = await startTestApp({ bodyLimit: 256, adminBodyLimit: 4096 });
    await t.createUser("root", "root-password", { siteAdmin: true });
  });
  after(() => t.close());

  const post = (url: string, payload: string, authorization?: string) =>
    t.app.inject({ method: "POST", url, payload, headers: authorization ? { authorization } : {} });
  const many = (count: number) =>
    ndjson(Array.from({ length: count }, (_, i) => event(String(i + 1), "PushEvent", "bulk", "bulk/repo")));

  test("a body above the API's limit but within the admin limit is accepted", async () => {
    const body = many(10);
    assert.ok(body.length > 256 && body.length < 4096);
    const res = await post("/admin/events", body, ROOT);
    assert.equal(res.statusCode, 200);
    assert.equal(res.json().events_added, 10);
  });

  for (const url of ["/admin/events", "/admin/world"]) {
    test(`a body above the admin limit is 413 on ${url}, and nothing is written`, async () => {
      const before = await snapshot(t.dbPath);
      const body =
        url === "/admin/events"
          ? many(60)
          : JSON.stringify({ events: JSON.parse(`[${many(60).split("\n").join(",")}]`) });
      assert.ok(body.length > 4096);
      const res = await post(url, body, ROOT);
      assert.equal(res.statusCode, 413);
      assert.equal(res.json().message, "Request body is too large");
      assert.deepEqual(await snapshot(t.dbPath), before);
    });
  }

  test("a stranger's oversized body is 404, not 413: the route does not reveal itself", async () => {
    assert.equal((await post("/admin/events", many(60))).statusCode, 404);
  });
});

describe("admin ingest bodies: empty, gzipped, or in an unknown encoding", () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ bodyLimit: 256, adminBodyLimit: 4096 });
    await t.createUser("root", "root-password", { siteAdmin: true });
  });
  after(() => t.close());

  const post = (
    url: string,
    payload: string | Buffer,
    headers: Record<string, string> = {},
    authorization: string | null = ROOT,
  ) =>
    t.app.inject({
      method: "POST",
      url,
      payload,
      headers: { ...(authorization ? { authorization } : {}), ...headers },
    });
  const EXPECTED = {
    "/admin/events": "the events as NDJSON (one a line) or a JSON array, plain or gzipped",
    "/admin/world": "a world document (a JSON object), plain or gzipped",
  };

  for (const [url, expected] of Object.entries(EXPECTED)) {
    for (const [what, body, headers] of [
      ["no body at all", "", {}],
      ["only whitespace", " \n\t\r\n", { "content-type": "application/x-ndjson" }],
      ["gzipped whitespace", gzipSync("\n\n"), { "content-encoding": "gzip" }],
    ] as const) {
      test(`${what} on ${url} is 400 saying what to send, and nothing is written`, async () => {
        const before = await snapshot(t.dbPath);
        const res = await post(url, body, headers);
        assert.equal(res.statusCode, 400);
        assert.deepEqual(res.json(), { message: `Body is empty: send ${expected}`, documentation_url: DOCS });
        assert.deepEqual(await snapshot(t.dbPath), before);
      });
    }
  }

  test("a gzipped NDJSON body is inflated and ingested, even when larger than the limit compressed is not", async () => {
    const body = ndjson(
      Array.from({ length: 20 }, (_, i) => event(String(900 + i), "PushEvent", "zipper", "zipper/repo")),
    );
    assert.ok(body.length < 4096);
    const res = await post("/admin/events", gzipSync(body), {
      "content-encoding": "gzip",
      "content-type": "application/x-ndjson",
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json(), summary(20, 0));
  });

  test("a gzipped world (x-gzip, any case) is seeded", async () => {
    const world = JSON.stringify({ users: [{ login: "gzipped-user" }] });
    const res = await post("/admin/world", gzipSync(world), { "content-encoding": "X-GZIP" });
    assert.equal(res.statusCode, 200, res.body);
  });

  test("Content-Encoding: identity is the body as is", async () => {
    const res = await post("/admin/events", ndjson([event("950", "PushEvent", "plain", "plain/repo")]), {
      "content-encoding": "identity",
    });
    assert.deepEqual([res.statusCode, res.json()], [200, summary(1, 0)]);
  });

  for (const url of Object.keys(EXPECTED)) {
    test(`a gzip bomb (small compressed, over the limit inflated) is 413 on ${url}, and nothing is written`, async () => {
      const before = await snapshot(t.dbPath);
      const bomb = gzipSync(Buffer.alloc(2 * 1024 * 1024, " "));
      assert.ok(bomb.length < 4096, `${bomb.length} bytes compressed`);
      const res = await post(url, bomb, { "content-encoding": "gzip" });
      assert.equal(res.statusCode, 413);
      assert.deepEqual(res.json(), { message: "Request body is too large", documentation_url: DOCS });
      assert.deepEqual(await snapshot(t.dbPath), before);
    });

    test(`a corrupt gzip body is 400 on ${url}`, async () => {
      const cut = gzipSync(ndjson([event("960", "PushEvent", "cut", "cut/repo")])).subarray(0, 30);
      for (const body of [cut, Buffer.from("this was never gzip")]) {
        const res = await post(url, body, { "content-encoding": "gzip" });
        assert.equal(res.statusCode, 400);
        assert.deepEqual(res.json(), {
          message: "Problems decompressing the body: it is not valid gzip",
          documentation_url: DOCS,
        });
      }
    });

    test(`an encoding other than gzip is 415 on ${url}`, async () => {
      const res = await post(url, ndjson([event("970", "PushEvent", "br", "br/repo")]), { "content-encoding": "br" });
      assert.equal(res.statusCode, 415);
      assert.deepEqual(res.json(), {
        message: 'Unsupported Content-Encoding "br": send the body as is, or gzip it',
        documentation_url: DOCS,
      });
    });
  }

  test("a stranger's gzip bomb is 404: nothing is inflated for someone who may not ingest", async () => {
    const res = await post(
      "/admin/events",
      gzipSync(Buffer.alloc(1024 * 1024, " ")),
      { "content-encoding": "gzip" },
      null,
    );
    assert.equal(res.statusCode, 404);
  });
});

describe("POST /admin/events, over a socket: an event without created_at", () => {
  let t: TestApp;
  let url: string;
  before(async () => {
    t = await startTestApp();
    await t.createUser("root", "root-password", { siteAdmin: true });
    url = await t.app.listen({ port: 0, host: "127.0.0.1" });
  });
  after(() => t.close());

  const post = (body: unknown) =>
    fetch(`${url}/admin/events`, {
      method: "POST",
      headers: { authorization: ROOT, "content-type": "application/json" },
      body: JSON.stringify(body),
    });

  test("happened as it arrives: the server's clock, to the second; a created_at given is kept", async () => {
    t.clock.set(new Date("2026-01-15T10:01:30.750Z")); // the injected clock, not the wall clock
    const { created_at: _recorded, ...untimed } = event("51", "PushEvent", "nowly", "nowly/live");
    const res = await post([
      untimed,
      event("52", "PushEvent", "nowly", "nowly/live", { created_at: "2021-07-21T10:00:00Z" }),
    ]);
    assert.equal(res.status, 200, await res.clone().text());
    assert.deepEqual(await res.json(), summary(2, 0));
    const feed = (await (await fetch(`${url}/repos/nowly/live/events`)).json()) as { id: string; created_at: string }[];
    assert.deepEqual(
      feed.map((e) => [e.id, e.created_at]),
      [
        ["51", "2026-01-15T10:01:30Z"],
        ["52", "2021-07-21T10:00:00Z"],
      ],
    );
  });

  test("a created_at that is given but null is still refused, and nothing is written", async () => {
    const res = await post([event("53", "PushEvent", "nowly", "nowly/null", { created_at: null })]);
    assert.equal(res.status, 422);
    assert.equal(((await res.json()) as { errors: { field: string }[] }).errors[0]!.field, "events[0].created_at");
    assert.equal((await fetch(`${url}/repos/nowly/null/events`)).status, 404);
  });
});
