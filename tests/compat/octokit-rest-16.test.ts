/**
 * @octokit/rest 16.43.2, the last major with the OAuth Authorizations methods, unmodified against a live
 * feedgate: `oauthAuthorizations.*` with Basic auth (and a two-factor user through `on2fa`), the `activity.*`
 * event lists and `issues.listEventsForRepo` with a token, `octokit.paginate`, and a conditional request.
 * Its requests go through the node-fetch it ships with, wrapped only to record what went over the wire.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { startListeningApp, type ListeningApp } from "../helpers/listening-app.js";
import { failure } from "../helpers/failure.js";
import { ALICE, ALICE_TOKEN, BOB_TOKEN, OLGA, OTP_SECRET } from "../helpers/client-world.js";
import { currentOtp } from "../../src/server/services/credentials.js";
import { LAYOUTS, Octokit16, octokit16Fetch, PINNED, versions } from "./clients.js";
import { FEEDS, PAGED, ids, type FeedCase, type FeedOperation } from "./feeds.js";
import { assertSchema } from "./schemas.js";

type Json = Record<string, unknown>;
type Octokit = InstanceType<typeof Octokit16>;
type Auth = NonNullable<ConstructorParameters<typeof Octokit16>[0]>["auth"];
interface Exchange {
  method: string;
  url: string;
  headers: Record<string, string>;
  status: number;
  otpHeader: string | null;
}
interface RequestFailure {
  status: number;
  message: string;
  headers: Record<string, string>;
}

/** The spec's feed operations as @octokit/rest 16 names them, with its parameter names. */
function listFeed(octokit: Octokit, { operation, params }: FeedCase, extra: Json = {}) {
  const { user: username = "", repo = "", org = "" } = params;
  const methods: Record<
    FeedOperation,
    () => Promise<{ status: number; data: unknown; headers: Record<string, string | undefined> }>
  > = {
    get: () => octokit.activity.listPublicEvents({ ...extra }),
    getFromRepo: () => octokit.activity.listRepoEvents({ owner: username, repo, ...extra }),
    getFromRepoIssues: () => octokit.issues.listEventsForRepo({ owner: username, repo, ...extra }),
    getFromRepoNetwork: () => octokit.activity.listPublicEventsForRepoNetwork({ owner: username, repo, ...extra }),
    getFromOrg: () => octokit.activity.listPublicEventsForOrg({ org, ...extra }),
    getReceived: () => octokit.activity.listReceivedEventsForUser({ username, ...extra }),
    getReceivedPublic: () => octokit.activity.listReceivedPublicEventsForUser({ username, ...extra }),
    getFromUser: () => octokit.activity.listEventsForUser({ username, ...extra }),
    getFromUserPublic: () => octokit.activity.listPublicEventsForUser({ username, ...extra }),
    getFromUserOrg: () => octokit.activity.listEventsForOrg({ username, org, ...extra }),
  };
  return methods[operation]();
}

const isRequestFailure = (e: unknown): e is RequestFailure =>
  typeof (e as Partial<RequestFailure> | null)?.status === "number";
const requestFailure = (promise: Promise<unknown>) => failure(promise, isRequestFailure, "a RequestError");

