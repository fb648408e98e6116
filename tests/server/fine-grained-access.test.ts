/**
 * What a fine-grained token reaches, as GitHub answers it: `X-Accepted-GitHub-Permissions` (and no scope headers) on
 * every response; a private repository's feeds and hooks only when it is selected and the permission is held (404 when
 * not selected, 403 "Resource not accessible by personal access token" when selected without the permission); public
 * repositories readable by every token; organization hooks and the organization dashboard only to a token of that
 * organization. Through fetch and through Octokit 22, over a real socket, on the driver FEEDGATE_TEST_STORE names.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { Octokit } from "octokit-rest-latest";
import { basic, startTestApp, type TestApp } from "../helpers/test-app.js";
import { event, issueEvent } from "../helpers/events.js";
import { IngestService } from "../../src/server/services/ingest.js";

const ALICE = basic("alice", "alice-password");
const NOT_ACCESSIBLE = "Resource not accessible by personal access token";

describe("fine-grained tokens: what they reach", () => {
  let t: TestApp;
  let url: string;
  const call = (method: string, path: string, token: string, body?: unknown) =>
    fetch(`${url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const ids = async (res: Response) => ((await res.json()) as { id: string }[]).map((e) => e.id);
  /** A new fine-grained token of alice's. */
  const pat = async (body: Record<string, unknown>) => {
    const res = await fetch(`${url}/user/personal-access-tokens`, {
      method: "POST",
      headers: { authorization: ALICE, "content-type": "application/json" },
      body: JSON.stringify({ name: "t", ...body }),
    });
    assert.equal(res.status, 201, await res.clone().text());
    return ((await res.json()) as { token: string }).token;
  };
  const acme = (selection: string, permissions: Record<string, Record<string, string>> = {}, repositories?: string[]) =>
    pat({
      resource_owner: "acme",
      repository_selection: selection,
      permissions,
      ...(repositories ? { repositories } : {}),
    });

  before(async () => {
    t = await startTestApp();
    await new IngestService(t.store, t.clock.now).seedWorld(
      {
        users: [
          { login: "alice", password: "alice-password" },
          { login: "bob", password: "bob-password" },
        ],
        orgs: [{ login: "acme", owners: ["alice"] }],
        repos: [
          { full_name: "acme/api", private: true },
          { full_name: "acme/site" },
          { full_name: "acme/vault", private: true },
          { full_name: "alice/hello" },
          { full_name: "alice/secret", private: true },
        ],
        tokens: [
          {
            user: "alice",
            token: "a11ce00000000000000000000000000000000001",
            scopes: ["repo", "admin:org_hook"],
            note: "classic",
          },
        ],
        events: [
          event("1", "PushEvent", "alice", "acme/api", {
            public: false,
            org: { login: "acme" },
            created_at: "2026-01-14T00:01:00Z",
          }),
          event("2", "PushEvent", "alice", "acme/site", { org: { login: "acme" }, created_at: "2026-01-14T00:02:00Z" }),
          event("3", "PushEvent", "alice", "alice/secret", { public: false, created_at: "2026-01-14T00:03:00Z" }),
          event("4", "PushEvent", "alice", "acme/vault", {
            public: false,
            org: { login: "acme" },
            created_at: "2026-01-14T00:04:00Z",
          }),
        ],
        issue_events: [issueEvent("acme/api", "11", "closed", "alice", { created_at: "2026-01-14T00:05:00Z" })],
      },
      { baseDir: undefined },
    );
    url = await t.app.listen({ port: 0, host: "127.0.0.1" });
  });
  after(() => t.close());

  test("each response names the permissions its operation accepts, as GitHub writes them, and no scopes", async () => {
    const token = await acme("all", {
      repository: { repository_hooks: "write", issues: "read" },
      organization: { organization_hooks: "write" },
    });
    const header = async (method: string, path: string, body?: unknown) => {
      const res = await call(method, path, token, body);
      assert.equal(res.headers.get("x-oauth-scopes"), null, `${method} ${path}`);
      assert.equal(res.headers.get("x-accepted-oauth-scopes"), null, `${method} ${path}`);
      return res.headers.get("x-accepted-github-permissions");
    };
    assert.equal(await header("GET", "/events"), "allows_permissionless_access=true");
    assert.equal(await header("GET", "/user"), "allows_permissionless_access=true");
    assert.equal(await header("GET", "/users/alice/received_events"), "allows_permissionless_access=true");
    assert.equal(await header("GET", "/repos/acme/api"), "metadata=read");
    assert.equal(await header("GET", "/repos/acme/api/events"), "metadata=read");
    assert.equal(await header("GET", "/repos/acme/api/issues/events"), "issues=read");
    assert.equal(await header("GET", "/users/alice/events/orgs/acme"), "organization_events=read");
    assert.equal(await header("GET", "/repos/acme/api/hooks"), "repository_hooks=read");
    assert.equal(
      await header("POST", "/repos/acme/api/hooks", { config: { url: "https://example.com/" }, active: false }),
      "repository_hooks=write",
    );
    assert.equal(
      await header("POST", "/repos/acme/api/hooks/999/pings"),
      "repository_hooks=read",
      "GitHub: a repository ping reads",
    );
    assert.equal(
      await header("POST", "/orgs/acme/hooks/999/pings"),
      "organization_hooks=write",
      "an organization's ping writes",
    );
    assert.equal(await header("GET", "/repos/acme/nope/events"), "metadata=read", "on errors too");

    const classic = await fetch(`${url}/repos/acme/api`, {
      headers: { authorization: "token a11ce00000000000000000000000000000000001" },
    });
    assert.equal(classic.headers.get("x-accepted-github-permissions"), null, "a classic token gets scopes instead");
    assert.equal(classic.headers.get("x-oauth-scopes"), "repo, admin:org_hook");
  });

  test("a private repository is there only when selected: 404 otherwise, its events and metadata when it is", async () => {
    const selected = await acme("subset", {}, ["acme/api"]);
    const everything = await acme("all");
    const publicOnly = await acme("none");
    const mine = await pat({ repository_selection: "all" });
    assert.equal((await call("GET", "/repos/acme/api", selected)).status, 200);
    assert.deepEqual(await ids(await call("GET", "/repos/acme/api/events", selected)), ["1"]);
    assert.equal((await call("GET", "/repos/acme/vault/events", selected)).status, 404, "not selected");
    assert.deepEqual(await ids(await call("GET", "/repos/acme/vault/events", everything)), ["4"]);
    for (const token of [publicOnly, mine]) {
      assert.equal((await call("GET", "/repos/acme/api", token)).status, 404);
      assert.equal((await call("GET", "/repos/acme/api/events", token)).status, 404);
    }
    // Public repositories, of any owner, are readable by every token.
    for (const token of [selected, publicOnly, mine]) {
      assert.deepEqual(await ids(await call("GET", "/repos/acme/site/events", token)), ["2"]);
      assert.equal((await call("GET", "/repos/alice/hello", token)).status, 200);
    }
    assert.equal(
      (await call("GET", "/repos/alice/secret", selected)).status,
      404,
      "another owner's private repository",
    );
    assert.deepEqual(await ids(await call("GET", "/repos/alice/secret/events", mine)), ["3"]);
  });

  test("a selected repository without the operation's permission is 403, with GitHub's body", async () => {
    const withoutIssues = await acme("subset", {}, ["acme/api"]);
    const withIssues = await acme("subset", { repository: { issues: "read" } }, ["acme/api"]);
    const res = await call("GET", "/repos/acme/api/issues/events", withoutIssues);
    assert.equal(res.status, 403);
    const body = (await res.json()) as Record<string, string>;
    assert.deepEqual([body.message, body.status], [NOT_ACCESSIBLE, "403"]);
    assert.match(body.documentation_url!, /^https:\/\//);
    assert.deepEqual(await ids(await call("GET", "/repos/acme/api/issues/events", withIssues)), ["11"]);
  });

  test("a private repository's code needs the Contents permission: Metadata shows the repository, not its files", async () => {
    const metadataOnly = await acme("subset", {}, ["acme/api"]);
    const withContents = await acme("subset", { repository: { contents: "read" } }, ["acme/api"]);
    const refused = await call("GET", "/repos/acme/api/contents/README.md", metadataOnly);
    assert.equal(refused.status, 403);
    assert.equal(refused.headers.get("x-accepted-github-permissions"), "contents=read");
    assert.equal(((await refused.json()) as { message: string }).message, NOT_ACCESSIBLE);
    assert.equal((await call("GET", "/repos/acme/api", metadataOnly)).status, 200);
    // Read, it is an empty repository: GitHub's 404 for its contents, past the permission check.
    const read = await call("GET", "/repos/acme/api/contents/README.md", withContents);
    assert.deepEqual(
      [read.status, ((await read.json()) as { message: string }).message],
      [404, "This repository is empty."],
    );
  });

  test("feeds across owners show a fine-grained token public events only; the organization dashboard needs its Events permission", async () => {
    const mine = await pat({ repository_selection: "all" });
    assert.deepEqual(
      (await ids(await call("GET", "/users/alice/events", mine))).sort(),
      ["2"],
      "alice's private events are on several owners' repositories",
    );
    const classic = await fetch(`${url}/users/alice/events`, {
      headers: { authorization: "token a11ce00000000000000000000000000000000001" },
    });
    assert.deepEqual((await ids(classic)).sort(), ["1", "2", "3", "4"], "a classic repo token sees them");

    const noEvents = await acme("all");
    const dashboard = await call("GET", "/users/alice/events/orgs/acme", noEvents);
    assert.equal(dashboard.status, 403);
    assert.equal(((await dashboard.json()) as { message: string }).message, NOT_ACCESSIBLE);
    assert.equal((await call("GET", "/users/alice/events/orgs/acme", mine)).status, 403, "a token of another owner");
    const all = await acme("all", { organization: { organization_events: "read" } });
    assert.deepEqual((await ids(await call("GET", "/users/alice/events/orgs/acme", all))).sort(), ["1", "2", "4"]);
    const some = await acme("subset", { organization: { organization_events: "read" } }, ["acme/api"]);
    assert.deepEqual(
      await ids(await call("GET", "/users/alice/events/orgs/acme", some)),
      ["2"],
      "with some repositories selected, the dashboard shows public events only",
    );
  });

  test("repository hooks: read and write as the permission says, only on selected repositories; nothing changes on refusal", async () => {
    const hooksOf = async () =>
      ((await (await fetch(`${url}/repos/acme/api/hooks`, { headers: { authorization: ALICE } })).json()) as unknown[])
        .length;
    const create = (token: string, repo = "acme/api") =>
      call("POST", `/repos/${repo}/hooks`, token, { config: { url: "https://receiver.example/" }, active: false });
    const reader = await acme("subset", { repository: { repository_hooks: "read" } }, ["acme/api"]);
    const writer = await acme("subset", { repository: { repository_hooks: "write" } }, ["acme/api"]);
    const none = await acme("subset", {}, ["acme/api"]);
    const before = await hooksOf();
    assert.equal((await call("GET", "/repos/acme/api/hooks", reader)).status, 200);
    for (const token of [reader, none]) {
      const refused = await create(token);
      assert.equal(refused.status, 403);
      assert.equal(((await refused.json()) as { message: string }).message, NOT_ACCESSIBLE);
    }
    assert.equal((await call("GET", "/repos/acme/api/hooks", none)).status, 403);
    assert.equal(await hooksOf(), before);
    assert.equal((await create(writer, "acme/vault")).status, 404, "a private repository not selected");
    assert.equal((await create(writer, "acme/site")).status, 403, "a public repository not selected");
    assert.equal((await create(writer)).status, 201);
    assert.equal(await hooksOf(), before + 1);
  });

  test("organization hooks need the organization's own token with its Webhooks permission", async () => {
    const create = (token: string) =>
      call("POST", "/orgs/acme/hooks", token, {
        name: "web",
        config: { url: "https://receiver.example/" },
        active: false,
      });
    const mine = await pat({ repository_selection: "all" });
    const repoOnly = await acme("all", { repository: { repository_hooks: "write" } });
    const reader = await acme("none", { organization: { organization_hooks: "read" } });
    const writer = await acme("none", { organization: { organization_hooks: "write" } });
    for (const token of [mine, repoOnly, reader]) assert.equal((await create(token)).status, 403);
    assert.equal((await call("GET", "/orgs/acme/hooks", reader)).status, 200);
    assert.equal((await call("GET", "/orgs/acme/hooks", repoOnly)).status, 403);
    assert.equal((await create(writer)).status, 201);
  });

  test("Octokit 22 reads the permissions header from a refusal and works with a token that holds them", async () => {
    const reader = new Octokit({ baseUrl: url, auth: await acme("subset", {}, ["acme/api"]) });
    await assert.rejects(
      reader.rest.repos.createWebhook({
        owner: "acme",
        repo: "api",
        config: { url: "https://receiver.example/" },
        active: false,
      }),
      (error: { status: number; message: string; response: { headers: Record<string, string> } }) => {
        assert.equal(error.status, 403);
        assert.match(error.message, /Resource not accessible by personal access token/);
        assert.equal(error.response.headers["x-accepted-github-permissions"], "repository_hooks=write");
        return true;
      },
    );
    const writer = new Octokit({
      baseUrl: url,
      auth: await acme("subset", { repository: { repository_hooks: "write" } }, ["acme/api"]),
    });
    const { data, headers } = await writer.rest.repos.listWebhooks({ owner: "acme", repo: "api" });
    assert.ok(Array.isArray(data));
    assert.equal(headers["x-accepted-github-permissions"], "repository_hooks=read");
    const events = await writer.rest.activity.listRepoEvents({ owner: "acme", repo: "api" });
    assert.deepEqual(
      events.data.map((e) => e.id),
      ["1"],
    );
  });
});
