/**
 * The caller's issues across repositories: `GET /issues` (owned, collaborated on, and its organizations'),
 * `/user/issues` (without the organizations') and `/orgs/{org}/issues`, by GitHub's `filter`, `state`, `labels`,
 * `sort`, `direction` and `since`; private repositories only for those who may read them; 401 without credentials.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { startTestApp, type TestApp } from "../helpers/test-app.js";
import { IngestService } from "../../src/server/services/ingest.js";
import { assertSchema } from "../compat/schemas.js";

const WORLD = {
  users: [{ login: "mona" }, { login: "hubot" }, { login: "stranger" }],
  orgs: [{ login: "acme", members: ["mona"] }],
  repos: [
    { full_name: "mona/own" },
    { full_name: "hubot/tools", collaborators: ["mona"] },
    { full_name: "acme/site", private: true },
    { full_name: "stranger/elsewhere" },
  ],
  issues: [
    {
      repo: "mona/own",
      number: 1,
      user: "hubot",
      title: "Assigned to mona",
      assignees: ["mona"],
      created_at: "2026-01-01T10:00:00Z",
    },
    {
      repo: "mona/own",
      number: 2,
      user: "mona",
      title: "By mona",
      labels: ["bug"],
      created_at: "2026-01-02T10:00:00Z",
    },
    {
      repo: "hubot/tools",
      number: 1,
      user: "hubot",
      title: "Ping @mona",
      body: "cc @mona",
      created_at: "2026-01-03T10:00:00Z",
    },
    {
      repo: "acme/site",
      number: 1,
      user: "hubot",
      title: "Org work",
      assignees: ["mona"],
      created_at: "2026-01-04T10:00:00Z",
    },
    {
      repo: "stranger/elsewhere",
      number: 1,
      user: "stranger",
      title: "Not mona's",
      assignees: ["stranger"],
      created_at: "2026-01-05T10:00:00Z",
    },
    {
      repo: "mona/own",
      number: 3,
      user: "mona",
      title: "Closed",
      state: "closed",
      assignees: ["mona"],
      created_at: "2026-01-06T10:00:00Z",
    },
  ],
};

describe("the caller's issues: GET /issues, /user/issues, /orgs/{org}/issues", () => {
  let t: TestApp;
  let mona: string;
  const titles = async (url: string, token = mona) => {
    const res = await t.app.inject({ method: "GET", url, headers: { authorization: `token ${token}` } });
    assert.equal(res.statusCode, 200, `${url}: ${res.body}`);
    return (res.json() as { title: string }[]).map((i) => i.title);
  };

  before(async () => {
    t = await startTestApp();
    await new IngestService(t.store, t.clock.now).seedWorld(WORLD, { baseDir: undefined });
    mona = (await t.createToken((await t.store.users.findByLogin("mona"))!, ["repo"])).token;
  });
  after(() => t.close());

  test("GET /issues: assigned by default, across owned, collaborated and organization repositories, newest first", async () => {
    assert.deepEqual(await titles("/issues"), ["Org work", "Assigned to mona"]);
    assert.deepEqual(await titles("/issues?state=all"), ["Closed", "Org work", "Assigned to mona"]);
    assert.deepEqual(await titles("/issues?filter=created"), ["By mona"]);
    assert.deepEqual(await titles("/issues?filter=mentioned"), ["Ping @mona"]);
    assert.deepEqual(await titles("/issues?filter=subscribed&direction=asc"), [
      "Assigned to mona",
      "By mona",
      "Ping @mona",
      "Org work",
    ]);
    assert.deepEqual(await titles("/issues?filter=all&labels=bug"), ["By mona"]);
    assert.deepEqual(await titles("/issues?filter=all&since=2026-01-03T00:00:00Z"), ["Org work", "Ping @mona"]);
  });

  test("/user/issues leaves organizations out; /orgs/{org}/issues is the organization's", async () => {
    assert.deepEqual(await titles("/user/issues"), ["Assigned to mona"]);
    assert.deepEqual(await titles("/orgs/acme/issues"), ["Org work"]);
    const token = (await t.createToken((await t.store.users.findByLogin("stranger"))!, ["repo"])).token;
    assert.deepEqual(await titles("/orgs/acme/issues?filter=all", token), [], "a private repository it cannot read");
  });

  test("each item carries its repository's object, as GitHub adds it to these lists", async () => {
    for (const url of ["/issues?filter=all&state=all", "/user/issues?filter=all", "/orgs/acme/issues?filter=all"]) {
      const res = await t.app.inject({ method: "GET", url, headers: { authorization: `token ${mona}` } });
      const items = res.json() as { title: string; repository_url: string; repository: Record<string, unknown> }[];
      assert.ok(items.length > 0, url);
      assertSchema("issue", items, url);
      for (const item of items) {
        assert.equal(item.repository.url, item.repository_url, `${url} ${item.title}`);
        assertSchema("minimal-repository", item.repository, `${url} ${item.title}: repository`);
      }
    }
    const [org] = (
      await t.app.inject({ method: "GET", url: "/orgs/acme/issues", headers: { authorization: `token ${mona}` } })
    ).json() as { repository: { full_name: string; private: boolean; owner: { login: string } } }[];
    assert.deepEqual(
      [org!.repository.full_name, org!.repository.private, org!.repository.owner.login],
      ["acme/site", true, "acme"],
    );
  });

  test("401 without credentials, 404 for an organization that does not exist, 422 for a bad filter", async () => {
    assert.equal((await t.app.inject({ method: "GET", url: "/issues" })).statusCode, 401);
    const headers = { authorization: `token ${mona}` };
    assert.equal((await t.app.inject({ method: "GET", url: "/orgs/nowhere/issues", headers })).statusCode, 404);
    assert.equal((await t.app.inject({ method: "GET", url: "/issues?filter=everything", headers })).statusCode, 422);
  });
});