for (const { name, prefix } of LAYOUTS)
  describe(`@octokit/rest 16.43.2 against feedgate${name}`, () => {
    let t: ListeningApp;
    /** What the client logged: deprecation notices for the OAuth Authorizations API and object auth, expected. */
    const warnings: string[] = [];
    const log = {
      debug() {},
      info() {},
      warn: (m: unknown) => void warnings.push(String(m)),
      error: (m: unknown) => void warnings.push(String(m)),
    };

    before(async () => {
      t = await startListeningApp();
    });
    after(() => t.close());

    /** A client whose requests are recorded on their way through node-fetch. */
    function octokit(auth?: Auth) {
      const exchanges: Exchange[] = [];
      const fetch = async (url: string, init: Record<string, unknown>) => {
        const response = await octokit16Fetch(url, init);
        const headers = init.headers as Record<string, string>;
        exchanges.push({
          method: String(init.method),
          url,
          headers,
          status: response.status,
          otpHeader: response.headers.get("x-github-otp"),
        });
        return response;
      };
      // The typings of 16.43.2 leave out `request.fetch`, which its @octokit/request takes.
      const request = { fetch } as { timeout?: number };
      const client = new Octokit16({
        baseUrl: `${t.url}${prefix}`,
        log,
        request,
        ...(auth === undefined ? {} : { auth }),
      });
      return { client, exchanges };
    }
    const basic = () =>
      octokit({ username: ALICE.login, password: ALICE.password, on2fa: () => assert.fail("alice has no 2FA") }).client;
    const token = (value = ALICE_TOKEN) => octokit(`token ${value}`).client;

    test("is the pinned version", () => {
      const { declared, installed } = versions("octokit16");
      assert.equal(declared, PINNED.octokit16.spec);
      assert.match(installed, PINNED.octokit16.version);
    });

    describe("oauthAuthorizations.* with Basic auth", () => {
      test("createAuthorization, getAuthorization, listAuthorizations, updateAuthorization and deleteAuthorization", async () => {
        const octokit = basic();
        const created = await octokit.oauthAuthorizations.createAuthorization({
          note: "octokit 16",
          scopes: ["repo", "repo:status"],
          note_url: "https://example.com/o16",
        });
        assert.equal(created.status, 201);
        assertSchema("authorization", created.data);
        assert.match(
          String((created.headers as Record<string, string | undefined>).location),
          new RegExp(`^${t.url}${prefix}/authorizations/${String(created.data.id)}$`),
        );
        assert.deepEqual(created.data.scopes, ["repo"]);
        assert.match(created.data.token, /^fgp_/);
        const id = Number(created.data.id);

        const got = await octokit.oauthAuthorizations.getAuthorization({ authorization_id: id });
        assertSchema("authorization", got.data);
        assert.deepEqual([got.status, got.data.token, got.data.note], [200, "", "octokit 16"]);

        const listed = await octokit.oauthAuthorizations.listAuthorizations({ per_page: 100 });
        assertSchema("authorization", listed.data);
        assert.ok(ids(listed.data).includes(String(id)));

        const updated = await octokit.oauthAuthorizations.updateAuthorization({
          authorization_id: id,
          scopes: ["gist"],
          note: "octokit 16, renamed",
        });
        assertSchema("authorization", updated.data);
        assert.deepEqual(
          [updated.data.scopes, updated.data.note, updated.data.note_url],
          [["gist"], "octokit 16, renamed", "https://example.com/o16"],
        );
        const added = await octokit.oauthAuthorizations.updateAuthorization({
          authorization_id: id,
          add_scopes: ["read:org"],
        });
        assert.deepEqual(added.data.scopes, ["gist", "read:org"]);

        const deleted = await octokit.oauthAuthorizations.deleteAuthorization({ authorization_id: id });
        assert.equal(deleted.status, 204);
        const gone = await requestFailure(octokit.oauthAuthorizations.getAuthorization({ authorization_id: id }));
        assert.deepEqual([gone.status, gone.message], [404, "Not Found"]);
      });

      test("a two-factor user: the first attempt is 401 with X-GitHub-OTP, on2fa is asked once, the retry succeeds", async () => {
        let asked = 0;
        const { client, exchanges } = octokit({
          username: OLGA.login,
          password: OLGA.password,
          on2fa: async () => {
            asked += 1;
            return currentOtp(OTP_SECRET, t.clock.now());
          },
        });
        const created = await client.oauthAuthorizations.createAuthorization({
          note: "olga via octokit 16",
          scopes: ["gist"],
        });
        assert.equal(created.status, 201);
        assert.equal(asked, 1);
        assert.deepEqual(
          exchanges.map((e) => [e.method, e.status, e.otpHeader]),
          [
            ["POST", 401, "required; app"],
            ["POST", 201, null],
          ],
        );
        assert.equal(exchanges[0]!.headers["x-github-otp"], undefined);
        assert.equal(exchanges[1]!.headers["x-github-otp"], currentOtp(OTP_SECRET, t.clock.now()));

        // The client keeps the code that worked: the next request is sent with it and is not challenged.
        const listed = await client.oauthAuthorizations.listAuthorizations();
        assert.deepEqual(ids(listed.data), [String(created.data.id)]);
        assert.equal(asked, 1);
        assert.deepEqual(
          exchanges.slice(2).map((e) => e.status),
          [200],
        );
      });

      test("a token is refused with 403: authorizations need the password", async () => {
        const refused = await requestFailure(token().oauthAuthorizations.listAuthorizations());
        assert.deepEqual(
          [refused.status, refused.message],
          [403, "This API can only be accessed with username and password Basic Auth"],
        );
      });

      test("the client warned about deprecation only, not about the server's answers", () => {
        assert.ok(warnings.length > 0);
        for (const warning of warnings) assert.match(warning, /^Deprecation: \[@octokit\/rest\] .*deprecated/);
      });
    });

    describe("activity.* and issues.listEventsForRepo with a token", () => {
      for (const feed of FEEDS) {
        test(`${feed.operation}: the feed's first page, newest first`, async () => {
          const { status, data, headers } = await listFeed(token(), feed);
          assert.equal(status, 200);
          assert.deepEqual(ids(data as Json[] as { id: string }[]), feed.ids);
          assertSchema(feed.schema, data, feed.operation);
          assert.equal(headers["x-oauth-scopes"], "repo, user");
          for (const header of ["etag", "last-modified", "x-ratelimit-remaining", "x-poll-interval"])
            assert.ok(headers[header], header);
        });
      }

      test("octokit.paginate follows Link across a five-page feed", async () => {
        const octokit = token();
        const events = await octokit.paginate(
          octokit.activity.listRepoEvents.endpoint.merge({
            owner: PAGED.user,
            repo: PAGED.repo,
            per_page: PAGED.perPage,
          }),
        );
        assert.deepEqual(ids(events as { id: string }[]), PAGED.ids);
        const byRoute = await octokit.paginate("GET /repos/:owner/:repo/events", {
          owner: PAGED.user,
          repo: PAGED.repo,
          per_page: PAGED.perPage,
        });
        assert.deepEqual(ids(byRoute as { id: string }[]), PAGED.ids);
      });

      test("a conditional request with the feed's ETag is answered 304, free of rate limit", async () => {
        const octokit = token(BOB_TOKEN);
        const feed = { operation: "getFromRepo", params: { user: PAGED.user, repo: PAGED.repo } } as FeedCase;
        const first = await listFeed(octokit, feed);
        const notModified = await requestFailure(
          listFeed(octokit, feed, { headers: { "if-none-match": first.headers.etag } }),
        );
        assert.equal(notModified.status, 304);
        assert.equal(notModified.headers["x-ratelimit-remaining"], first.headers["x-ratelimit-remaining"]);
        assert.equal(notModified.headers.etag, first.headers.etag);
        const byDate = await requestFailure(
          listFeed(octokit, feed, { headers: { "if-modified-since": first.headers["last-modified"] } }),
        );
        assert.equal(byDate.status, 304);
      });

      test("another user's organization dashboard is 404", async () => {
        const refused = await requestFailure(
          listFeed(token(BOB_TOKEN), FEEDS.find((f) => f.operation === "getFromUserOrg")!),
        );
        assert.deepEqual([refused.status, refused.message], [404, "Not Found"]);
      });
    });
  });
