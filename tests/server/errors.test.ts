import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import type { InjectOptions, LightMyRequestResponse } from "fastify";
import { basic, startTestApp, type TestApp } from "../helpers/test-app.js";
import type { UserRow } from "../../src/server/store/store.js";
import type { ErrorBody } from "../../src/api/schemas.js";

const ALICE = basic("alice", "alice-password");
const CREATE_DOCS = "https://developer.github.com/v3/oauth_authorizations/#create-a-new-authorization";
const UPDATE_DOCS = "https://developer.github.com/v3/oauth_authorizations/#update-an-existing-authorization";
const NOT_FOUND = { message: "Not Found", documentation_url: "https://developer.github.com/v3" };

/** GitHub's error body (wire notes 3.4): message and documentation_url, plus errors on a 422, and nothing else. */
function assertErrorShape(res: LightMyRequestResponse, status: number): ErrorBody {
  assert.ok(res.statusCode < 500, `no input may cause a ${res.statusCode}: ${res.body}`);
  assert.equal(res.statusCode, status, res.body);
  assert.match(String(res.headers["content-type"]), /^application\/json/);
  const body = res.json();
  const keys = status === 422 ? ["documentation_url", "errors", "message"] : ["documentation_url", "message"];
  assert.deepEqual(Object.keys(body).sort(), keys);
  assert.equal(typeof body.message, "string");
  assert.match(body.documentation_url, /^https:\/\/developer\.github\.com\/v3/);
  return body;
}

