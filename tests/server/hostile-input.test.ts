/**
 * Hostile input, generated (fast-check): a few thousand requests across every route the server registers, with
 * malformed and deeply nested JSON, invalid UTF-8, NUL and control bytes in paths, queries and headers, huge
 * numbers, overlong URLs and headers, every authorization scheme malformed, and, over a real socket, requests cut
 * off mid-body. Whatever arrives: no 5xx, no crash, and the stored users and authorizations stay byte for byte
 * what they were. No generated request can legitimately write them: every body sent with a write carries at least
 * one flaw that the interface refuses, and deletes name ids that do not exist.
 *
 * The world, the generators and the request harness live in tests/helpers/hostile-{world,arbitraries,requests}.ts.
 *
 * A failure shows fast-check's seed and shrunk counterexample; `FEEDGATE_FUZZ_SEED=<seed>` replays the run.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { isUtf8 } from "node:buffer";
import fc from "fast-check";
import { basic, startTestApp, type TestApp } from "../helpers/test-app.js";
import { testDriver } from "../helpers/store-drivers.js";
import { ALICE, OLGA } from "../helpers/client-world.js";
import {
  cheapHash,
  PASSWORD_USERS,
  registeredRoutes,
  ROOT,
  ROOT_ADMIN_TOKEN,
  seed,
  storedAccounts,
  WRITE_METHODS,
  type Route,
  type Seeded,
} from "../helpers/hostile-world.js";
import {
  adminEventsBody,
  adminWorldBody,
  createsNothing,
  credentialArb,
  deletesNothing,
  takesAnyBody,
  encodedBody,
  flawedJson,
  header,
  headerName,
  headersArb,
  headerText,
  headerValue,
  hostileString,
  HOSTS,
  hugeNumber,
  invalidUtf8,
  malformedAuthorization,
  overlong,
  pathArb,
  queryArb,
  REMOTE_ADDRESSES,
  SCOPES,
  SHARED_FIELDS,
} from "../helpers/hostile-arbitraries.js";
import {
  assertBelow500,
  clip,
  described,
  readable,
  readableRequest,
  rawBytes,
  send,
  sendRaw,
  statuses,
  withCredential,
  type Framing,
  type RawRequest,
  type Request,
} from "../helpers/hostile-requests.js";
import { endpoints } from "../../src/api/endpoints.js";

if (process.env.FEEDGATE_FUZZ_SEED) fc.configureGlobal({ seed: Number(process.env.FEEDGATE_FUZZ_SEED) });

/**
 * How many requests each property sends: all of them on SQLite, a third in the PostgreSQL matrix run, which repeats
 * the same generated shapes against another store (the driver-specific hazards, such as a NUL byte that PostgreSQL's
 * text refuses, are also sent on purpose by "known hostile inputs"), as tests/server/services/feed-totals.test.ts does.
 */
const runs = (onSqlite: number) => (testDriver().name === "postgres" ? Math.ceil(onSqlite / 3) : onSqlite);

// ---------------------------------------------------------------------------------------------------------------

/** The console's pages and GitHub's OAuth endpoints (`/login/...`): forms, not the JSON API. */
/**
 * The browser's pages: the console, GitHub's OAuth pages on the host root, and the manifest flow's entry
 * (`/settings/apps/new`), which sends any form post on to the console's confirmation page (303).
 */
const isWebPage = (path: string) =>
  path.startsWith("/console") || path.startsWith("/login/") || path.endsWith("/settings/apps/new");

