/**
 * node-github (`github@0.2.4`), the client this interface comes from, unmodified against a live feedgate.
 * It takes host, port and protocol rather than a base URL (index.js `httpSend`), sends `oauth` tokens as
 * `?access_token=`, reports the headers it knows in `meta`, pages through `Link` with hasNextPage/getNextPage
 * (which re-send the Link URL's query and add the credentials again), and fails with `code` = HTTP status.
 *
 * One quirk to know: it sends `Host` without the port, so the absolute URLs feedgate writes from the Host
 * header (`url`, `Location`, `Link`) name port 80 unless feedgate runs with --base-url. node-github itself only
 * reads the path and query of a Link URL, so its paging is unaffected; these tests do not look at hosts.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { startListeningApp, type ListeningApp } from "../helpers/listening-app.js";
import { failure } from "../helpers/failure.js";
import {
  ALICE,
  ALICE_PUBLIC_TOKEN,
  ALICE_TOKEN,
  BOB_TOKEN,
  HELLO_IDS,
  OLGA,
  OTP_SECRET,
  PRIVATE,
} from "../helpers/client-world.js";
import { currentOtp } from "../../src/server/services/credentials.js";
import { LAYOUTS, NodeGithub, PINNED, versions } from "./clients.js";
import { FEEDS, PAGED, ids } from "./feeds.js";
import { assertSchema } from "./schemas.js";

type Json = Record<string, unknown>;
// node-github's results: the parsed body with `meta` added (arrays get it as a property).
type Result = Json & { meta: Record<string, string> };
type Items = Json[] & { meta: Record<string, string> };
interface NodeGithubError {
  code: number;
  message: string;
}
/** A node-github instance: untyped CommonJS, its methods generated from its routes.json. */
// biome-ignore lint/suspicious/noExplicitAny: untyped CommonJS: its methods are made from its routes.json at run time
type Client = any;

const OTP_MESSAGE = "Must specify two-factor authentication OTP code.";

/** node-github's callback API as a promise. */
function call<T = Result>(
  method: (msg: Json, callback: (err: unknown, data: T) => void) => void,
  msg: Json = {},
): Promise<T> {
  return new Promise((resolve, reject) => method(msg, (err, data) => (err ? reject(err) : resolve(data))));
}

function page<T = Items>(
  client: Client,
  which: "getNextPage" | "getPreviousPage" | "getFirstPage" | "getLastPage",
  from: unknown,
) {
  return new Promise<T>((resolve, reject) =>
    client[which](from, (err: unknown, data: T) => (err ? reject(err) : resolve(data))),
  );
}

const isHttpError = (e: unknown): e is NodeGithubError =>
  typeof (e as Partial<NodeGithubError> | null)?.code === "number";

/** Rejects with node-github's HttpError carrying `code`; returns it with the body it carries as its message. */
async function httpFailure(promise: Promise<unknown>): Promise<{ code: number; body: Json }> {
  const error = await failure(promise, isHttpError, "an HttpError");
  return { code: error.code, body: JSON.parse(error.message) as Json };
}

