/**
 * GitHub's GraphQL endpoint over the served part of GitHub's schema: gh's first query after `gh auth login`
 * (`query UserCurrent{viewer{login}}`) at each of GitHub's paths, users, organizations and repositories with the REST
 * entry points' visibility, and GitHub's error shapes: the 401, an unknown field, a look-up that finds nothing, a
 * syntax error and a request without a query.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { startTestApp, type TestApp } from "../helpers/test-app.js";
import { ALICE_TOKEN, BOB_TOKEN, WORLD } from "../helpers/client-world.js";
import { IngestService } from "../../src/server/services/ingest.js";

// biome-ignore lint/suspicious/noExplicitAny: JSON answers, read as asserted
type Json = Record<string, any>;

describe("GraphQL", () => {
  let t: TestApp;
  const ask = async (body: object, token: string | null = ALICE_TOKEN, url = "/graphql") => {
    const response = await t.app.inject({
      method: "POST",
      url,
      headers: token ? { authorization: `token ${token}` } : {},
      payload: body,
    });
    return { status: response.statusCode, headers: response.headers, body: response.json() as Json };
  };

  before(async () => {
    t = await startTestApp();
    await new IngestService(t.store, t.clock.now).seedWorld(WORLD, { baseDir: undefined });
  });
  after(() => t.close());

  for (const url of ["/graphql", "/api/graphql", "/api/v3/graphql"]) {
    test(`gh's first query answers the viewer at ${url}`, async () => {
      const { status, headers, body } = await ask({ query: "query UserCurrent{viewer{login}}" }, ALICE_TOKEN, url);
      assert.equal(status, 200);
      assert.match(String(headers["content-type"]), /^application\/json/);
      assert.equal(headers["x-oauth-scopes"], "repo, user");
      assert.deepEqual(body, { data: { viewer: { login: "alice" } } });
    });
  }

  test("without credentials: GitHub's 401 for GraphQL, and nothing run", async () => {
    const { status, body } = await ask({ query: "{viewer{login}}" }, null);
    assert.equal(status, 401);
    assert.deepEqual(body, {
      message: "This endpoint requires you to be authenticated.",
      documentation_url:
        "https://docs.github.com/graphql/guides/forming-calls-with-graphql#authenticating-with-graphql",
    });
  });

  test("a bad token is the ordinary 401", async () => {
    const { status, body } = await ask({ query: "{viewer{login}}" }, "0".repeat(40));
    assert.equal(status, 401);
    assert.equal(body.message, "Bad credentials");
  });

  test("the viewer's profile, with GitHub's legacy global id and the counts REST shows", async () => {
    const { body } = await ask({
      query: "{viewer{id databaseId login isViewer isSiteAdmin email followers{totalCount} following{totalCount}}}",
    });
    const rest = (await t.app.inject({ url: "/user", headers: { authorization: `token ${ALICE_TOKEN}` } })).json();
    const viewer = body.data.viewer;
    assert.equal(viewer.databaseId, rest.id);
    assert.equal(Buffer.from(viewer.id, "base64").toString(), `04:User${rest.id}`);
    assert.equal(viewer.isViewer, true);
    assert.equal(viewer.following.totalCount, rest.following);
    assert.equal(viewer.followers.totalCount, rest.followers);
    assert.equal(viewer.email, rest.email ?? "");
  });

  test("variables and aliases: two users in one query; an organization is not a user", async () => {
    const query =
      "query Two($a: String!, $b: String!) { first: user(login: $a) { login isViewer } second: user(login: $b) { login } }";
    const { body } = await ask({
      query,
      variables: { a: "bob", b: "acme" },
      operationName: "Two",
    });
    assert.deepEqual(body.data, { first: { login: "bob", isViewer: false }, second: null });
    assert.deepEqual(body.errors, [
      {
        type: "NOT_FOUND",
        path: ["second"],
        locations: [{ line: 1, column: query.indexOf("second:") + 1 }],
        message: "Could not resolve to a User with the login of 'acme'.",
      },
    ]);
  });

  test("an organization, and whether the viewer is one of its members", async () => {
    const query = '{organization(login: "acme") { login viewerIsAMember id }}';
    const alice = (await ask({ query })).body.data.organization;
    assert.equal(alice.login, "acme");
    assert.equal(alice.viewerIsAMember, true);
    assert.match(Buffer.from(alice.id, "base64").toString(), /^012:Organization\d+$/);
    assert.equal((await ask({ query }, BOB_TOKEN)).body.data.organization.viewerIsAMember, false);
  });

  test("a repository as REST shows it, and the viewer's permission on it", async () => {
    const query =
      '{repository(owner: "alice", name: "hello") { nameWithOwner isPrivate isFork visibility viewerPermission forkCount stargazerCount owner { __typename login } }}';
    const rest = (await t.app.inject({ url: "/repos/alice/hello" })).json();
    const alice = (await ask({ query })).body.data.repository;
    assert.deepEqual(alice, {
      nameWithOwner: "alice/hello",
      isPrivate: false,
      isFork: false,
      visibility: "PUBLIC",
      viewerPermission: "ADMIN",
      forkCount: rest.forks_count,
      stargazerCount: rest.stargazers_count,
      owner: { __typename: "User", login: "alice" },
    });
    assert.equal((await ask({ query }, BOB_TOKEN)).body.data.repository.viewerPermission, "READ");
  });

  test("a private repository is null to a caller who cannot see it, as REST's 404", async () => {
    const query = '{repository(owner: "alice", name: "secret") { name isPrivate }}';
    assert.deepEqual((await ask({ query })).body.data.repository, { name: "secret", isPrivate: true });
    const { status, body } = await ask({ query }, BOB_TOKEN);
    assert.equal(status, 200);
    assert.deepEqual(body.data, { repository: null });
    assert.equal(body.errors[0].type, "NOT_FOUND");
    assert.equal(body.errors[0].message, "Could not resolve to a Repository with the name 'alice/secret'.");
  });

  test("a field outside the schema: GitHub's undefinedField error, its path from the operation, and no data", async () => {
    const { status, body } = await ask({ query: "query UserCurrent{viewer{login gists{totalCount}}}" });
    assert.equal(status, 200);
    assert.deepEqual(body, {
      errors: [
        {
          path: ["query UserCurrent", "viewer", "gists"],
          extensions: { code: "undefinedField", typeName: "User", fieldName: "gists" },
          locations: [{ line: 1, column: 32 }],
          message: "Field 'gists' doesn't exist on type 'User'",
        },
      ],
    });
  });

  test("a syntax error answers its place and no data", async () => {
    const { status, body } = await ask({ query: "{viewer{login}" });
    assert.equal(status, 200);
    assert.equal(body.data, undefined);
    assert.equal(body.errors.length, 1);
    assert.deepEqual(body.errors[0].locations, [{ line: 1, column: 15 }]);
  });

  test("a request without a query, or with variables that are not an object", async () => {
    assert.deepEqual((await ask({})).body, {
      errors: [{ message: "A query attribute must be specified and must be a string." }],
    });
    assert.deepEqual((await ask({ query: "{viewer{login}}", variables: [1] })).body, {
      errors: [{ message: "Variables are invalid JSON." }],
    });
  });
});