describe("hostile input: no 5xx, no crash, stored accounts unchanged", () => {
  let world: Seeded;
  let routes: Route[];
  before(async () => {
    world = await seed();
    routes = registeredRoutes(world.t.app);
  });
  after(() => world.t.close());

  /** Runs a property and checks that stored users and authorizations are what they were before it. */
  async function unchanged(t: { diagnostic(message: string): void }, property: () => Promise<void>): Promise<void> {
    const before = await storedAccounts(world.t.dbPath);
    const first = new Map(statuses);
    try {
      await property();
    } finally {
      const mine = [...statuses]
        .map(([status, n]) => [status, n - (first.get(status) ?? 0)] as const)
        .filter(([, n]) => n > 0)
        .sort(([a], [b]) => String(a).localeCompare(String(b)));
      t.diagnostic(
        `${mine.reduce((sum, [, n]) => sum + n, 0)} answers: ${mine.map(([status, n]) => `${status} x${n}`).join(", ")}`,
      );
    }
    assert.deepEqual(
      await storedAccounts(world.t.dbPath),
      before,
      "stored users and authorizations must be byte-identical",
    );
  }

  test("the suite knows every route of the endpoint table, the id-based feeds, admin ingest and the probes", async () => {
    const known = new Set(routes.map((r) => `${r.method} ${r.path}`));
    const expected = [
      ...Object.values(endpoints).flatMap((family) => Object.values(family).map((e) => `${e.method} ${e.path}`)),
      "GET /repositories/:id/events",
      "GET /repositories/:id/issues/events",
      "GET /organizations/:id/events",
      "GET /user/:id/events",
      "GET /user/:id/events/public",
      "GET /user/:id/received_events",
      "GET /user/:id/received_events/public",
      "POST /admin/events",
      "POST /admin/world",
      "GET /healthz",
      "GET /readyz",
    ];
    for (const route of expected)
      assert.ok(known.has(route), `${route} is not among the parsed routes: ${[...known].join(", ")}`);
    // The cheap test hashes must be readable by the server, or every password request below would fail early.
    const res = await world.t.app.inject({
      url: "/authorizations",
      headers: { authorization: basic(ALICE.login, ALICE.password) },
    });
    assert.equal(res.statusCode, 200, res.body);
  });

  /**
   * Inputs that answered 5xx before, tried on every run whatever fast-check draws: each is reported, not only the
   * first, and a failing one does not keep the properties below from exploring.
   */
  test("known hostile inputs answer below 500: NUL in paths and logins, bad or missing Host, bodies cut off", async (t) => {
    const get = (url: string, headers: Record<string, string> = {}): Request => ({
      method: "GET",
      url,
      headers,
      remoteAddress: "127.0.0.1",
    });
    const alice = basic(ALICE.login, ALICE.password);
    const injected = [
      get("/users/%00/events"),
      get("/repos/alice/%00/events"),
      get("/orgs/%00/events"),
      get("/events", { authorization: basic("alice\u0000", "x") }),
      get("/events", { authorization: basic("\u0000", "x") }),
      ...["x:99999", "x:65536", "[::1]:99999", "1.2.3.4.5", "a b", "[::1", "hÿ"].flatMap((host) => [
        get("/events?per_page=1", { host }),
        get("/authorizations", { host, authorization: alice }),
      ]),
    ];
    const plain: RawRequest = {
      method: "GET",
      target: "/events?per_page=1",
      version: "HTTP/1.1",
      host: "normal",
      authorization: undefined,
      headers: [],
      overlongHeader: null,
      framing: { kind: "none" },
      body: { payload: Buffer.from('{"scopes":"repo"}'), contentType: "application/json" },
    };
    const raw: RawRequest[] = [
      { ...plain, version: "HTTP/1.0", host: "absent" },
      { ...plain, host: "empty" },
      { ...plain, target: "/authorizations", version: "HTTP/1.0", host: "absent", authorization: alice },
      { ...plain, target: "/authorizations", host: "empty", authorization: alice },
      {
        ...plain,
        method: "POST",
        target: "/authorizations",
        authorization: alice,
        framing: { kind: "short", missing: 100 },
      },
      {
        ...plain,
        method: "POST",
        target: "/authorizations",
        authorization: alice,
        framing: { kind: "chunked-cut", cut: 12 },
      },
    ];
    const failures: string[] = [];
    await unchanged(t, async () => {
      for (const request of injected) {
        try {
          assertBelow500(request, await send(world.t.app, request));
        } catch (error) {
          failures.push((error as Error).message);
        }
      }
      for (const request of raw) {
        try {
          await sendRaw(world, request);
        } catch (error) {
          failures.push((error as Error).message);
        }
      }
    });
    if (failures.length > 0)
      assert.fail(`${failures.length} of ${injected.length + raw.length} failed:\n${failures.join("\n")}`);
  });

  test("GET, HEAD and OPTIONS with hostile paths, queries, headers and credentials answer below 500", async (t) => {
    const readRoutes = routes.filter((r) => !WRITE_METHODS.includes(r.method));
    const request = fc
      .tuple(
        fc.oneof(
          ...readRoutes.map((route) =>
            fc.tuple(
              fc.constantFrom(route.method, route.method, "GET", "GET", "GET", "HEAD", "OPTIONS"),
              pathArb(route.path, "GET", world.authorizationIds),
            ),
          ),
        ),
        queryArb,
        headersArb,
        credentialArb(world, { anonymous: 3, password: 3, token: 3, malformed: 2 }),
        fc.constantFrom(...REMOTE_ADDRESSES),
      )
      .map(([[method, path], query, headers, credential, remoteAddress]) =>
        withCredential({ method, url: path + query, headers, remoteAddress }, credential),
      );

    await unchanged(t, () =>
      fc.assert(
        fc.asyncProperty(request, async (req) => {
          assertBelow500(req, await send(world.t.app, req));
        }),
        { numRuns: runs(1500) },
      ),
    );
  });

  test("writes with flawed bodies (malformed, deeply nested, wrong types, unknown scopes, bad UTF-8) are refused with a 4xx", async (t) => {
    // The API's writes take JSON. The console's forms (under /console) take form fields, and a sign-out has no body to
    // be flawed: their refusals (CSRF, origin, sessions) are tests/server/console-sessions.test.ts's.
    // Starring, watching and following take no body, or two optional booleans, and ignore whatever else is sent, as
    // GitHub does (it asks for `Content-Length: 0`): no body is flawed there.
    // GitHub's OAuth endpoints on the host root (`/login/...`) are web pages and the token exchange, which answers its
    // refusals with 200 and `error`, as GitHub does: tests/server/oauth-*.test.ts hold them.
    // Their `/repositories/:id/...` forms alike.
    const ignoresBodies = new Set<string>(
      Object.values(endpoints.activity).flatMap((row) => [
        row.path,
        row.path.replace(/^\/repos\/:user\/:repo/, "/repositories/:id"),
      ]),
    );
    const apiRoutes = routes.filter((r) => !isWebPage(r.path) && !ignoresBodies.has(r.path));
    const writeRoutes = apiRoutes.filter((r) => WRITE_METHODS.includes(r.method));
    const anyPath = fc.oneof(...apiRoutes.map((r) => fc.constant(r.path)));
    const targets = fc.oneof(
      {
        weight: 4,
        arbitrary: fc.oneof(
          ...writeRoutes.map((route) =>
            fc.tuple(
              fc.constant(route.method),
              pathArb(route.path, route.method, world.authorizationIds),
              fc.constant(route.path),
            ),
          ),
        ),
      },
      {
        weight: 1,
        arbitrary: fc
          .tuple(fc.constantFrom(...WRITE_METHODS), anyPath)
          .chain(([method, path]) =>
            fc.tuple(fc.constant(method), pathArb(path, method, world.authorizationIds), fc.constant(path)),
          ),
      },
    );
    const anyone = credentialArb(world, { anonymous: 1, password: 6, token: 3, malformed: 1 });
    /** Mostly root, so that ingest bodies get parsed: its password, or a token with `site_admin`. */
    const administrator = fc.oneof(
      {
        weight: 4,
        arbitrary: fc
          .constantFrom(
            basic(ROOT.login, ROOT.password),
            `token ${ROOT_ADMIN_TOKEN}`,
            `Bearer ${world.tokens.at(-1)!}`,
            basic("x-access-token", ROOT_ADMIN_TOKEN),
          )
          .map(header),
      },
      { weight: 1, arbitrary: anyone },
    );
    // Only the body and the credential the target takes are generated: a body costs milliseconds to generate, and
    // drawing all three kinds for every request was a third of this test's CPU.
    const request = fc
      .tuple(targets, fc.boolean())
      .chain(([[method, path, template], withBody]) => {
        const isAdmin = template.startsWith("/admin/");
        // Each ingest route gets its own kind of body (an events body `{}` would be an empty world, and valid).
        const ingestBody =
          template === "/admin/events" ? adminEventsBody : template === "/admin/world" ? adminWorldBody : flawedJson;
        return fc.tuple(
          fc.constant([method, path, withBody] as const),
          fc.oneof({ weight: 4, arbitrary: fc.constant("") }, { weight: 1, arbitrary: queryArb }),
          fc.oneof({ weight: 3, arbitrary: fc.constant({}) }, { weight: 1, arbitrary: headersArb }),
          isAdmin ? administrator : anyone,
          encodedBody(withBody ? ingestBody : flawedJson),
          fc.constantFrom(...REMOTE_ADDRESSES),
        );
      })
      .map(([[method, path, withBody], query, headers, credential, body, remoteAddress]) => {
        const sendsBody = method !== "DELETE" || withBody;
        return withCredential(
          {
            method,
            url: path + query,
            remoteAddress,
            headers: {
              ...headers,
              ...(sendsBody && body.contentType !== undefined ? { "content-type": body.contentType } : {}),
            },
            payload: sendsBody ? body.payload : undefined,
          },
          credential,
        );
      });

    await unchanged(t, () =>
      fc.assert(
        fc.asyncProperty(
          request.filter((req) => deletesNothing(req.method, req.url) && !takesAnyBody(req.method, req.url)),
          async (req) => {
            const res = await send(world.t.app, req);
            assertBelow500(req, res);
            assert.ok(
              res.statusCode >= 400,
              `a flawed write was accepted with ${res.statusCode}:\n  ${described(req, res)}`,
            );
          },
        ),
        { numRuns: runs(1000) },
      ),
    );
  });

  test('every authorization scheme, malformed, is 401 "Bad credentials" on every route', async (t) => {
    const JWT_ROUTES = new Set(
      Object.values(endpoints)
        .flatMap((family) => Object.values(family))
        .filter((row) => row.auth === "app")
        .map((row) => `${row.method} ${row.path}`),
    );
    /** The probes may answer without looking at credentials. */
    const PROBES = ["/healthz", "/readyz", "*"];
    const request = fc
      .tuple(
        fc.oneof(
          ...routes
            .filter((r) => r.method !== "OPTIONS")
            .map((route) => fc.tuple(fc.constant(route), pathArb(route.path, route.method, world.authorizationIds))),
        ),
        malformedAuthorization,
        fc.oneof(fc.constant(null), fc.tuple(fc.constantFrom("x-github-otp", "x-service-otp"), headerText)),
        encodedBody(flawedJson),
      )
      .map(([[route, path], authorization, otp, body]) => ({
        route,
        request: readableRequest({
          method: route.method,
          url: path,
          remoteAddress: "127.0.0.1",
          headers: { authorization, ...(otp ? { [otp[0]]: otp[1] } : {}) },
          payload: WRITE_METHODS.includes(route.method) && route.method !== "DELETE" ? body.payload : undefined,
        }),
      }));

    await unchanged(t, () =>
      fc.assert(
        fc.asyncProperty(request, async ({ route, request: req }) => {
          const res = await send(world.t.app, req);
          assertBelow500(req, res);
          // GitHub's OAuth pages and token exchange, and the manifest flow's page, read no API credential: an
          // Authorization header is not theirs.
          if (
            PROBES.includes(route.path) ||
            route.path.startsWith("/login/") ||
            route.path.endsWith("/settings/apps/new")
          )
            return;
          // A mangled path may be refused by the router first: undecodable (400) or unknown (404). A body over the
          // limit may be refused before credentials are read (413) where a route reads them from its parsed request
          // (an OAuth app's client id and secret, `/applications/...`): refused all the same.
          const oversized =
            res.statusCode === 413 && Buffer.byteLength(req.payload ?? "") > world.t.app.initialConfig.bodyLimit!;
          assert.ok(
            [400, 401, 404].includes(res.statusCode) || oversized,
            `bad credentials were not refused:\n  ${described(req, res)}`,
          );
          if (res.statusCode === 401 && req.method !== "HEAD") {
            // A GitHub App's JWT routes refuse a token that is no JWT as GitHub does (docs/apps-and-sign-in.md).
            const expected = JWT_ROUTES.has(`${route.method} ${route.path}`)
              ? /^(Bad credentials|A JSON web token could not be decoded)$/
              : /^Bad credentials$/;
            assert.match((res.json() as { message: string }).message, expected, described(req, res));
          }
        }),
        { numRuns: runs(500) },
      ),
    );
  });

  test('invalid UTF-8 inside an otherwise valid JSON body is 400 "Problems parsing JSON"', async (t) => {
    const aliceIds = (
      await world.t.store.authorizations.list((await world.t.store.users.findByLogin("alice"))!.id, {
        limit: 100,
        offset: 0,
      })
    ).rows.map((row) => String(row.id));
    /** A JSON string holding the bad bytes: `"` + text + bad + text + `"`, as bytes. */
    const badString = fc
      .tuple(fc.string({ maxLength: 8 }), invalidUtf8, fc.string({ maxLength: 8 }))
      .map(([a, bad, b]) =>
        Buffer.concat([Buffer.from(JSON.stringify(a).slice(0, -1)), bad, Buffer.from(JSON.stringify(b).slice(1))]),
      );
    const splice = (template: string, bad: Buffer) => {
      const [head, tail] = template.split("@BAD@") as [string, string];
      return Buffer.concat([Buffer.from(head), bad, Buffer.from(tail)]);
    };
    const passwordUser = fc.oneof(
      fc.constantFrom(...PASSWORD_USERS).map(({ login, password }) => ({ authorization: basic(login, password) })),
      fc.constant(null).map(() => ({ authorization: basic(OLGA.login, OLGA.password), "x-github-otp": world.otp() })),
    );
    const scopes = fc.subarray(SCOPES).map((s) => JSON.stringify(s));
    const authorizationWrite = fc
      .tuple(
        fc.oneof(
          fc.constant({ method: "POST", url: "/authorizations" }),
          fc
            .tuple(fc.constantFrom("PATCH", "POST"), fc.oneof(fc.constantFrom(...aliceIds), fc.constant("987654321")))
            .map(([method, id]) => ({ method, url: `/authorizations/${id}` })),
        ),
        passwordUser,
        fc.constantFrom(...SHARED_FIELDS),
        scopes,
        badString,
      )
      .map(([target, headers, field, scopeList, bad]) => ({
        ...target,
        headers,
        payload: splice(`{"scopes":${scopeList},${field}:@BAD@}`, bad),
      }));
    const ingest = fc
      .tuple(
        fc.constantFrom("/admin/events", "/admin/world"),
        fc.constantFrom(basic(ROOT.login, ROOT.password), `token ${ROOT_ADMIN_TOKEN}`),
        badString,
        fc.integer({ min: 1, max: 1_000_000 }),
      )
      .map(([url, authorization, bad, id]) => {
        const event =
          `{"id":"${9_000_000_000 + id}","type":"PushEvent","actor":{"login":"utf8-intruder"},"repo":{"name":"utf8-intruder/repo"},` +
          `"created_at":"2021-07-21T10:00:00Z","payload":{"ref":@BAD@}}`;
        return {
          method: "POST",
          url,
          headers: { authorization },
          payload: splice(url === "/admin/events" ? event : `{"events":[${event}]}`, bad),
        };
      });
    const request = fc
      .tuple(
        fc.oneof({ weight: 3, arbitrary: authorizationWrite }, { weight: 1, arbitrary: ingest }),
        fc.constantFrom(
          undefined,
          "application/json",
          "application/json; charset=utf-8",
          "text/plain",
          "application/x-www-form-urlencoded",
        ),
      )
      .map(([req, type]) =>
        readableRequest({
          ...req,
          remoteAddress: "127.0.0.1",
          headers: { ...req.headers, ...(type ? { "content-type": type } : {}) },
        }),
      );

    await unchanged(t, () =>
      fc.assert(
        fc.asyncProperty(request, async (req) => {
          assert.ok(!isUtf8(req.payload!), "the generator must send bytes that are not UTF-8");
          const res = await send(world.t.app, req);
          assertBelow500(req, res);
          assert.equal(res.statusCode, 400, described(req, res));
          assert.equal((res.json() as { message: string }).message, "Problems parsing JSON", described(req, res));
        }),
        { numRuns: runs(300) },
      ),
    );
  });

  test("the protocol: NUL and control bytes, overlong lines and headers, no Host, bodies cut off; answers below 500 and keeps serving", async (t) => {
    // Ids as a DELETE may name them, whatever the method: the raw method is drawn on its own.
    const anyPath = fc.oneof(...routes.map((route) => pathArb(route.path, "DELETE", world.authorizationIds)));
    const rawByte = fc.integer({ min: 0, max: 255 }).map((b) => String.fromCharCode(b));
    /** Bytes no request target may hold: control characters, DEL, and everything above ASCII. */
    const refusedByte = fc
      .oneof(fc.integer({ min: 0, max: 0x1f }), fc.constant(0x7f), fc.integer({ min: 0x80, max: 0xff }))
      .map((b) => String.fromCharCode(b));
    const latin1 = fc.string({ unit: rawByte, maxLength: 30 });
    const target = fc.oneof(
      {
        weight: 16,
        arbitrary: fc
          .tuple(anyPath, fc.oneof({ weight: 1, arbitrary: fc.constant("") }, { weight: 1, arbitrary: queryArb }))
          .filter(([p, q]) => p.length + q.length < 10_000)
          .map(([p, q]) => p + q),
      },
      // a raw byte the parser must refuse (NUL, control, space, non-ASCII) somewhere in the target
      {
        weight: 3,
        arbitrary: fc.tuple(anyPath, refusedByte, fc.nat()).map(([p, byte, at]) => {
          const i = at % (p.length + 1);
          return p.slice(0, i) + byte + p.slice(i);
        }),
      },
      { weight: 1, arbitrary: overlong(17_000, 120_000).map((a) => `/events?x=${a}`) },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          "*",
          "",
          "events",
          "http://localhost/events",
          "//events",
          "/events#x",
          "/../../etc/passwd",
        ),
      },
    );
    const framing: fc.Arbitrary<Framing> = fc.oneof(
      { weight: 6, arbitrary: fc.constant({ kind: "none" as const }) },
      { weight: 6, arbitrary: fc.constant({ kind: "exact" as const }) },
      fc.record({ kind: fc.constant("short" as const), missing: fc.integer({ min: 1, max: 5_000_000 }) }),
      fc.record({
        kind: fc.constant("chunked" as const),
        sizes: fc.array(fc.integer({ min: 1, max: 64 }), { maxLength: 4 }),
      }),
      fc.record({ kind: fc.constant("chunked-cut" as const), cut: fc.nat() }),
      fc.record({
        kind: fc.constant("chunked-bad" as const),
        size: fc.constantFrom("zz", "-1", "ffffffffffffffffff", "1;ext=\u0000", "", " 5", "5 ", "0x5"),
      }),
      fc.record({
        kind: fc.constant("bad-length" as const),
        length: fc.oneof(fc.constantFrom("abc", "-1", "1e3", "", "1, 2"), hugeNumber),
      }),
      fc.constant({ kind: "length-and-chunked" as const }),
      fc.constant({ kind: "two-lengths" as const }),
    );
    // Each part is usually well-formed, so that most requests carry one or two defects and some reach the routes.
    const rawParts = fc
      .record({
        method: fc.oneof(
          { weight: 20, arbitrary: fc.constantFrom("GET", "GET", "POST", "PATCH", "DELETE", "HEAD", "OPTIONS", "PUT") },
          { weight: 1, arbitrary: fc.constantFrom("get", "CONNECT", "TRACE", "PRI", "G\u0000T", "") },
          { weight: 1, arbitrary: latin1 },
        ),
        target,
        version: fc.oneof(
          { weight: 12, arbitrary: fc.constant("HTTP/1.1") },
          { weight: 4, arbitrary: fc.constant("HTTP/1.0") },
          {
            weight: 2,
            arbitrary: fc.constantFrom(
              "HTTP/2.0",
              "HTTP/1.2",
              "HTTP/0.9",
              "http/1.1",
              "HTTP/1.1x",
              "",
              "HTTP/1.1 extra",
              "HTTP/1.01",
            ),
          },
        ),
        host: fc.oneof(
          { weight: 10, arbitrary: fc.constant("normal") },
          { weight: 4, arbitrary: fc.constantFrom("absent", "empty", "two") },
          { weight: 1, arbitrary: latin1 },
          { weight: 1, arbitrary: fc.constantFrom(...HOSTS) },
          { weight: 1, arbitrary: overlong(17_000, 40_000) },
        ),
        authorization: fc.oneof(
          { weight: 3, arbitrary: fc.constant(undefined) },
          {
            weight: 6,
            arbitrary: credentialArb(world, { anonymous: 1, password: 3, token: 3, malformed: 3 })
              .map((c) => c.headers.authorization)
              .filter((value) => value === undefined || value.length < 10_000),
          },
          {
            weight: 1,
            arbitrary: fc
              .tuple(fc.constantFrom("Basic", "token", "Bearer", "Digest"), latin1)
              .map(([scheme, v]) => `${scheme} ${v}`),
          },
        ),
        headers: fc.array(
          fc.oneof(
            {
              weight: 9,
              arbitrary: fc.tuple(
                headerName,
                headerValue.filter((v) => v.length < 10_000),
              ),
            },
            { weight: 1, arbitrary: fc.tuple(latin1, latin1) },
          ),
          { maxLength: 2 },
        ),
        overlongHeader: fc.oneof(
          { weight: 20, arbitrary: fc.constant(null) },
          { weight: 1, arbitrary: overlong(17_000, 90_000) },
        ),
        framing,
        body: encodedBody(flawedJson),
      })
      .filter(
        (r) => deletesNothing(r.method, r.target) && createsNothing(r.method, r.target, r.authorization),
      ) satisfies fc.Arbitrary<RawRequest>;
    const rawRequest = rawParts.map((r) =>
      readable(r, (value) => `\n  ${JSON.stringify(clip(rawBytes(value, world.port).toString("latin1"), 1500))}`),
    );

    await unchanged(t, () =>
      fc.assert(
        fc.asyncProperty(rawRequest, (r) => sendRaw(world, r)),
        { numRuns: runs(300) },
      ),
    );
  });
});

