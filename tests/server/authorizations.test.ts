import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { basic, startTestApp, type TestApp } from "../helpers/test-app.js";

const ALICE = basic("alice", "alice-password");
const BOB = basic("bob", "bob-password");
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

describe("authorizations API", () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ baseUrl: "https://feedgate.example" });
    await t.createUser("alice", "alice-password");
    await t.createUser("bob", "bob-password");
  });
  after(() => t.close());

  const create = (payload: object, authorization = ALICE) =>
    t.app.inject({ method: "POST", url: "/authorizations", headers: { authorization }, payload });
  const get = (id: string, authorization = ALICE) =>
    t.app.inject({ method: "GET", url: `/authorizations/${id}`, headers: { authorization } });
  const list = (authorization = ALICE, query = "") =>
    t.app.inject({ method: "GET", url: `/authorizations${query}`, headers: { authorization } });

  test("create answers 201 with Location and the only full token, in GitHub's object shape", async () => {
    const res = await create({ scopes: ["repo"], note: "deploy", note_url: "https://ci.example/deploy" });
    assert.equal(res.statusCode, 201);
    assert.equal(res.headers.status, "201 Created");
    const body = res.json();
    assert.equal(res.headers.location, `https://feedgate.example/authorizations/${body.id}`);
    assert.deepEqual(Object.keys(body), [
      "id",
      "url",
      "app",
      "token",
      "hashed_token",
      "token_last_eight",
      "note",
      "note_url",
      "created_at",
      "updated_at",
      "scopes",
      "fingerprint",
      "expires_at",
    ]);
    assert.equal(typeof body.id, "string");
    assert.equal(body.url, res.headers.location);
    assert.deepEqual(body.app, {
      name: "deploy",
      url: "https://developer.github.com/v3/oauth_authorizations/",
      client_id: "00000000000000000000",
    });
    assert.match(body.token, /^fgp_[0-9A-Za-z]{36}$/);
    assert.equal(body.hashed_token, createHash("sha256").update(body.token).digest("hex"));
    assert.equal(body.token_last_eight, body.token.slice(-8));
    assert.equal(body.note, "deploy");
    assert.equal(body.note_url, "https://ci.example/deploy");
    assert.match(body.created_at, TIMESTAMP);
    assert.match(body.updated_at, TIMESTAMP);
    assert.deepEqual(body.scopes, ["repo"]);
    assert.equal(body.fingerprint, null);
    assert.equal(body.expires_at, null);
  });

  test("create with no body gives empty scopes and null note, note_url and fingerprint", async () => {
    const res = await t.app.inject({ method: "POST", url: "/authorizations", headers: { authorization: ALICE } });
    assert.equal(res.statusCode, 201);
    const body = res.json();
    assert.deepEqual(body.scopes, []);
    assert.equal(body.note, null);
    assert.equal(body.note_url, null);
    assert.equal(body.fingerprint, null);
  });

  test("notes need not be unique", async () => {
    assert.equal((await create({ note: "same" })).statusCode, 201);
    assert.equal((await create({ note: "same" })).statusCode, 201);
  });

  test("scopes are stored normalized: duplicates and implied scopes are dropped", async () => {
    const res = await create({ scopes: ["user", "gist", "user:email", "gist", "public_repo", "repo"], note: "n" });
    assert.deepEqual(res.json().scopes, ["user", "gist", "repo"]);
  });

  test("an unknown scope is 422 with GitHub's custom error and creates nothing", async () => {
    const before = (await list(ALICE, "?per_page=100")).json().length;
    const res = await create({ scopes: ["repo", "bogus", "admin:everything"], note: "n" });
    assert.equal(res.statusCode, 422);
    assert.deepEqual(res.json(), {
      message: "Validation Failed",
      documentation_url: "https://developer.github.com/v3/oauth_authorizations/#create-a-new-authorization",
      errors: [
        {
          resource: "OauthAccess",
          field: "scopes",
          code: "custom",
          message: "scopes are invalid: bogus,admin:everything",
        },
      ],
    });
    assert.equal((await list(ALICE, "?per_page=100")).json().length, before);
  });

  test("an application client_id is refused, since feedgate has no OAuth applications", async () => {
    const res = await create({ client_id: "abcdefabcdefabcdefab", client_secret: "x".repeat(40), note: "n" });
    assert.equal(res.statusCode, 422);
    assert.equal(res.json().message, "Invalid OAuth application client_id or secret.");
  });

  test("rule 1: GET by the returned id returns the same id, note and note_url, and token is blank", async () => {
    const created = (await create({ note: "rule one", note_url: "https://one.example" })).json();
    const res = await get(created.id);
    assert.equal(res.statusCode, 200);
    const body = res.json();
    assert.equal(body.id, created.id);
    assert.equal(body.note, "rule one");
    assert.equal(body.note_url, "https://one.example");
    assert.equal(body.token, "");
    assert.equal(body.hashed_token, created.hashed_token);
    assert.equal(res.headers["last-modified"], new Date(t.clock.current).toUTCString());
    assert.match(String(res.headers.etag), /^"[0-9a-f]{64}"$/);
  });

  test("rule 2: remove_scopes drops the scope, note changes, note_url is kept, updated_at moves", async () => {
    const created = (
      await create({ scopes: ["repo", "gist", "user"], note: "before", note_url: "https://keep.example" })
    ).json();
    t.clock.advance(5 * 1000);
    const res = await t.app.inject({
      method: "PATCH",
      url: `/authorizations/${created.id}`,
      headers: { authorization: ALICE },
      payload: { remove_scopes: ["gist"], note: "after" },
    });
    assert.equal(res.statusCode, 200);
    assert.equal(res.json().token, "");
    const body = (await get(created.id)).json();
    assert.deepEqual(body.scopes, ["repo", "user"]);
    assert.equal(body.note, "after");
    assert.equal(body.note_url, "https://keep.example");
    assert.equal(body.created_at, created.created_at);
    assert.notEqual(body.updated_at, created.updated_at);
  });

  test("update with scopes replaces them and with add_scopes adds them, normalized", async () => {
    const { id } = (await create({ scopes: ["gist"], note: "n" })).json();
    const patch = (payload: object) =>
      t.app.inject({ method: "PATCH", url: `/authorizations/${id}`, headers: { authorization: ALICE }, payload });
    assert.deepEqual((await patch({ scopes: ["read:org", "user"] })).json().scopes, ["read:org", "user"]);
    assert.deepEqual((await patch({ add_scopes: ["admin:org", "gist"] })).json().scopes, ["user", "admin:org", "gist"]);
  });

  test("update with only note leaves scopes, note_url and fingerprint as they were", async () => {
    const created = (
      await create({ scopes: ["repo"], note: "n", note_url: "https://u.example", fingerprint: "fp-1" })
    ).json();
    const res = await t.app.inject({
      method: "PATCH",
      url: `/authorizations/${created.id}`,
      headers: { authorization: ALICE },
      payload: { note: "renamed" },
    });
    const body = res.json();
    assert.deepEqual(
      [body.scopes, body.note, body.note_url, body.fingerprint],
      [["repo"], "renamed", "https://u.example", "fp-1"],
    );
  });

  test("update accepts null to clear note_url", async () => {
    const { id } = (await create({ note: "n", note_url: "https://u.example" })).json();
    const res = await t.app.inject({
      method: "PATCH",
      url: `/authorizations/${id}`,
      headers: { authorization: ALICE },
      payload: { note_url: null },
    });
    assert.equal(res.json().note_url, null);
  });

  test("update with more than one scope key is 422 and changes nothing", async () => {
    const created = (await create({ scopes: ["gist"], note: "n" })).json();
    const res = await t.app.inject({
      method: "PATCH",
      url: `/authorizations/${created.id}`,
      headers: { authorization: ALICE },
      payload: { scopes: ["repo"], add_scopes: ["user"], note: "changed" },
    });
    assert.equal(res.statusCode, 422);
    assert.equal(res.json().errors[0].field, "scopes");
    assert.equal(res.json().errors[0].code, "invalid");
    const after = (await get(created.id)).json();
    assert.deepEqual([after.scopes, after.note], [["gist"], "n"]);
  });

  test("update with an unknown scope in add_scopes is 422 and changes nothing", async () => {
    const created = (await create({ scopes: ["gist"], note: "n" })).json();
    const res = await t.app.inject({
      method: "PATCH",
      url: `/authorizations/${created.id}`,
      headers: { authorization: ALICE },
      payload: { add_scopes: ["nope"], note: "changed" },
    });
    assert.equal(res.statusCode, 422);
    assert.equal(res.json().errors[0].message, "scopes are invalid: nope");
    assert.equal((await get(created.id)).json().note, "n");
  });

  test("POST to an authorization id updates it, as GitHub allows for clients without PATCH", async () => {
    const { id } = (await create({ note: "n" })).json();
    const res = await t.app.inject({
      method: "POST",
      url: `/authorizations/${id}`,
      headers: { authorization: ALICE },
      payload: { note: "via post" },
    });
    assert.equal(res.statusCode, 200);
    assert.equal(res.json().note, "via post");
  });

  test("rule 3: after delete, GET is 404, the list no longer has it, and its token stops working at once", async () => {
    const created = (await create({ scopes: ["repo"], note: "doomed" })).json();
    const tokenCall = () =>
      t.app.inject({ method: "GET", url: "/nowhere", headers: { authorization: `token ${created.token}` } });
    assert.equal((await tokenCall()).statusCode, 404); // authenticated, unknown route
    const res = await t.app.inject({
      method: "DELETE",
      url: `/authorizations/${created.id}`,
      headers: { authorization: ALICE },
    });
    assert.equal(res.statusCode, 204);
    assert.equal(res.body, "");
    assert.equal(res.headers.status, "204 No Content");
    const gone = await get(created.id);
    assert.equal(gone.statusCode, 404);
    assert.deepEqual(gone.json(), { message: "Not Found", documentation_url: "https://developer.github.com/v3" });
    const ids = (await list(ALICE, "?per_page=100")).json().map((a: { id: string }) => a.id);
    assert.ok(!ids.includes(created.id));
    const refused = await tokenCall();
    assert.equal(refused.statusCode, 401);
    assert.equal(refused.json().message, "Bad credentials");
    assert.equal(
      (
        await t.app.inject({
          method: "DELETE",
          url: `/authorizations/${created.id}`,
          headers: { authorization: ALICE },
        })
      ).statusCode,
      404,
    );
  });

  test("another user's authorization is 404 for get, update and delete, and stays intact", async () => {
    const created = (await create({ scopes: ["repo"], note: "alice's" })).json();
    assert.equal((await get(created.id, BOB)).statusCode, 404);
    const patch = await t.app.inject({
      method: "PATCH",
      url: `/authorizations/${created.id}`,
      headers: { authorization: BOB },
      payload: { note: "stolen" },
    });
    assert.equal(patch.statusCode, 404);
    const del = await t.app.inject({
      method: "DELETE",
      url: `/authorizations/${created.id}`,
      headers: { authorization: BOB },
    });
    assert.equal(del.statusCode, 404);
    assert.equal((await get(created.id)).json().note, "alice's");
    const bobsIds = (await list(BOB)).json().map((a: { id: string }) => a.id);
    assert.ok(!bobsIds.includes(created.id));
  });

  for (const id of ["999999", "abc", "0", "1.5", "-1", "99999999999999999999"]) {
    test(`unknown or malformed id ${JSON.stringify(id)} is 404`, async () => {
      const res = await get(id);
      assert.equal(res.statusCode, 404);
      assert.equal(res.json().message, "Not Found");
    });
  }

  test("the list is the caller's own, oldest first, every token blank, paged with Link", async () => {
    const carol = await t.createUser("carol", "carol-password");
    const CAROL = basic("carol", "carol-password");
    for (let i = 1; i <= 5; i++) await create({ note: `c${i}` }, CAROL);
    const first = await list(CAROL, "?per_page=2");
    assert.equal(first.statusCode, 200);
    assert.deepEqual(
      first.json().map((a: { note: string }) => a.note),
      ["c1", "c2"],
    );
    assert.ok(first.json().every((a: { token: string }) => a.token === ""));
    assert.equal(
      first.headers.link,
      '<https://feedgate.example/authorizations?per_page=2&page=2>; rel="next", ' +
        '<https://feedgate.example/authorizations?per_page=2&page=3>; rel="last"',
    );
    const last = await list(CAROL, "?per_page=2&page=3");
    assert.deepEqual(
      last.json().map((a: { note: string }) => a.note),
      ["c5"],
    );
    assert.equal(
      last.headers.link,
      '<https://feedgate.example/authorizations?per_page=2&page=2>; rel="prev", ' +
        '<https://feedgate.example/authorizations?per_page=2&page=1>; rel="first"',
    );
    assert.equal((await list(CAROL)).headers.link, undefined);
    assert.ok(carol.id > 0);
  });
});
