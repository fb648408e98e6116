/**
 * The lists of repositories: the caller's (`GET /user/repos`: visibility, affiliation, type, sort, direction), a
 * user's public ones (`GET /users/{u}/repos`) and an organization's (`GET /orgs/{org}/repos`), each showing only what
 * the caller may see, as GitHub's minimal-repository.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { ALICE_PUBLIC_TOKEN, ALICE_TOKEN, BOB_TOKEN } from "../helpers/client-world.js";
import { assertSchema } from "../compat/schemas.js";
import { repositoryScene, type Json, type RepositoryScene } from "../helpers/repository-scene.js";

describe("repository lists", () => {
  let s: RepositoryScene;
  const names = async (url: string, token: string | null = ALICE_TOKEN) => {
    const list = s.json(await s.send("GET", url, token), 200) as Json[];
    if (list.length) assertSchema("minimal-repository", list);
    return list.map((r) => r.full_name);
  };

  before(async () => {
    s = await repositoryScene();
    s.json(await s.send("POST", "/orgs/acme/repos", ALICE_TOKEN, { name: "vault", private: true }), 201);
    s.json(await s.send("POST", "/repos/bob/tools/forks", ALICE_TOKEN), 202);
  });
  after(() => s.close());

  test("GET /user/repos lists what the caller owns, collaborates on and reaches through organizations", async () => {
    assert.deepEqual(await names("/user/repos"), [
      "acme/site",
      "acme/vault",
      "alice/hello",
      "alice/secret",
      "alice/tools",
    ]);
    assert.deepEqual(await names("/user/repos?visibility=private"), ["acme/vault", "alice/secret"]);
    assert.deepEqual(await names("/user/repos?affiliation=owner"), ["alice/hello", "alice/secret", "alice/tools"]);
    assert.deepEqual(await names("/user/repos?type=member"), ["acme/site", "acme/vault"]);
    assert.deepEqual(await names("/user/repos?sort=created&direction=desc&per_page=2"), ["alice/tools", "acme/vault"]);
    assert.deepEqual(await names("/user/repos?sort=full_name&direction=desc&per_page=1"), ["alice/tools"]);
    assert.deepEqual(await names("/user/repos", ALICE_PUBLIC_TOKEN), ["acme/site", "alice/hello", "alice/tools"]);
    assert.deepEqual(await names("/user/repos?since=2999-01-01T00:00:00Z"), []);
  });

  test("GET /user/repos refuses type with visibility, unknown values, and anonymous callers", async () => {
    for (const [query, field] of [
      ["type=owner&visibility=all", "type"],
      ["visibility=secret", "visibility"],
      ["affiliation=owner,friend", "affiliation"],
      ["sort=stars", "sort"],
      ["since=yesterday", "since"],
    ] as const) {
      const body = s.json(await s.send("GET", `/user/repos?${query}`, ALICE_TOKEN), 422);
      assert.deepEqual(
        body.errors.map((e: Json) => [e.resource, e.field]),
        [["Repository", field]],
        query,
      );
    }
    assert.equal((await s.send("GET", "/user/repos", null)).statusCode, 401);
  });

  test("GET /users/{u}/repos lists a user's public repositories, to anyone", async () => {
    assert.deepEqual(await names("/users/alice/repos", null), ["alice/hello", "alice/tools"]);
    assert.deepEqual(await names("/users/alice/repos"), ["alice/hello", "alice/tools"]);
    assert.deepEqual(await names("/users/bob/repos?sort=full_name&direction=desc", BOB_TOKEN), [
      "bob/tools",
      "bob/hello",
    ]);
    assert.equal((await s.send("GET", "/users/nobody/repos", null)).statusCode, 404);
  });

  test("GET /orgs/{org}/repos lists its private repositories to those who read them only", async () => {
    assert.deepEqual(await names("/orgs/acme/repos?sort=full_name"), ["acme/site", "acme/vault"]);
    assert.deepEqual(await names("/orgs/acme/repos", null), ["acme/site"]);
    assert.deepEqual(await names("/orgs/acme/repos", BOB_TOKEN), ["acme/site"]);
    assert.deepEqual(await names("/orgs/acme/repos?type=private"), ["acme/vault"]);
    assert.deepEqual(await names("/orgs/acme/repos?type=forks"), []);
    assert.equal(s.json(await s.send("GET", "/orgs/acme/repos?type=odd", null), 422).errors[0].field, "type");
    assert.equal((await s.send("GET", "/orgs/alice/repos", null)).statusCode, 404);
  });
});
