/**
 * Fine-grained personal access tokens, made and managed through feedgate's `/user/personal-access-tokens` (GitHub makes
 * them on its web pages only): created with the password, one resource owner, a repository selection and permissions;
 * the token shown once in `feedgate_pat_` form; every bad request a 422 naming the field, with nothing stored; never
 * visible through the authorizations API, and refused by it, as on GitHub. Over a real socket, on the driver
 * FEEDGATE_TEST_STORE names.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { basic, startTestApp, type TestApp } from "../helpers/test-app.js";
import { IngestService } from "../../src/server/services/ingest.js";

const ALICE = basic("alice", "alice-password");
const PATS = "/user/personal-access-tokens";

interface Pat {
  id: number;
  url: string;
  token: string;
  token_last_eight: string;
  token_name: string;
  description: string | null;
  owner: { login: string };
  resource_owner: { login: string; type: string };
  repository_selection: string;
  repositories: { full_name: string; private: boolean }[];
  permissions: { repository: Record<string, string>; organization: Record<string, string> };
  created_at: string;
  token_expired: boolean;
  token_expires_at: string | null;
  token_last_used_at: null;
}

describe("fine-grained tokens: the API that makes them", () => {
  let t: TestApp;
  let url: string;
  const call = (method: string, path: string, authorization: string, body?: unknown) =>
    fetch(`${url}${path}`, {
      method,
      headers: { authorization, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const stored = async () => (await t.store.authorizations.listAll()).length;

  before(async () => {
    t = await startTestApp({ baseUrl: "https://feedgate.example" });
    await new IngestService(t.store, t.clock.now).seedWorld(
      {
        users: [
          { login: "alice", password: "alice-password" },
          { login: "bob", password: "bob-password" },
        ],
        orgs: [
          { login: "acme", owners: ["alice"] },
          { login: "globex", owners: ["bob"] },
        ],
        repos: [
          { full_name: "acme/api", private: true },
          { full_name: "acme/site" },
          { full_name: "alice/hello" },
          { full_name: "globex/vault", private: true },
        ],
      },
      { baseDir: undefined },
    );
    url = await t.app.listen({ port: 0, host: "127.0.0.1" });
  });
  after(() => t.close());

  test("create answers 201 with the token once, GitHub's grant fields, and Metadata read always granted", async () => {
    const res = await call("POST", PATS, ALICE, {
      name: "deploy bot",
      description: "hooks of the api",
      resource_owner: "acme",
      repository_selection: "subset",
      repositories: ["acme/api"],
      permissions: { repository: { repository_hooks: "write" }, organization: { organization_hooks: "read" } },
      expires_at: "2026-02-14T10:00:00Z",
    });
    assert.equal(res.status, 201);
    const body = (await res.json()) as Pat;
    assert.match(body.token, /^feedgate_pat_[0-9A-Za-z]{22}_[0-9A-Za-z]{59}$/);
    assert.equal(res.headers.get("location"), `https://feedgate.example${PATS}/${body.id}`);
    assert.equal(body.url, `https://feedgate.example${PATS}/${body.id}`);
    assert.equal(body.token_last_eight, body.token.slice(-8));
    assert.equal(body.token_name, "deploy bot");
    assert.equal(body.description, "hooks of the api");
    assert.equal(body.owner.login, "alice");
    assert.deepEqual([body.resource_owner.login, body.resource_owner.type], ["acme", "Organization"]);
    assert.equal(body.repository_selection, "subset");
    assert.deepEqual(
      body.repositories.map((r) => [r.full_name, r.private]),
      [["acme/api", true]],
    );
    assert.deepEqual(body.permissions, {
      repository: { metadata: "read", repository_hooks: "write" },
      organization: { organization_hooks: "read" },
    });
    assert.equal(body.created_at, "2026-01-15T10:00:00Z");
    assert.deepEqual(
      [body.token_expired, body.token_expires_at, body.token_last_used_at],
      [false, "2026-02-14T10:00:00Z", null],
    );

    const got = (await (await call("GET", `${PATS}/${body.id}`, ALICE)).json()) as Pat;
    assert.deepEqual(got, { ...body, token: "" }, "the token is never shown again");
    const listed = await call("GET", PATS, ALICE);
    assert.deepEqual(
      ((await listed.json()) as Pat[]).map((p) => p.id),
      [body.id],
    );
  });

  test("the token works as any token does, and the authorizations API neither lists nor manages it", async () => {
    const made = (await (await call("POST", PATS, ALICE, { name: "reader" })).json()) as Pat;
    const user = await call("GET", "/user", `token ${made.token}`);
    assert.equal(user.status, 200);
    assert.equal(((await user.json()) as { login: string }).login, "alice");
    const classic = (await (await call("GET", "/authorizations", ALICE)).json()) as unknown[];
    assert.equal(classic.length, 0, "fine-grained tokens are not authorizations");
    assert.equal((await call("GET", `/authorizations/${made.id}`, ALICE)).status, 404);
    assert.equal((await call("DELETE", `/authorizations/${made.id}`, ALICE)).status, 404);
    assert.equal((await call("GET", `${PATS}/${made.id}`, ALICE)).status, 200, "still there");

    // As on GitHub, tokens cannot manage tokens: these operations take the password only.
    for (const path of ["/authorizations", PATS]) {
      const res = await call("GET", path, `token ${made.token}`);
      assert.equal(res.status, 403, path);
    }
  });

  test("delete revokes it at once; another user's id is 404", async () => {
    const made = (await (await call("POST", PATS, ALICE, { name: "short-lived" })).json()) as Pat;
    assert.equal((await call("GET", `${PATS}/${made.id}`, basic("bob", "bob-password"))).status, 404);
    assert.equal((await call("DELETE", `${PATS}/${made.id}`, basic("bob", "bob-password"))).status, 404);
    assert.equal((await call("DELETE", `${PATS}/${made.id}`, ALICE)).status, 204);
    assert.equal((await call("GET", "/user", `token ${made.token}`)).status, 401);
    assert.equal((await call("GET", `${PATS}/${made.id}`, ALICE)).status, 404);
  });

  test("POST /credentials/revoke revokes a fine-grained token too", async () => {
    const made = (await (await call("POST", PATS, ALICE, { name: "leaked" })).json()) as Pat;
    const res = await fetch(`${url}/credentials/revoke`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ credentials: [made.token] }),
    });
    assert.equal(res.status, 202);
    assert.equal((await call("GET", "/user", `token ${made.token}`)).status, 401);
  });

  const refusals: [string, Record<string, unknown>, string, RegExp][] = [
    ["an empty name", { name: " " }, "name", /1 to 40 characters/],
    [
      "an unknown resource owner",
      { name: "x", resource_owner: "nobody" },
      "resource_owner",
      /you or an organization you belong to/,
    ],
    [
      "an organization the user is not in",
      { name: "x", resource_owner: "globex" },
      "resource_owner",
      /organization you belong to/,
    ],
    ["an unknown selection", { name: "x", repository_selection: "some" }, "repository_selection", /none, all, subset/],
    ["subset without repositories", { name: "x", repository_selection: "subset" }, "repositories", /at least one/],
    ["repositories without subset", { name: "x", repositories: ["alice/hello"] }, "repositories", /only given with/],
    [
      "a repository of another owner",
      { name: "x", resource_owner: "acme", repository_selection: "subset", repositories: ["alice/hello"] },
      "repositories",
      /acme has no repository "alice\/hello"/,
    ],
    [
      "a repository the owner does not have",
      { name: "x", repository_selection: "subset", repositories: ["nope"] },
      "repositories",
      /alice has no repository "nope"/,
    ],
    [
      "an unknown permission",
      { name: "x", repository_selection: "all", permissions: { repository: { secrets: "read" } } },
      "permissions.repository.secrets",
      /not a permission feedgate knows/,
    ],
    [
      "a permission in the wrong group",
      { name: "x", resource_owner: "acme", permissions: { organization: { repository_hooks: "read" } } },
      "permissions.organization.repository_hooks",
      /not a permission/,
    ],
    [
      "an unknown level",
      { name: "x", repository_selection: "all", permissions: { repository: { repository_hooks: "admin" } } },
      "permissions.repository.repository_hooks",
      /read or write, got "admin"/,
    ],
    [
      "a level Metadata does not offer",
      { name: "x", permissions: { repository: { metadata: "write" } } },
      "permissions.repository.metadata",
      /must be read/,
    ],
    [
      "repository permissions on public repositories only",
      { name: "x", permissions: { repository: { repository_hooks: "read" } } },
      "permissions.repository.repository_hooks",
      /public repositories only/,
    ],
    [
      "organization permissions for a user",
      { name: "x", permissions: { organization: { organization_hooks: "read" } } },
      "permissions.organization.organization_hooks",
      /needs an organization/,
    ],
    [
      "an unknown group",
      { name: "x", permissions: { account: { followers: "read" } } },
      "permissions",
      /no group "account"/,
    ],
    [
      "permissions that are not an object",
      { name: "x", permissions: ["repository_hooks:write"] },
      "permissions",
      /must be object/,
    ],
    ["an expiry in the past", { name: "x", expires_at: "2026-01-01T00:00:00Z" }, "expires_at", /in the future/],
  ];
  for (const [what, body, field, message] of refusals) {
    test(`422 for ${what}, naming ${field}; nothing stored`, async () => {
      const before = await stored();
      const res = await call("POST", PATS, ALICE, body);
      assert.equal(res.status, 422);
      const error = (await res.json()) as {
        message: string;
        errors: { resource: string; field: string; message: string }[];
      };
      assert.equal(error.message, "Validation Failed");
      assert.deepEqual(
        error.errors.map((e) => [e.resource, e.field]),
        [["FineGrainedToken", field]],
      );
      assert.match(error.errors[0]!.message, message);
      assert.equal(await stored(), before);
    });
  }

  test("a body without a name is GitHub's 422 for a missing field", async () => {
    const res = await call("POST", PATS, ALICE, { repository_selection: "all" });
    assert.equal(res.status, 422);
  });
});
