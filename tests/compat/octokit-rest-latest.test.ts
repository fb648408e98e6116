/**
 * The latest @octokit/rest (22.x, installed under the alias `octokit-rest-latest`), unmodified against a live
 * feedgate: the `activity.*` event lists and `issues.listEventsForRepo` with a token, `paginate.iterator`, and
 * the authorizations family through `octokit.request(...)`, since the methods for it left Octokit in v17.
 * Basic auth is no longer built in, so those requests carry their own `authorization: basic ...` header.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { Octokit } from "octokit-rest-latest";
import { startListeningApp, type ListeningApp } from "../helpers/listening-app.js";
import { failure } from "../helpers/failure.js";
import { ALICE, ALICE_TOKEN, BOB_TOKEN, OLGA, OTP_SECRET } from "../helpers/client-world.js";
import { currentOtp } from "../../src/server/services/credentials.js";
import { LAYOUTS, PINNED, versions } from "./clients.js";
import { FEEDS, PAGED, ids, type FeedCase, type FeedOperation } from "./feeds.js";
import { assertSchema } from "./schemas.js";

interface RequestFailure {
  status: number;
  message: string;
  response?: { headers: Record<string, string | undefined>; data: unknown };
}

const basicHeader = (login: string, password: string) =>
  `basic ${Buffer.from(`${login}:${password}`).toString("base64")}`;

/** The spec's feed operations as @octokit/rest 22 names them, with its parameter names. */
function listFeed(octokit: Octokit, { operation, params }: FeedCase) {
  const { user: username = "", repo = "", org = "" } = params;
  const methods: Record<
    FeedOperation,
    () => Promise<{ status: number; data: unknown; headers: Record<string, unknown> }>
  > = {
    get: () => octokit.activity.listPublicEvents(),
    getFromRepo: () => octokit.activity.listRepoEvents({ owner: username, repo }),
    getFromRepoIssues: () => octokit.issues.listEventsForRepo({ owner: username, repo }),
    getFromRepoNetwork: () => octokit.activity.listPublicEventsForRepoNetwork({ owner: username, repo }),
    getFromOrg: () => octokit.activity.listPublicOrgEvents({ org }),
    getReceived: () => octokit.activity.listReceivedEventsForUser({ username }),
    getReceivedPublic: () => octokit.activity.listReceivedPublicEventsForUser({ username }),
    getFromUser: () => octokit.activity.listEventsForAuthenticatedUser({ username }),
    getFromUserPublic: () => octokit.activity.listPublicEventsForUser({ username }),
    getFromUserOrg: () => octokit.activity.listOrgEventsForAuthenticatedUser({ username, org }),
  };
  return methods[operation]();
}

const isRequestFailure = (e: unknown): e is RequestFailure =>
  typeof (e as Partial<RequestFailure> | null)?.status === "number";
const requestFailure = (promise: Promise<unknown>) => failure(promise, isRequestFailure, "a RequestError");