/**
 * Hostile strings that are valid input (NUL, control characters, non-characters, long runs): stored and shown back
 * as sent, or refused with a 4xx, never a 5xx. These writes succeed, so they run on an app of their own.
 */
describe("hostile strings in valid writes are stored as sent or refused", () => {
  let t: TestApp;
  let authorizationId: string;
  const credentials = basic(ALICE.login, ALICE.password);
  before(async () => {
    t = await startTestApp({ rateLimitAuthenticated: 1_000_000_000, loginMaxAttempts: 1_000_000_000 });
    const alice = await t.store.users.create({
      login: ALICE.login,
      passwordHash: cheapHash(ALICE.password),
      otpSecret: null,
      siteAdmin: false,
    });
    authorizationId = (await t.createToken(alice, ["repo"], "scratch")).id;
  });
  after(() => t.close());

  test("note, note_url and fingerprint with any code points, on create and update", async () => {
    const value = fc.oneof(hostileString, fc.constant(null));
    const request = fc.tuple(
      fc.constantFrom("create", "update"),
      fc.record({ note: value, note_url: value, fingerprint: value }, { requiredKeys: [] }),
    );
    type Fields = { note?: string | null; note_url?: string | null; fingerprint?: string | null };
    const examples: [["create" | "update", Fields]][] = [
      [["update", { note: "\u0000" }]],
      [["create", { note_url: "a\u0000b", fingerprint: "\u0001" }]],
    ];
    await fc.assert(
      fc.asyncProperty(request, async ([operation, fields]) => {
        const req: Request = {
          method: operation === "create" ? "POST" : "PATCH",
          url: operation === "create" ? "/authorizations" : `/authorizations/${authorizationId}`,
          headers: { authorization: credentials, "content-type": "application/json" },
          payload: Buffer.from(JSON.stringify(fields)),
          remoteAddress: "127.0.0.1",
        };
        const res = await send(t.app, req);
        assertBelow500(req, res);
        if (res.statusCode >= 400) return;
        const shown = res.json() as Record<string, unknown>;
        for (const [key, sentValue] of Object.entries(fields)) {
          assert.equal(shown[key], sentValue, `${key} was not stored as sent:\n  ${described(req, res)}`);
        }
        if (operation === "create") {
          const cleanup = await t.app.inject({
            method: "DELETE",
            url: `/authorizations/${String(shown.id)}`,
            headers: { authorization: credentials },
          });
          assert.equal(cleanup.statusCode, 204);
        }
      }),
      { numRuns: runs(150), examples },
    );
  });
});
