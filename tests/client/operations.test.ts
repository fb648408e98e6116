/**
 * Every SDK operation against a real feedgate listening on a port, over real HTTP: the authorization
 * lifecycle of spec 4.1 (rules 1-3), every feed of spec 4.2 with its visibility, results' `meta`, and
 * server failures as HttpError with the request redacted.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { endpoints } from "../../src/api/endpoints.js";
import { Client, HttpError, type Params } from "../../src/client/index.js";
import { startListeningApp, type ListeningApp } from "../helpers/listening-app.js";
import { currentOtp } from "../../src/server/services/credentials.js";
import {
  ALICE,
  OLGA,
  OTP_SECRET,
  ALICE_PUBLIC_TOKEN,
  ALICE_TOKEN,
  BOB_TOKEN,
  HELLO_IDS,
  HELLO_PUSHES,
  ORG_EVENT,
  PRIVATE,
  BOB_EVENT,
  FORK,
} from "../helpers/client-world.js";

const ids = (events: readonly { id: string }[]) => events.map((e) => e.id);

describe("SDK operations against a listening feedgate", () => {
  let t: ListeningApp;
  let alice: Client;
  before(async () => {
    t = await startListeningApp();
    alice = new Client({
      baseUrl: t.url,
      version: "3.0.0",
      auth: { type: "basic", username: ALICE.login, password: ALICE.password },
    });
  });
  after(() => t.close());

  describe("authorizations", () => {
    let created: { id: string; token: string };

    test("an expiring token's requests carry its expiry in meta, as GitHub's header says it; every answer names its version", async () => {
      const expiring = await alice.authorization.create({
        note: "expiring via sdk",
        expires_at: "2026-02-14T10:00:00Z",
      });
      assert.equal(expiring.data.expires_at, "2026-02-14T10:00:00Z");
      assert.equal(expiring.meta["x-github-api-version-selected"], "2022-11-28");
      const client = new Client({
        baseUrl: t.url,
        version: "3.0.0",
        auth: { type: "oauth", token: expiring.data.token },
      });
      const me = await client.users.getAuthenticated();
      assert.equal(me.meta["github-authentication-token-expiration"], "2026-02-14 10:00:00 UTC");
      assert.equal(
        (await alice.users.getAuthenticated()).meta["github-authentication-token-expiration"],
        undefined,
        "a password does not expire",
      );
      await alice.authorization.delete({ id: expiring.data.id });
    });

    test("create returns the new authorization with its token, status 201 and Location in meta", async () => {
      const result = await alice.authorization.create({
        scopes: ["repo", "gist"],
        note: "sdk test",
        note_url: "https://app.example",
      });
      assert.equal(result.status, 201);
      assert.equal(result.notModified, false);
      assert.deepEqual(result.data.scopes, ["repo", "gist"]);
      assert.match(result.data.token, /^fgp_/);
      assert.equal(result.meta.location, result.data.url);
      assert.equal(result.meta.status, "201 Created");
      assert.ok(
        result.meta["x-ratelimit-limit"] && result.meta["x-ratelimit-remaining"] && result.meta["x-ratelimit-reset"],
      );
      created = { id: result.data.id, token: result.data.token };
    });

    test("get by the returned id returns the same id, note and note_url (rule 1), with etag and last-modified", async () => {
      const { data, meta } = await alice.authorization.get({ id: created.id });
      assert.deepEqual(
        [data.id, data.note, data.note_url, data.token],
        [created.id, "sdk test", "https://app.example", ""],
      );
      assert.match(meta.etag ?? "", /^"[0-9a-f]{64}"$/);
      assert.ok(meta["last-modified"]);
    });

    test("getAll lists it", async () => {
      const { data } = await alice.authorization.getAll({ per_page: 100 });
      assert.ok(ids(data).includes(created.id));
    });

    test("update with remove_scopes drops the scope and sets the note; note_url is unchanged (rule 2)", async () => {
      const updated = await alice.authorization.update({ id: created.id, remove_scopes: ["gist"], note: "renamed" });
      assert.deepEqual(updated.data.scopes, ["repo"]);
      const { data } = await alice.authorization.get({ id: created.id });
      assert.deepEqual([data.scopes, data.note, data.note_url], [["repo"], "renamed", "https://app.example"]);
    });

    test("update with add_scopes and with scopes, and create with null note_url", async () => {
      assert.deepEqual((await alice.authorization.update({ id: created.id, add_scopes: ["user"] })).data.scopes, [
        "repo",
        "user",
      ]);
      assert.deepEqual((await alice.authorization.update({ id: created.id, scopes: ["gist"] })).data.scopes, ["gist"]);
      const other = await alice.authorization.create({ note: "no url", note_url: null });
      assert.equal(other.data.note_url, null);
      await alice.authorization.delete({ id: other.data.id });
    });

    test("the created token reads feeds and its scopes come back in x-oauth-scopes", async () => {
      const reader = new Client({ baseUrl: t.url, version: "3.0.0", auth: { type: "oauth", token: created.token } });
      const { meta } = await reader.events.get({ per_page: 1 });
      assert.equal(meta["x-oauth-scopes"], "gist");
    });

    test("delete answers 204 with no data; get then fails with 404 and the list no longer has it (rule 3)", async () => {
      const deleted = await alice.authorization.delete({ id: created.id });
      assert.equal(deleted.status, 204);
      assert.equal(deleted.data, undefined);
      const error = await alice.authorization.get({ id: created.id }).then(
        () => null,
        (e: unknown) => e,
      );
      assert.ok(error instanceof HttpError);
      assert.equal(error.code, 404);
      assert.equal(error.status, 404);
      assert.equal(error.message, "Not Found");
      assert.equal(error.documentationUrl, "https://developer.github.com/v3");
      assert.equal(error.headers["content-type"], "application/json; charset=utf-8");
      assert.ok(error.meta["x-ratelimit-remaining"]);
      assert.equal(error.request.method, "GET");
      assert.equal(error.request.url, `${t.url}/authorizations/${created.id}`);
      assert.equal(error.request.headers.authorization, "Basic [REDACTED]");
      assert.ok(!JSON.stringify(error.request).includes(btoa(`${ALICE.login}:${ALICE.password}`)));
      assert.ok(!ids((await alice.authorization.getAll({ per_page: 100 })).data).includes(created.id));
    });

    test("a 422 carries GitHub's errors entries", async () => {
      const error = await alice.authorization.create({ scopes: ["nope"], note: "bad" }).then(
        () => null,
        (e: unknown) => e,
      );
      assert.ok(error instanceof HttpError);
      assert.equal(error.code, 422);
      assert.equal(error.message, "Validation Failed");
      assert.equal(error.errors?.[0]?.message, "scopes are invalid: nope");
      assert.deepEqual(error.request.body, { scopes: ["nope"], note: "bad" });
    });

    test("a token is refused on authorizations with GitHub's 403 message", async () => {
      const byToken = new Client({ baseUrl: t.url, version: "3.0.0", auth: { type: "oauth", token: ALICE_TOKEN } });
      const error = await byToken.authorization.getAll().then(
        () => null,
        (e: unknown) => e,
      );
      assert.ok(error instanceof HttpError);
      assert.equal(error.code, 403);
      assert.equal(error.message, "This API can only be accessed with username and password Basic Auth");
      assert.equal(error.request.headers.authorization, "token [REDACTED]");
    });

    test("anonymous callers get 401 Requires authentication", async () => {
      const anonymous = new Client({ baseUrl: t.url, version: "3.0.0" });
      const error = await anonymous.authorization.getAll().then(
        () => null,
        (e: unknown) => e,
      );
      assert.ok(error instanceof HttpError);
      assert.equal(error.code, 401);
      assert.equal(error.message, "Requires authentication");
      assert.equal(error.request.headers.authorization, undefined);
    });
  });

  describe("event feeds", () => {
    const HELLO = { user: "alice", repo: "hello" };
    const helloPushIds = ids(HELLO_PUSHES).reverse();
    type Case = { params: Record<string, string>; token?: string; expected: string[] };
    // One case per feed; the test below checks the list covers the endpoint table.
    const CASES: Record<keyof typeof endpoints.events, Case> = {
      get: { params: {}, expected: [BOB_EVENT.id, ORG_EVENT.id, ...HELLO_IDS] },
      getFromRepo: { params: HELLO, expected: HELLO_IDS },
      getFromRepoIssues: { params: HELLO, expected: ["13", "12", "11"] },
      getFromRepoNetwork: { params: HELLO, expected: HELLO_IDS },
      getFromOrg: { params: { org: "acme" }, expected: [ORG_EVENT.id] },
      getReceived: { params: { user: "alice" }, token: ALICE_TOKEN, expected: [BOB_EVENT.id, FORK.id] },
      getReceivedPublic: { params: { user: "alice" }, expected: [BOB_EVENT.id, FORK.id] },
      getFromUser: { params: { user: "alice" }, token: ALICE_TOKEN, expected: [PRIVATE.id, ...helloPushIds] },
      getFromUserPublic: { params: { user: "alice" }, token: ALICE_TOKEN, expected: helloPushIds },
      getFromUserOrg: { params: { user: "olga", org: "acme" }, token: undefined, expected: [ORG_EVENT.id] },
    };

    test("the cases cover every feed of the endpoint table", () => {
      assert.deepEqual(Object.keys(CASES).sort(), Object.keys(endpoints.events).sort());
    });

    for (const [name, c] of Object.entries(CASES)) {
      test(`events.${name} lists its events newest first, each with string id, created_at and an actor`, async () => {
        const client = new Client({ baseUrl: t.url, version: "3.0.0" });
        if (c.token) client.authenticate({ type: "oauth", token: c.token });
        // olga's dashboard needs olga: a password login works for feeds too, her one-time code sent up front.
        if (name === "getFromUserOrg") {
          client.authenticate({
            type: "basic",
            username: OLGA.login,
            password: OLGA.password,
            otp: currentOtp(OTP_SECRET, t.clock.now()),
          });
        }
        const operation = client.events[name as keyof typeof endpoints.events] as unknown as typeof client.events.get;
        const result = await operation({ ...c.params, per_page: 100 } as Params<typeof endpoints.events.get>);
        assert.equal(result.status, 200);
        assert.deepEqual(ids(result.data), c.expected);
        for (const item of result.data) {
          assert.equal(typeof item.id, "string");
          assert.equal(typeof item.created_at, "string");
          assert.equal(typeof item.actor, "object");
        }
        assert.match(result.meta.etag ?? "", /^"/);
        if (name !== "getFromRepoIssues") assert.equal(result.meta["x-poll-interval"], "60");
      });
    }

    test("the repository feed's events each have a type, and ForkEvent is one of them (spec 4.2 rule 2)", async () => {
      const { data } = await new Client({ baseUrl: t.url, version: "3.0.0" }).events.getFromRepo({
        ...HELLO,
        per_page: 100,
      });
      assert.ok(data.every((e) => typeof e.type === "string" && e.repo.name === "alice/hello"));
      assert.equal(data[0]!.type, "ForkEvent");
    });

    test("issue events carry event, and issue title, number and state", async () => {
      const { data } = await new Client({ baseUrl: t.url, version: "3.0.0" }).events.getFromRepoIssues(HELLO);
      assert.deepEqual(
        data.map((e) => [e.event, e.issue.number, e.issue.state]),
        [
          ["referenced", 3, "closed"],
          ["referenced", 2, "closed"],
          ["referenced", 1, "closed"],
        ],
      );
    });

    test("private events need a token that may read them", async () => {
      const publicOnly = new Client({
        baseUrl: t.url,
        version: "3.0.0",
        auth: { type: "oauth", token: ALICE_PUBLIC_TOKEN },
      });
      const { data } = await publicOnly.events.getFromUser({ user: "alice", per_page: 100 });
      assert.ok(!ids(data).includes(PRIVATE.id));
    });

    test("another user's organization dashboard fails with 404 (spec 4.2 rule 3)", async () => {
      const bob = new Client({ baseUrl: t.url, version: "3.0.0", auth: { type: "oauth", token: BOB_TOKEN } });
      const error = await bob.events.getFromUserOrg({ user: "alice", org: "acme" }).then(
        () => null,
        (e: unknown) => e,
      );
      assert.ok(error instanceof HttpError);
      assert.equal(error.code, 404);
      assert.equal(error.request.url, `${t.url}/users/alice/events/orgs/acme`);
      assert.equal(error.request.headers.authorization, "token [REDACTED]");
      assert.ok(!JSON.stringify(error).includes(BOB_TOKEN));
    });

    test("an unknown repository is 404; path parameters are encoded, not interpreted", async () => {
      const client = new Client({ baseUrl: t.url, version: "3.0.0" });
      for (const params of [
        { user: "alice", repo: "nope" },
        { user: "alice/hello", repo: "x" },
        { user: "..", repo: "$&" },
      ]) {
        const error = await client.events.getFromRepo(params).then(
          () => null,
          (e: unknown) => e,
        );
        assert.ok(error instanceof HttpError, JSON.stringify(params));
        assert.equal(error.code, 404);
      }
    });
  });

  describe("credentials", () => {
    test("credentials.revoke without auth: 202 with {}, and the revoked token fails with 401 from then on", async () => {
      const created = await alice.authorization.create({ note: "leaked via sdk" });
      const holder = new Client({
        baseUrl: t.url,
        version: "3.0.0",
        auth: { type: "oauth", token: created.data.token },
      });
      assert.equal((await holder.users.getAuthenticated()).status, 200);
      const result = await new Client({ baseUrl: t.url, version: "3.0.0" }).credentials.revoke({
        credentials: [created.data.token],
      });
      assert.equal(result.status, 202);
      assert.deepEqual(result.data, {});
      const error = await holder.users.getAuthenticated().then(
        () => null,
        (e: unknown) => e,
      );
      assert.ok(error instanceof HttpError);
      assert.equal(error.code, 401);
    });

    test("credentials.revoke from a client with auth fails with 403", async () => {
      const error = await alice.credentials.revoke({ credentials: ["x"] }).then(
        () => null,
        (e: unknown) => e,
      );
      assert.ok(error instanceof HttpError);
      assert.equal(error.code, 403);
    });
  });
});