describe("bad input gets a GitHub-shaped error and changes nothing", () => {
  let t: TestApp;
  let alice: UserRow;
  let existingId: string;
  before(async () => {
    t = await startTestApp();
    alice = await t.createUser("alice", "alice-password");
    existingId = (await t.createToken(alice, ["gist"], "existing")).id;
  });
  after(() => t.close());

  const stored = () => t.store.authorizations.list(alice.id, { limit: 1000, offset: 0 });

  /** Sends the request, checks the error's status, shape and message, and that the store is as it was. */
  async function refused(request: InjectOptions, status: number, message: string) {
    const before = await stored();
    const res = await t.app.inject(request);
    const body = assertErrorShape(res, status);
    assert.equal(body.message, message);
    assert.deepEqual(await stored(), before, "a refused request must not change stored authorizations");
    return body;
  }

  /** The writes that take a body: create, update, and update through POST. */
  const writes = () =>
    [
      { name: "create", method: "POST", url: "/authorizations", docs: CREATE_DOCS },
      { name: "update", method: "PATCH", url: `/authorizations/${existingId}`, docs: UPDATE_DOCS },
      { name: "update via POST", method: "POST", url: `/authorizations/${existingId}`, docs: UPDATE_DOCS },
    ] as const;

  const send = (method: "POST" | "PATCH", url: string, payload: string, contentType?: string): InjectOptions => ({
    method,
    url,
    payload,
    headers: { authorization: ALICE, ...(contentType ? { "content-type": contentType } : {}) },
  });

  const unparseable = [
    "{",
    '{"note": "x"',
    "{'note': 'x'}",
    '{"note": "x",}',
    "note=x&scopes=repo",
    "{} {}",
    "NaN",
    "undefined",
  ];
  const contentTypes = ["application/json", "text/plain", "application/x-www-form-urlencoded", undefined];

  for (const contentType of contentTypes) {
    test(`unparseable JSON is 400 "Problems parsing JSON" with ${contentType ?? "no"} Content-Type`, async () => {
      for (const target of writes()) {
        for (const payload of unparseable) {
          const body = await refused(
            send(target.method, target.url, payload, contentType),
            400,
            "Problems parsing JSON",
          );
          assert.equal(body.documentation_url, target.docs);
        }
      }
    });
  }

  test('a body that is not valid UTF-8 is 400 "Problems parsing JSON", never stored with U+FFFD', async () => {
    const invalid = [
      [0xff, 0xfe, 0xc3, 0x28], // {"note":"\xff\xfe\xc3("}: the report
      [0xc0, 0xaf], // an overlong encoding of "/"
      [0xed, 0xa0, 0x80], // a UTF-16 surrogate
      [0xe2, 0x82], // a sequence cut short
    ];
    for (const target of writes()) {
      for (const bytes of invalid) {
        const payload = Buffer.concat([Buffer.from('{"note":"'), Buffer.from(bytes), Buffer.from('"}')]);
        await refused(
          { method: target.method, url: target.url, payload, headers: { authorization: ALICE } },
          400,
          "Problems parsing JSON",
        );
      }
    }
  });

  test("a string holding NUL is a 422 naming the field, on every driver (PostgreSQL cannot store it)", async () => {
    for (const target of writes()) {
      for (const field of ["note", "note_url", "fingerprint"]) {
        const body = await refused(
          send(target.method, target.url, JSON.stringify({ [field]: "a\u0000b" }), "application/json"),
          422,
          "Validation Failed",
        );
        assert.equal(body.errors?.[0]?.field, field);
        assert.match(String(body.errors?.[0]?.message), /must not contain NUL characters/);
      }
    }
  });

  test("a NUL byte in a name is the 404 of any unknown name, and a NUL login is bad credentials", async () => {
    for (const url of [
      "/users/%00/events",
      "/users/al%00ice/events/public",
      "/repos/alice/%00/events",
      "/orgs/%00/events",
      "/repos/%00/x/issues/events",
      "/networks/a%00/b/events",
      "/users/alice/events/orgs/%00",
    ]) {
      await refused({ method: "GET", url }, 404, "Not Found");
    }
    await refused(
      { method: "GET", url: "/authorizations", headers: { authorization: basic("al\0ice", "alice-password") } },
      401,
      "Bad credentials",
    );
  });

  test('JSON that is not an object is 400 "Body should be a JSON object"', async () => {
    for (const target of writes()) {
      for (const payload of ["[]", '[{"note":"x"}]', '"note"', "42", "null", "true"]) {
        await refused(
          send(target.method, target.url, payload, "application/json"),
          400,
          "Body should be a JSON object",
        );
      }
    }
  });

  test("prototype-poisoning keys are refused as bad JSON and poison nothing", async () => {
    const poisoned = [
      '{"__proto__":{"x":1}}',
      '{"note":"x","__proto__":{"scopes":["repo"]}}',
      '{"constructor":{"prototype":{"x":1}}}',
    ];
    for (const target of writes()) {
      for (const payload of poisoned) {
        await refused(send(target.method, target.url, payload, "application/json"), 400, "Problems parsing JSON");
      }
    }
    assert.equal(({} as Record<string, unknown>).x, undefined);
  });

  const wrongTypes: { body: Record<string, unknown>; field: string }[] = [
    { body: { note: 5 }, field: "note" },
    { body: { note: true }, field: "note" },
    { body: { note_url: [] }, field: "note_url" },
    { body: { scopes: "repo" }, field: "scopes" },
    { body: { scopes: [1] }, field: "scopes" },
    { body: { scopes: null }, field: "scopes" },
    { body: { scopes: { 0: "repo" } }, field: "scopes" },
    { body: { fingerprint: {} }, field: "fingerprint" },
  ];

  for (const { body, field } of wrongTypes) {
    test(`${JSON.stringify(body)} is 422 "Validation Failed" naming ${field}`, async () => {
      for (const target of writes()) {
        const error = await refused(
          {
            method: target.method,
            url: target.url,
            headers: { authorization: ALICE },
            payload: { note: "ok", ...body },
          },
          422,
          "Validation Failed",
        );
        assert.equal(error.documentation_url, target.docs);
        assert.deepEqual(
          error.errors!.map((e) => e.field),
          [field],
        );
        assert.deepEqual(Object.keys(error.errors![0]!).sort(), ["code", "field", "message", "resource"]);
        assert.deepEqual(
          error.errors!.map((e) => [e.resource, e.code]),
          [["OauthAccess", "invalid"]],
        );
      }
    });
  }

  test("update's add_scopes and remove_scopes are type-checked too", async () => {
    for (const body of [{ add_scopes: "repo" }, { remove_scopes: [null] }]) {
      const error = await refused(
        { method: "PATCH", url: `/authorizations/${existingId}`, headers: { authorization: ALICE }, payload: body },
        422,
        "Validation Failed",
      );
      assert.deepEqual(
        error.errors!.map((e) => e.field),
        Object.keys(body),
      );
    }
  });

  test("every wrongly typed field is named, once each", async () => {
    const error = await refused(
      {
        method: "POST",
        url: "/authorizations",
        headers: { authorization: ALICE },
        payload: { note: 5, note_url: [], scopes: "repo", fingerprint: {} },
      },
      422,
      "Validation Failed",
    );
    assert.deepEqual(error.errors!.map((e) => e.field).sort(), ["fingerprint", "note", "note_url", "scopes"]);
  });

  test("a wrongly typed value nested past the stack or very large is still a short 422", async () => {
    const depth = 100_000;
    const payloads = [
      `{"note":${"[".repeat(depth)}${"]".repeat(depth)}}`,
      `{"scopes":[${"[".repeat(depth)}${"]".repeat(depth)}]}`,
      JSON.stringify({ note: new Array(50_000).fill(1) }),
    ];
    for (const payload of payloads) {
      const error = await refused(
        send("POST", "/authorizations", payload, "application/json"),
        422,
        "Validation Failed",
      );
      assert.ok(JSON.stringify(error).length < 1000, "the value is not echoed back whole");
    }
  });

  const unknownRoutes: InjectOptions[] = [
    { method: "GET", url: "/nope" },
    { method: "GET", url: "/authorization" },
    { method: "GET", url: "/authorizations/1/extra" },
    { method: "PUT", url: "/authorizations" },
    { method: "DELETE", url: "/authorizations" },
    { method: "PATCH", url: "/authorizations" },
    { method: "PUT", url: "/authorizations/clients/abcdefabcdefabcdefab" },
  ];

  for (const request of unknownRoutes) {
    for (const authorization of [ALICE, undefined]) {
      test(`${request.method} ${request.url} ${authorization ? "with" : "without"} credentials is GitHub's 404, naming the route feedgate lacks`, async () => {
        const res = await t.app.inject({ ...request, headers: authorization ? { authorization } : {} });
        assertErrorShape(res, 404);
        assert.deepEqual(res.json(), {
          ...NOT_FOUND,
          message: `Not Found: feedgate does not implement ${request.method} ${request.url}`,
        });
        assert.equal(res.headers["x-feedgate-unimplemented"], "true");
      });
    }
  }

  test("a URL that cannot be decoded is 400 in GitHub's shape, without echoing the URL", async () => {
    for (const url of ["/authorizations/%E0%A4%A", "/%zz", "/authorizations/%zz?access_token=secret-in-url"]) {
      await refused(
        { method: "GET", url, headers: { authorization: ALICE } },
        400,
        "The request URL could not be decoded",
      );
    }
  });

  test("an over-long id is the 404 of any unknown id", async () => {
    const url = `/authorizations/${"9".repeat(150)}`;
    const res = await t.app.inject({ method: "GET", url, headers: { authorization: ALICE } });
    assertErrorShape(res, 404);
    assert.deepEqual(res.json(), NOT_FOUND);
  });

  test('unknown body keys are silently ignored: {"scope":["gist"]} gives scopes []', async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/authorizations",
      headers: { authorization: ALICE },
      payload: { scope: ["gist"], note: "misspelt", colour: "blue" },
    });
    assert.equal(res.statusCode, 201);
    assert.deepEqual(res.json().scopes, []);
    assert.equal(res.json().note, "misspelt");
    assert.ok(!("scope" in res.json()) && !("colour" in res.json()));
  });
});

describe("the body size limit", () => {
  let t: TestApp;
  let alice: UserRow;
  before(async () => {
    t = await startTestApp({ bodyLimit: 1024 });
    alice = await t.createUser("alice", "alice-password");
  });
  after(() => t.close());

  const create = (note: string) =>
    t.app.inject({ method: "POST", url: "/authorizations", headers: { authorization: ALICE }, payload: { note } });

  test("a body over the limit is 413 with message and documentation_url, and creates nothing", async () => {
    const res = await create("x".repeat(2048));
    const body = assertErrorShape(res, 413);
    assert.equal(body.documentation_url, CREATE_DOCS);
    assert.equal((await t.store.authorizations.list(alice.id, { limit: 10, offset: 0 })).total, 0);
  });

  test("a body under the limit is served", async () => {
    const res = await create("x".repeat(900));
    assert.equal(res.statusCode, 201);
    assert.equal((await t.store.authorizations.list(alice.id, { limit: 10, offset: 0 })).total, 1);
  });
});
