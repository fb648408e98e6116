/**
 * Gitea's best test, for the authorizations family: every route refuses every credential it must refuse,
 * with GitHub's status and body, and a refused request changes nothing. Routes come from the endpoint table,
 * so a new row is covered without touching this file.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import type { InjectOptions, LightMyRequestResponse as Response } from "fastify";
import { basic, startTestApp, type TestApp } from "../helpers/test-app.js";
import { endpoints, type Endpoint } from "../../src/api/endpoints.js";
import { SCOPE_NAMES } from "../../src/api/scopes.js";

const ALICE = basic("alice", "alice-password");
const BASIC_ONLY = {
  message: "This API can only be accessed with username and password Basic Auth",
  documentation_url: "https://developer.github.com/v3/oauth_authorizations/#oauth-authorizations-api",
};
const BAD_CREDENTIALS = { message: "Bad credentials", documentation_url: "https://developer.github.com/v3" };

const ROUTES: [string, Endpoint][] = [
  ...Object.values(endpoints.authorization).map((e): [string, Endpoint] => [e.method, e]),
  // GitHub accepts POST wherever PATCH is documented (wire notes 1.1); the alias must be as strict.
  ["POST", endpoints.authorization.update],
];

const TOKEN_FORMS: [string, (token: string) => InjectOptions][] = [
  ["an Authorization: token header", (token) => ({ headers: { authorization: `token ${token}` } })],
  ["an Authorization: Bearer header", (token) => ({ headers: { authorization: `Bearer ${token}` } })],
  ["an ?access_token= query", (token) => ({ query: { access_token: token } })],
  // The owner's own login with their token: the form most likely to be mistaken for a password.
  ["Basic with the token as password", (token) => ({ headers: { authorization: basic("alice", token) } })],
];

describe("authorizations routes refuse everything but password Basic auth", () => {
  let t: TestApp;
  let existingId = "";
  const tokens = { every: { token: "", scopes: "" }, none: { token: "", scopes: "" } };

  /** The owner's authorizations as the API lists them: a refused request must leave this untouched. */
  const ownersAuthorizations = async () =>
    (
      await t.app.inject({ method: "GET", url: "/authorizations?per_page=100", headers: { authorization: ALICE } })
    ).json();
  let snapshot: unknown;

  before(async () => {
    // Wrong passwords and anonymous calls are made on purpose: neither lockout nor rate limit is under test.
    t = await startTestApp({ loginMaxAttempts: 10_000, rateLimitAnonymous: 10_000 });
    const alice = await t.createUser("alice", "alice-password");
    existingId = (await t.createToken(alice, ["gist"], "target")).id;
    for (const [holder, scopes] of [
      ["every", [...SCOPE_NAMES]],
      ["none", []],
    ] as ["every" | "none", string[]][]) {
      const { token, id } = await t.createToken(alice, scopes, holder);
      const stored = (
        await t.app.inject({ method: "GET", url: `/authorizations/${id}`, headers: { authorization: ALICE } })
      ).json().scopes as string[];
      tokens[holder] = { token, scopes: stored.join(", ") };
    }
    snapshot = await ownersAuthorizations();
  });
  after(() => t.close());

  const refusals: { credential: string; send: () => InjectOptions; check: (res: Response, e: Endpoint) => void }[] = [
    {
      credential: "no credentials",
      send: () => ({}),
      check: (res, e) =>
        assertError(res, 401, { message: "Requires authentication", documentation_url: e.documentationUrl }),
    },
    ...(["every", "none"] as const).flatMap((holder) =>
      TOKEN_FORMS.map(([form, send]) => ({
        credential: `${form} (a token with ${holder === "every" ? "every scope" : "no scopes"})`,
        send: () => send(tokens[holder].token),
        check: (res: Response, e: Endpoint) => {
          assertError(res, 403, BASIC_ONLY);
          // Refused, but still token-authenticated: GitHub reports the scopes on such responses too.
          assert.equal(res.headers["x-oauth-scopes"], tokens[holder].scopes);
          assert.equal(res.headers["x-accepted-oauth-scopes"], e.acceptedScopes.join(", "));
        },
      })),
    ),
    {
      credential: "a wrong password",
      send: () => ({ headers: { authorization: basic("alice", "wrong-password") } }),
      check: (res) => assertError(res, 401, BAD_CREDENTIALS),
    },
  ];

  for (const [method, endpoint] of ROUTES) {
    for (const { credential, send, check } of refusals) {
      test(`${method} ${endpoint.path} refuses ${credential} and changes nothing`, async () => {
        const res = await t.app.inject({
          method,
          url: endpoint.path.replace(":id", existingId),
          ...(method === "POST" || method === "PATCH" ? { payload: { scopes: ["repo"], note: "intruder" } } : {}),
          ...send(),
        });
        check(res, endpoint);
        assert.deepEqual(await ownersAuthorizations(), snapshot);
      });
    }
  }

  test("the target of the refused deletes is still there", async () => {
    const res = await t.app.inject({
      method: "GET",
      url: `/authorizations/${existingId}`,
      headers: { authorization: ALICE },
    });
    assert.equal(res.statusCode, 200);
    assert.equal(res.json().note, "target");
  });
});

describe("scope headers", () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
    await t.createUser("alice", "alice-password");
  });
  after(() => t.close());

  const SCOPE_HEADERS: [string[], string][] = [
    [[], ""],
    [["repo", "user"], "repo, user"],
    [["user", "gist", "user:email"], "user, gist"], // stored normalized, reported as stored
  ];
  for (const [scopes, expected] of SCOPE_HEADERS) {
    test(`a token with scopes ${JSON.stringify(scopes)} gets X-OAuth-Scopes "${expected}" and X-Accepted-OAuth-Scopes`, async () => {
      const user = (await t.store.users.findByLogin("alice"))!;
      const { token } = await t.createToken(user, scopes);
      const res = await t.app.inject({ method: "GET", url: "/nowhere", headers: { authorization: `token ${token}` } });
      assert.equal(res.statusCode, 404);
      assert.equal(res.headers["x-oauth-scopes"], expected);
      assert.equal(res.headers["x-accepted-oauth-scopes"], "");
    });
  }

  test("password-authenticated responses carry neither scope header", async () => {
    for (const method of ["GET", "POST"] as const) {
      const res = await t.app.inject({ method, url: "/authorizations", headers: { authorization: ALICE } });
      assert.ok(res.statusCode < 300, `${method}: ${res.body}`);
      assert.equal(res.headers["x-oauth-scopes"], undefined);
      assert.equal(res.headers["x-accepted-oauth-scopes"], undefined);
    }
  });
});

function assertError(res: Response, status: number, body: object) {
  assert.equal(res.statusCode, status, res.body);
  assert.deepEqual(res.json(), body);
}