for (const { name, prefix } of LAYOUTS)
  describe(`node-github 0.2.4 against feedgate${name}`, () => {
    let t: ListeningApp;
    const clients: Client[] = [];

    before(async () => {
      t = await startListeningApp();
    });
    after(() => t.close());

    /** A client configured as node-github wants it: protocol, host and port of the running feedgate, and its `pathPrefix`. */
    function client(): Client {
      const url = new URL(t.url);
      // `proxy: ""`: without it node-github sends everything through $HTTP_PROXY/$HTTPS_PROXY when they are set.
      const github = new NodeGithub({
        version: "3.0.0",
        protocol: "http",
        host: url.hostname,
        port: Number(url.port),
        proxy: "",
        ...(prefix ? { pathPrefix: prefix } : {}),
      });
      clients.push(github);
      return github;
    }
    const basic = (login = ALICE.login, password = ALICE.password) => {
      const github = client();
      github.authenticate({ type: "basic", username: login, password });
      return github;
    };
    const oauth = (token = ALICE_TOKEN) => {
      const github = client();
      github.authenticate({ type: "oauth", token });
      return github;
    };

    test("is the pinned version", () => {
      const { declared, installed } = versions("nodeGithub");
      assert.equal(declared, PINNED.nodeGithub.spec);
      assert.match(installed, PINNED.nodeGithub.version);
    });

    describe("authorization.* with basic auth", () => {
      test("create, get, getAll, update and delete, then get is 404 and the list no longer has it", async () => {
        const github = basic();
        const created = await call(github.authorization.create, {
          scopes: ["gist", "user:email"],
          note: "node-github",
          note_url: "https://example.com/ng",
        });
        assertSchema("authorization", created);
        assert.equal(created.meta.status, "201 Created");
        // node-github 0.2.4 sends Host without the port, so the Location it gets back has none.
        assert.match(
          created.meta.location!,
          new RegExp(`^http://127\\.0\\.0\\.1(:\\d+)?${prefix}/authorizations/${String(created.id)}$`),
        );
        assert.match(String(created.token), /^fgp_/);
        assert.deepEqual(created.scopes, ["gist", "user:email"]);
        for (const header of ["x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset"])
          assert.ok(created.meta[header], header);

        const got = await call(github.authorization.get, { id: created.id });
        assertSchema("authorization", got);
        assert.deepEqual(
          [got.id, got.token, got.note, got.note_url],
          [created.id, "", "node-github", "https://example.com/ng"],
        );
        assert.ok(got.meta.etag && got.meta["last-modified"]);

        const all = await call<Items>(github.authorization.getAll, { per_page: 100 });
        assertSchema("authorization", [...all]);
        assert.ok(ids(all).includes(String(created.id)));

        const updated = await call(github.authorization.update, {
          id: created.id,
          remove_scopes: ["gist"],
          note: "node-github, renamed",
        });
        assertSchema("authorization", updated);
        assert.deepEqual(
          [updated.scopes, updated.note, updated.note_url],
          [["user:email"], "node-github, renamed", "https://example.com/ng"],
        );
        const added = await call(github.authorization.update, { id: created.id, add_scopes: ["repo"] });
        assert.deepEqual(added.scopes, ["user:email", "repo"]);

        const deleted = await call(github.authorization.delete, { id: created.id });
        assert.equal(deleted.meta.status, "204 No Content");
        const gone = await httpFailure(call(github.authorization.get, { id: created.id }));
        assert.deepEqual([gone.code, gone.body.message], [404, "Not Found"]);
        assert.ok(!ids(await call<Items>(github.authorization.getAll, { per_page: 100 })).includes(String(created.id)));
      });

      test("getAll pages with hasNextPage/getNextPage", async () => {
        const github = basic();
        const everything = ids(await call<Items>(github.authorization.getAll, { per_page: 100 }));
        assert.ok(everything.length >= 2, "alice has more than one authorization");
        let current = await call<Items>(github.authorization.getAll, { per_page: 1 });
        const seen = ids(current);
        while (github.hasNextPage(current)) {
          current = await page(github, "getNextPage", current);
          seen.push(...ids(current));
        }
        assert.deepEqual(seen, everything);
      });

      test("a two-factor user is asked for the code (401) and succeeds with X-GitHub-OTP", async () => {
        const github = basic(OLGA.login, OLGA.password);
        const challenged = await httpFailure(call(github.authorization.getAll));
        assert.deepEqual([challenged.code, challenged.body.message], [401, OTP_MESSAGE]);
        const otp = currentOtp(OTP_SECRET, t.clock.now());
        const created = await call(github.authorization.create, {
          note: "olga via node-github",
          headers: { "X-GitHub-OTP": otp },
        });
        assert.equal(created.meta.status, "201 Created");
        const all = await call<Items>(github.authorization.getAll, { headers: { "X-GitHub-OTP": otp } });
        assert.deepEqual(ids(all), [String(created.id)]);
      });

      test("a wrong password is 401 and a token is 403: authorizations need the password", async () => {
        assert.equal((await httpFailure(call(basic(ALICE.login, "wrong").authorization.getAll))).code, 401);
        const refused = await httpFailure(call(oauth().authorization.getAll));
        assert.deepEqual(
          [refused.code, refused.body.message],
          [403, "This API can only be accessed with username and password Basic Auth"],
        );
      });
    });

    for (const auth of ["basic", "oauth"] as const) {
      describe(`events.* with ${auth} auth`, () => {
        const github = () => (auth === "basic" ? basic() : oauth());

        for (const feed of FEEDS) {
          test(`${feed.operation} lists the feed, newest first, with its meta headers`, async () => {
            const result = await call<Items>(github().events[feed.operation], { ...feed.params });
            assert.deepEqual(ids(result), feed.ids);
            assertSchema(feed.schema, [...result], feed.operation);
            const meta = result.meta;
            for (const header of [
              "x-ratelimit-limit",
              "x-ratelimit-remaining",
              "x-ratelimit-reset",
              "etag",
              "last-modified",
              "status",
            ]) {
              assert.ok(meta[header], `meta.${header}`);
            }
            assert.equal(meta.status, "200 OK");
            // GitHub reports a token's scopes on token-authenticated responses only (wire notes 3.3).
            assert.equal(meta["x-oauth-scopes"], auth === "oauth" ? "repo, user" : undefined);
          });
        }

        test("hasNextPage/getNextPage walk a five-page feed to its end; last, previous and first pages follow Link", async () => {
          const client = github();
          let current = await call<Items>(client.events.getFromRepo, {
            user: PAGED.user,
            repo: PAGED.repo,
            per_page: PAGED.perPage,
          });
          const seen = ids(current);
          let pages = 1;
          while (client.hasNextPage(current)) {
            current = await page(client, "getNextPage", current);
            seen.push(...ids(current));
            pages += 1;
          }
          assert.equal(pages, 5);
          assert.deepEqual(seen, PAGED.ids);
          assert.ok(!client.hasNextPage(current) && client.hasPreviousPage(current) && client.hasFirstPage(current));

          const fourth = await page(client, "getPreviousPage", current);
          assert.deepEqual(ids(fourth), PAGED.ids.slice(30, 40));
          assert.deepEqual(ids(await page(client, "getFirstPage", fourth)), PAGED.ids.slice(0, 10));
          assert.deepEqual(ids(await page(client, "getLastPage", fourth)), PAGED.ids.slice(40));
        });

        test("a private repository's events are listed for its owner", async () => {
          const result = await call<Items>(github().events.getFromRepo, { user: "alice", repo: "secret" });
          assert.deepEqual(ids(result), [PRIVATE.id]);
        });

        test("an unchanged feed sent back its ETag answers 304, which node-github reports in meta.status", async () => {
          const client = github();
          const first = await call<Items>(client.events.getFromRepo, { user: PAGED.user, repo: PAGED.repo });
          const again = await call(client.events.getFromRepo, {
            user: PAGED.user,
            repo: PAGED.repo,
            headers: { "If-None-Match": first.meta.etag },
          });
          assert.equal(again.meta.status, "304 Not Modified");
          assert.equal(again.meta["x-ratelimit-remaining"], first.meta["x-ratelimit-remaining"], "a 304 is free");
        });
      });
    }

    describe("errors carry the HTTP status as code", () => {
      test("another user's organization dashboard is 404", async () => {
        const refused = await httpFailure(call(oauth(BOB_TOKEN).events.getFromUserOrg, { user: "alice", org: "acme" }));
        assert.deepEqual([refused.code, refused.body.message], [404, "Not Found"]);
      });

      test("a private repository is 404 to a token without repo scope and to anonymous callers", async () => {
        assert.equal(
          (await httpFailure(call(oauth(ALICE_PUBLIC_TOKEN).events.getFromRepo, { user: "alice", repo: "secret" })))
            .code,
          404,
        );
        assert.equal(
          (await httpFailure(call(client().events.getFromRepo, { user: "alice", repo: "secret" }))).code,
          404,
        );
      });

      test("unknown users, organizations and repositories are 404", async () => {
        const github = oauth();
        assert.equal((await httpFailure(call(github.events.getFromUser, { user: "nobody" }))).code, 404);
        assert.equal((await httpFailure(call(github.events.getFromOrg, { org: "no-such-org" }))).code, 404);
        assert.equal(
          (await httpFailure(call(github.events.getFromRepo, { user: "alice", repo: "nothing" }))).code,
          404,
        );
      });

      test("anonymous callers get the public feeds", async () => {
        const result = await call<Items>(client().events.getFromUserPublic, { user: "alice" });
        assert.deepEqual(ids(result), HELLO_IDS.slice(1, 31));
        assert.equal(result.meta["x-oauth-scopes"], undefined);
      });
    });
  });