for (const { name, prefix } of LAYOUTS)
  describe(`@octokit/rest latest (22.x) against feedgate${name}`, () => {
    let t: ListeningApp;
    before(async () => {
      t = await startListeningApp();
    });
    after(() => t.close());

    const client = (auth?: string) => new Octokit({ baseUrl: `${t.url}${prefix}`, ...(auth ? { auth } : {}) });

    test("is the pinned version", () => {
      const { declared, installed } = versions("octokitLatest");
      assert.match(String(declared), PINNED.octokitLatest.spec);
      assert.match(installed, PINNED.octokitLatest.version);
      assert.equal(declared, `npm:@octokit/rest@${installed}`, "pinned exactly");
    });

    describe("activity.* and issues.listEventsForRepo with a token", () => {
      for (const feed of FEEDS) {
        test(`${feed.operation}: the feed's first page, newest first`, async () => {
          const { status, data, headers } = await listFeed(client(ALICE_TOKEN), feed);
          assert.equal(status, 200);
          assert.deepEqual(ids(data as { id: string }[]), feed.ids);
          assertSchema(feed.schema, data, feed.operation);
          assert.equal(headers["x-oauth-scopes"], "repo, user");
          for (const header of ["etag", "last-modified", "x-ratelimit-remaining", "x-poll-interval"])
            assert.ok(headers[header], header);
        });
      }

      test("octokit.paginate.iterator walks a five-page feed page by page", async () => {
        const octokit = client(ALICE_TOKEN);
        const pages: string[][] = [];
        for await (const response of octokit.paginate.iterator(octokit.activity.listRepoEvents, {
          owner: PAGED.user,
          repo: PAGED.repo,
          per_page: PAGED.perPage,
        })) {
          assert.equal(response.status, 200);
          pages.push(ids(response.data));
        }
        assert.deepEqual(
          pages.map((p) => p.length),
          [10, 10, 10, 10, 6],
        );
        assert.deepEqual(pages.flat(), PAGED.ids);
      });

      test("breaking out of the iterator stops the requests", async () => {
        const octokit = client(ALICE_TOKEN);
        let seen = 0;
        for await (const response of octokit.paginate.iterator(octokit.activity.listRepoEvents, {
          owner: PAGED.user,
          repo: PAGED.repo,
          per_page: PAGED.perPage,
        })) {
          seen += response.data.length;
          if (seen >= 20) break;
        }
        assert.equal(seen, 20);
      });

      test("a conditional request with the feed's ETag is answered 304", async () => {
        const octokit = client(BOB_TOKEN);
        const first = await octokit.activity.listRepoEvents({ owner: PAGED.user, repo: PAGED.repo });
        const notModified = await requestFailure(
          octokit.activity.listRepoEvents({
            owner: PAGED.user,
            repo: PAGED.repo,
            headers: { "if-none-match": first.headers.etag },
          }),
        );
        assert.equal(notModified.status, 304);
        assert.equal(notModified.response?.headers["x-ratelimit-remaining"], first.headers["x-ratelimit-remaining"]);
      });

      test("another user's organization dashboard is 404", async () => {
        const refused = await requestFailure(
          client(BOB_TOKEN).activity.listOrgEventsForAuthenticatedUser({ username: "alice", org: "acme" }),
        );
        assert.equal(refused.status, 404);
      });
    });

    describe("the authorizations family through octokit.request", () => {
      const alice = { authorization: basicHeader(ALICE.login, ALICE.password) };

      test("POST, GET one, GET the list, PATCH and DELETE /authorizations", async () => {
        const octokit = client();
        const created = await octokit.request("POST /authorizations", {
          headers: alice,
          note: "octokit latest",
          scopes: ["gist"],
          fingerprint: "fp-1",
        });
        assert.equal(created.status, 201);
        assertSchema("authorization", created.data);
        assert.equal(created.headers.location, `${t.url}${prefix}/authorizations/${String(created.data.id)}`);
        assert.deepEqual(
          [created.data.note, created.data.fingerprint, created.data.scopes],
          ["octokit latest", "fp-1", ["gist"]],
        );
        const authorization_id = created.data.id as string;

        const got = await octokit.request("GET /authorizations/{authorization_id}", {
          headers: alice,
          authorization_id,
        });
        assertSchema("authorization", got.data);
        assert.equal(got.data.token, "");

        const listed = await octokit.request("GET /authorizations", { headers: alice, per_page: 100 });
        assertSchema("authorization", listed.data);
        assert.ok(ids(listed.data as { id: string }[]).includes(authorization_id));

        const updated = await octokit.request("PATCH /authorizations/{authorization_id}", {
          headers: alice,
          authorization_id,
          add_scopes: ["repo"],
        });
        assertSchema("authorization", updated.data);
        assert.deepEqual(updated.data.scopes, ["gist", "repo"]);

        const deleted = await octokit.request("DELETE /authorizations/{authorization_id}", {
          headers: alice,
          authorization_id,
        });
        assert.equal(deleted.status, 204);
        const gone = await requestFailure(
          octokit.request("GET /authorizations/{authorization_id}", { headers: alice, authorization_id }),
        );
        assert.equal(gone.status, 404);
      });

      test("a two-factor user: 401 with X-GitHub-OTP: required; app, then the request with the code succeeds", async () => {
        const octokit = client();
        const olga = { authorization: basicHeader(OLGA.login, OLGA.password) };
        const challenged = await requestFailure(
          octokit.request("POST /authorizations", { headers: olga, note: "olga via octokit latest" }),
        );
        assert.equal(challenged.status, 401);
        assert.equal(challenged.response?.headers["x-github-otp"], "required; app");
        const created = await octokit.request("POST /authorizations", {
          headers: { ...olga, "x-github-otp": currentOtp(OTP_SECRET, t.clock.now()) },
          note: "olga via octokit latest",
        });
        assert.equal(created.status, 201);
      });

      test("a token in the client's auth is refused with 403", async () => {
        const refused = await requestFailure(client(ALICE_TOKEN).request("GET /authorizations"));
        assert.equal(refused.status, 403);
        assert.equal(
          (refused.response!.data as { message: string }).message,
          "This API can only be accessed with username and password Basic Auth",
        );
      });
    });

    describe("API versions, as integrations written since 2022 send them", () => {
      test("X-GitHub-Api-Version 2026-03-10 is served its shape and named in X-GitHub-Api-Version-Selected", async () => {
        const limit = await client(ALICE_TOKEN).rest.rateLimit.get({
          headers: { "x-github-api-version": "2026-03-10" },
        });
        assert.equal(limit.headers["x-github-api-version-selected"], "2026-03-10");
        assert.equal((limit.data as { rate?: unknown }).rate, undefined);
        assert.equal(limit.data.resources.core.limit, 5000);
        const old = await client(ALICE_TOKEN).rest.rateLimit.get();
        assert.equal(old.headers["x-github-api-version-selected"], "2022-11-28");
        assert.deepEqual(old.data.rate, old.data.resources.core);
      });

      test("an unsupported version is a RequestError 400 naming the versions served", async () => {
        const refused = await requestFailure(
          client().rest.meta.root({ headers: { "x-github-api-version": "2030-01-01" } }),
        );
        assert.equal(refused.status, 400);
        assert.match(
          String((refused.response!.data as { errors: string }).errors),
          /"2026-03-10" \(most recent\) and "2022-11-28"/,
        );
      });
    });

    describe("credentials.revoke", () => {
      test("octokit.rest.credentials.revoke without auth: 202, and the listed token is refused from then on", async () => {
        const alice = (await t.store.users.findByLogin(ALICE.login))!;
        const { token } = await t.createToken(alice, ["repo"], "leaked");
        assert.equal((await client(token).rest.users.getAuthenticated()).status, 200);
        const answer = await client().rest.credentials.revoke({ credentials: [token, "ghp_not_ours"] });
        assert.equal(answer.status, 202);
        assert.deepEqual(answer.data, {});
        assert.equal((await requestFailure(client(token).rest.users.getAuthenticated())).status, 401);
      });

      test("with a token in the client's auth: 403, nothing revoked", async () => {
        const alice = (await t.store.users.findByLogin(ALICE.login))!;
        const { token } = await t.createToken(alice, [], "kept");
        const refused = await requestFailure(client(ALICE_TOKEN).rest.credentials.revoke({ credentials: [token] }));
        assert.equal(refused.status, 403);
        assert.equal((await client(token).rest.users.getAuthenticated()).status, 200);
      });

      test("an empty list is 422 naming the field", async () => {
        const refused = await requestFailure(client().rest.credentials.revoke({ credentials: [] }));
        assert.equal(refused.status, 422);
        const body = refused.response!.data as { errors: { field: string }[] };
        assert.deepEqual(
          body.errors.map((e) => e.field),
          ["credentials"],
        );
      });
    });
  });
