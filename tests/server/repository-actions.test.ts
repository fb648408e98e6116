/**
 * Repositories as actions: created (CreateEvent, `repository.created`, GitHub's nine labels), edited (renamed with
 * GitHub's redirect from the old name, made public or private, archived read-only, issues turned off), deleted
 * (`repository.deleted` to the organization's hooks). Answers are checked against GitHub's schemas; a refused write
 * writes nothing.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { ALICE_PUBLIC_TOKEN, ALICE_TOKEN, BOB_TOKEN } from "../helpers/client-world.js";
import { assertSchema } from "../compat/schemas.js";
import { ZOE_TOKEN } from "../helpers/issue-scene.js";
import { repositoryScene, type Json, type RepositoryScene } from "../helpers/repository-scene.js";

describe("repository actions", () => {
  let s: RepositoryScene;
  const events = async (url: string) =>
    (await s.t.app.inject({ method: "GET", url, headers: { authorization: `token ${ALICE_TOKEN}` } })).json() as Json[];

  before(async () => {
    s = await repositoryScene();
  });
  after(() => s.close());

  test("POST /user/repos answers 201 with the full repository, makes CreateEvent and GitHub's nine labels", async () => {
    const res = await s.send("POST", "/user/repos", ALICE_TOKEN, {
      name: "made",
      description: "Made through the API",
      homepage: "https://example.com",
      auto_init: true,
    });
    const repo = s.json(res, 201);
    assertSchema("full-repository", repo);
    assert.equal(res.headers.location, "http://localhost:80/repos/alice/made");
    assert.deepEqual(
      [repo.full_name, repo.description, repo.homepage, repo.private, repo.default_branch, repo.has_issues, repo.fork],
      ["alice/made", "Made through the API", "https://example.com", false, "main", true, false],
    );
    assert.equal(repo.permissions.admin, true);
    assert.equal(repo.created_at, repo.updated_at);
    const [created] = await events("/repos/alice/made/events");
    assert.equal(created!.type, "CreateEvent");
    assert.deepEqual(created!.payload, {
      ref: null,
      ref_type: "repository",
      master_branch: "main",
      description: "Made through the API",
      pusher_type: "user",
    });
    const labels = s.json(await s.send("GET", "/repos/alice/made/labels", null), 200);
    assertSchema("label", labels);
    assert.deepEqual(
      labels.map((l: Json) => [l.name, l.color, l.default]),
      [
        ["bug", "d73a4a", true],
        ["documentation", "0075ca", true],
        ["duplicate", "cfd3d7", true],
        ["enhancement", "a2eeef", true],
        ["good first issue", "7057ff", true],
        ["help wanted", "008672", true],
        ["invalid", "e4e669", true],
        ["question", "d876e3", true],
        ["wontfix", "ffffff", true],
      ],
    );
    assert.equal(labels[0].description, "Something isn't working");
    assert.equal(s.json(await s.send("GET", "/repos/alice/made", null), 200).description, "Made through the API");
  });

  test("POST /orgs/{org}/repos makes a private repository of the organization and tells its hooks", async () => {
    const res = await s.send("POST", "/orgs/acme/repos", ALICE_TOKEN, {
      name: "internal tools",
      visibility: "private",
    });
    const repo = s.json(res, 201);
    assertSchema("full-repository", repo);
    assert.deepEqual([repo.full_name, repo.private, repo.visibility], ["acme/internal-tools", true, "private"]);
    assert.equal(repo.organization.login, "acme");
    const [created] = await s.orgDelivered(1);
    assert.deepEqual([created!.event, created!.action], ["repository", "created"]);
    assert.equal(created!.body.repository.full_name, "acme/internal-tools");
    assert.equal(created!.body.organization.login, "acme");
    assert.equal(created!.body.sender.login, "alice");
    const [event] = await events("/repos/acme/internal-tools/events");
    assert.deepEqual([event!.type, event!.public, event!.org.login], ["CreateEvent", false, "acme"]);
    // A member creates too, as GitHub's default lets members; the private one is not public to bob.
    assert.equal((await s.send("GET", "/repos/acme/internal-tools", BOB_TOKEN)).statusCode, 404);
  });

  test("a name the account has, an empty name and an unknown visibility are 422 and make nothing", async () => {
    const before = await s.written();
    const orgBefore = s.orgDeliveries();
    for (const [payload, field, code] of [
      [{ name: "HELLO" }, "name", "custom"],
      [{ name: "  " }, "name", "missing_field"],
      [{ name: ".." }, "name", "invalid"],
      [{ name: "fine", visibility: "secret" }, "visibility", "invalid"],
    ] as const) {
      const body = s.json(await s.send("POST", "/user/repos", ALICE_TOKEN, payload), 422);
      assert.equal(body.message, "Repository creation failed.");
      assert.deepEqual(
        body.errors.map((e: Json) => [e.resource, e.field, e.code]),
        [["Repository", field, code]],
      );
    }
    const taken = s.json(await s.send("POST", "/user/repos", ALICE_TOKEN, { name: "hello" }), 422);
    assert.equal(taken.errors[0].message, "name already exists on this account");
    assert.equal(s.json(await s.send("POST", "/user/repos", ALICE_TOKEN, {}), 422).errors[0].field, "name");
    assert.equal((await s.send("POST", "/user/repos", null, { name: "x" })).statusCode, 401);
    assert.equal((await s.send("POST", "/user/repos", ALICE_PUBLIC_TOKEN, { name: "x" })).statusCode, 404);
    const outsider = s.json(await s.send("POST", "/orgs/acme/repos", BOB_TOKEN, { name: "x" }), 403);
    assert.equal(outsider.message, "You need admin access to the organization before adding a repository to it.");
    assert.equal((await s.send("POST", "/orgs/nobody/repos", ALICE_TOKEN, { name: "x" })).statusCode, 404);
    assert.equal((await s.send("GET", "/repos/alice/x", ALICE_TOKEN)).statusCode, 404);
    assert.equal(await s.written(), before);
    assert.equal(s.orgDeliveries(), orgBefore);
  });

  test("editing answers the repository with its settings and sends repository.edited with what changed", async () => {
    const res = await s.send("PATCH", "/repos/alice/hello", ALICE_TOKEN, {
      description: "Hello, world",
      homepage: "https://hello.example",
      has_wiki: true,
    });
    const repo = s.json(res, 200);
    assertSchema("full-repository", repo);
    assert.deepEqual([repo.description, repo.homepage, repo.has_wiki], ["Hello, world", "https://hello.example", true]);
    const [edited] = await s.delivered(1);
    assert.deepEqual([edited!.event, edited!.action], ["repository", "edited"]);
    assert.deepEqual(edited!.body.changes, { description: { from: null }, homepage: { from: null } });
    assert.equal(edited!.body.repository.description, "Hello, world");
    const same = s.json(await s.send("PATCH", "/repos/alice/hello", ALICE_TOKEN, { description: "Hello, world" }), 200);
    assert.equal(same.description, "Hello, world");
    assert.equal(s.deliveries(), 1, "an edit that changes nothing sends nothing");
  });

  test("only an administrator edits: 403 for a collaborator, 404 for a private repository not seen", async () => {
    const before = await s.written();
    const refused = s.json(await s.send("PATCH", "/repos/alice/hello", ZOE_TOKEN, { description: "mine" }), 403);
    assert.equal(refused.message, "Must have admin rights to Repository.");
    assert.equal((await s.send("PATCH", "/repos/alice/hello", BOB_TOKEN, { description: "mine" })).statusCode, 403);
    assert.equal((await s.send("PATCH", "/repos/alice/secret", BOB_TOKEN, { description: "mine" })).statusCode, 404);
    assert.equal((await s.send("DELETE", "/repos/alice/hello", ZOE_TOKEN)).statusCode, 403);
    const name = s.json(await s.send("PATCH", "/repos/alice/hello", ALICE_TOKEN, { name: "SECRET" }), 422);
    assert.deepEqual(
      [name.message, name.errors[0].message],
      ["Validation Failed", "name already exists on this account"],
    );
    const branch = s.json(await s.send("PATCH", "/repos/alice/hello", ALICE_TOKEN, { default_branch: " " }), 422);
    assert.deepEqual(
      branch.errors.map((e: Json) => [e.resource, e.field, e.code]),
      [["Repository", "default_branch", "invalid"]],
    );
    assert.equal(await s.written(), before);
  });

  test("a rename redirects the old name to /repositories/{id}: 301 for GET, 307 for a write", async () => {
    const res = await s.send("PATCH", "/repos/alice/hello", ALICE_TOKEN, { name: "hello-world" });
    const repo = s.json(res, 200);
    assert.equal(repo.full_name, "alice/hello-world");
    const deliveries = await s.delivered(2);
    const renamed = deliveries[1]!;
    assert.deepEqual([renamed.event, renamed.action], ["repository", "renamed"]);
    assert.deepEqual(renamed.body.changes, { repository: { name: { from: "hello" } } });
    assert.equal(renamed.body.repository.full_name, "alice/hello-world");

    const moved = await s.send("GET", "/repos/alice/hello?per_page=5", null);
    assert.equal(moved.statusCode, 301);
    const location = `http://localhost:80/repositories/${repo.id}?per_page=5`;
    assert.equal(moved.headers.location, location);
    assert.deepEqual(moved.json(), {
      message: "Moved Permanently",
      url: location,
      documentation_url: "https://docs.github.com/v3/#http-redirects",
    });
    const issues = await s.send("GET", "/repos/alice/hello/issues", null);
    assert.equal(issues.statusCode, 301);
    assert.equal(issues.headers.location, `http://localhost:80/repositories/${repo.id}/issues`);
    assert.equal((await s.t.app.inject({ method: "GET", url: issues.headers.location as string })).statusCode, 200);
    const write = await s.send("POST", "/repos/alice/hello/issues", ALICE_TOKEN, { title: "t" });
    assert.equal(write.statusCode, 307);
    assert.equal(write.headers.location, `http://localhost:80/repositories/${repo.id}/issues`);
    const stargazers = await s.send("GET", "/repos/alice/hello/stargazers", null);
    assert.equal(stargazers.statusCode, 301);
    assert.equal((await s.t.app.inject({ method: "GET", url: stargazers.headers.location as string })).statusCode, 200);
    const byId = s.json(await s.send("GET", `/repositories/${repo.id}`, null), 200);
    assert.deepEqual([byId.full_name, byId.description], ["alice/hello-world", "Hello, world"]);
    // A private repository's old name is no redirect to those who cannot see it.
    s.json(await s.send("PATCH", "/repos/alice/secret", ALICE_TOKEN, { name: "hidden" }), 200);
    assert.equal((await s.send("GET", "/repos/alice/secret", BOB_TOKEN)).statusCode, 404);
    assert.equal((await s.send("GET", "/repos/alice/secret", ALICE_TOKEN)).statusCode, 301);
    s.json(await s.send("PATCH", "/repos/alice/hidden", ALICE_TOKEN, { name: "secret" }), 200);
    assert.equal((await s.send("GET", "/repos/alice/secret", ALICE_TOKEN)).statusCode, 200);
  });

  test("made public: PublicEvent with an empty payload, `public` and repository.publicized; private again: privatized", async () => {
    const made = s.json(await s.send("POST", "/user/repos", ALICE_TOKEN, { name: "quiet", private: true }), 201);
    const open = s.json(await s.send("PATCH", "/repos/alice/quiet", ALICE_TOKEN, { visibility: "public" }), 200);
    assert.deepEqual([made.private, open.private, open.visibility], [true, false, "public"]);
    const [publicEvent] = await events("/repos/alice/quiet/events");
    assert.deepEqual([publicEvent!.type, publicEvent!.payload, publicEvent!.public], ["PublicEvent", {}, true]);
    assert.equal((await s.send("GET", "/repos/alice/quiet", BOB_TOKEN)).statusCode, 200);
    // On a hooked repository: the deliveries, in GitHub's order.
    const before = s.deliveries();
    s.json(await s.send("PATCH", "/repos/alice/hello-world", ALICE_TOKEN, { private: true }), 200);
    s.json(await s.send("PATCH", "/repos/alice/hello-world", ALICE_TOKEN, { private: false }), 200);
    const sent = (await s.delivered(before + 3)).slice(before).map((d) => [d.event, d.action]);
    assert.deepEqual(sent, [
      ["repository", "privatized"],
      ["public", undefined],
      ["repository", "publicized"],
    ]);
  });

  test("archived: every write to it or its issues and labels is 403, reads go on; unarchiving lifts it", async () => {
    const n = s.deliveries();
    const res = s.json(await s.send("PATCH", "/repos/alice/hello-world", ALICE_TOKEN, { archived: true }), 200);
    assert.equal(res.archived, true);
    await s.delivered(n + 1);
    const before = await s.written();
    for (const [method, url, payload] of [
      ["POST", "/repos/alice/hello-world/issues", { title: "t" }],
      ["POST", "/repos/alice/hello-world/labels", { name: "x" }],
      ["PATCH", "/repos/alice/hello-world", { description: "x" }],
      ["POST", "/repos/alice/hello-world/milestones", { title: "m" }],
    ] as const) {
      const body = s.json(await s.send(method, url, ALICE_TOKEN, payload), 403);
      assert.equal(body.message, "Repository was archived so is read-only.", url);
    }
    assert.equal((await s.send("GET", "/repos/alice/hello-world/issues", null)).statusCode, 200);
    assert.equal(await s.written(), before);
    const open = s.json(await s.send("PATCH", "/repos/alice/hello-world", ALICE_TOKEN, { archived: false }), 200);
    assert.equal(open.archived, false);
    const sent = (await s.delivered(n + 2)).slice(n).map((d) => [d.event, d.action]);
    assert.deepEqual(sent, [
      ["repository", "archived"],
      ["repository", "unarchived"],
    ]);
  });

  test("has_issues false: the issue routes answer GitHub's 410, labels stay", async () => {
    s.json(await s.send("PATCH", "/repos/alice/hello-world", ALICE_TOKEN, { has_issues: false }), 200);
    for (const [method, url] of [
      ["GET", "/repos/alice/hello-world/issues"],
      ["POST", "/repos/alice/hello-world/issues"],
      ["GET", "/repos/alice/hello-world/issues/comments"],
    ] as const) {
      const res = await s.send(method, url, ALICE_TOKEN, method === "POST" ? { title: "t" } : undefined);
      assert.equal(res.statusCode, 410, `${method} ${url}: ${res.body}`);
      assert.equal((res.json() as Json).message, "Issues are disabled for this repo");
    }
    assert.equal((await s.send("GET", "/repos/alice/hello-world/labels", null)).statusCode, 200);
    s.json(await s.send("PATCH", "/repos/alice/hello-world", ALICE_TOKEN, { has_issues: true }), 200);
    assert.equal((await s.send("GET", "/repos/alice/hello-world/issues", null)).statusCode, 200);
  });

  test("a fine-grained token creates with the account's administration permission, else GitHub's 403", async () => {
    const pat = async (permissions: Record<string, Record<string, string>>) => {
      const res = await s.t.app.inject({
        method: "POST",
        url: "/user/personal-access-tokens",
        headers: { authorization: `Basic ${Buffer.from("alice:alice-password").toString("base64")}` },
        payload: {
          name: `t${Object.keys(permissions.repository ?? {}).join()}`,
          repository_selection: "all",
          permissions,
        },
      });
      return (s.json(res, 201) as { token: string }).token;
    };
    const admin = await pat({ repository: { administration: "write" } });
    const issues = await pat({ repository: { issues: "write" } });
    const refused = s.json(await s.send("POST", "/user/repos", issues, { name: "by-token" }), 403);
    assert.equal(refused.message, "Resource not accessible by personal access token");
    assert.equal((await s.send("POST", "/orgs/acme/repos", admin, { name: "by-token" })).statusCode, 403);
    const made = s.json(await s.send("POST", "/user/repos", admin, { name: "by-token", private: true }), 201);
    assert.equal(made.full_name, "alice/by-token");
  });

  test("DELETE needs delete_repo and admin rights; it answers 204 and tells the organization's hooks only", async () => {
    const before = s.orgDeliveries();
    const refused = s.json(await s.send("DELETE", "/repos/acme/internal-tools", ALICE_TOKEN), 403);
    assert.equal(refused.message, "Must have admin rights to Repository.");
    const res = await s.t.app.inject({
      method: "DELETE",
      url: "/repos/acme/internal-tools",
      headers: { authorization: `Basic ${Buffer.from("alice:alice-password").toString("base64")}` },
    });
    assert.equal(res.statusCode, 204, res.body);
    const deleted = (await s.orgDelivered(before + 1)).at(-1)!;
    assert.deepEqual([deleted.event, deleted.action], ["repository", "deleted"]);
    assert.equal(deleted.body.repository.full_name, "acme/internal-tools");
    assert.equal((await s.send("GET", "/repos/acme/internal-tools", ALICE_TOKEN)).statusCode, 404);
    // Its CreateEvent (private) stays in the organization's dashboard for its members.
    const org = await events("/users/alice/events/orgs/acme?per_page=100");
    assert.ok(org.some((e) => e.type === "CreateEvent" && e.repo.name === "acme/internal-tools"));
    // The name is free again.
    s.json(await s.send("POST", "/orgs/acme/repos", ALICE_TOKEN, { name: "internal-tools" }), 201);
  });
});
