import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { startTestApp, type TestApp } from "../helpers/test-app.js";
import { IngestService } from "../../src/server/services/ingest.js";

/** A complete envelope, as GH Archive has it: GitHub's ids for the actor, repository and organization. */
const gharchiveEvent = {
  id: "17244207337",
  type: "CreateEvent",
  actor: {
    id: 33440610,
    login: "jwhan77",
    display_login: "jwhan77",
    gravatar_id: "",
    url: "https://api.github.com/users/jwhan77",
    avatar_url: "https://avatars.githubusercontent.com/u/33440610?",
  },
  repo: { id: 379773947, name: "RobolinkInc/Zumi", url: "https://api.github.com/repos/RobolinkInc/Zumi" },
  payload: { ref: "1.71", ref_type: "branch" },
  public: true,
  created_at: "2021-07-21T06:00:00Z",
  org: {
    id: 39782173,
    login: "RobolinkInc",
    gravatar_id: "",
    url: "https://api.github.com/orgs/RobolinkInc",
    avatar_url: "https://avatars.githubusercontent.com/u/39782173?",
  },
};

describe("GitHub's id-based feed paths", () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ baseUrl: "https://feedgate.example" });
    await new IngestService(t.store, t.clock.now).seedWorld(
      {
        users: [{ login: "alice", following: ["jwhan77"] }],
        repos: [{ full_name: "alice/secret", private: true }],
        events: [
          gharchiveEvent,
          {
            id: "5",
            type: "PushEvent",
            actor: { login: "alice" },
            repo: { name: "alice/secret" },
            payload: {},
            public: false,
            created_at: "2021-07-21T07:00:00Z",
          },
        ],
      },
      { baseDir: undefined },
    );
  });
  after(() => t.close());

  const ids = async (url: string) => {
    const res = await t.app.inject({ url });
    assert.equal(res.statusCode, 200, `${url}: ${res.body}`);
    return (res.json() as { id: string }[]).map((e) => e.id);
  };

  test("serve the same feeds as the named paths, found by GitHub's ids", async () => {
    const cases: [string, string][] = [
      ["/repositories/379773947/events", "/repos/RobolinkInc/Zumi/events"],
      ["/organizations/39782173/events", "/orgs/RobolinkInc/events"],
      ["/user/33440610/events", "/users/jwhan77/events"],
      ["/user/33440610/events/public", "/users/jwhan77/events/public"],
    ];
    for (const [byId, byName] of cases) {
      assert.deepEqual(await ids(byId), await ids(byName), byId);
      assert.deepEqual(await ids(byId), ["17244207337"], byId);
    }
  });

  test("find accounts that came without a GitHub id by their own id", async () => {
    const alice = await t.store.users.findByLogin("alice");
    assert.deepEqual(await ids(`/user/${alice!.wireId}/received_events/public`), ["17244207337"]);
  });

  test("keep the id form in Link headers", async () => {
    const res = await t.app.inject({ url: "/user/33440610/events?per_page=1&page=2" });
    assert.equal(
      res.headers.link,
      '<https://feedgate.example/user/33440610/events?per_page=1&page=1>; rel="prev", ' +
        '<https://feedgate.example/user/33440610/events?per_page=1&page=1>; rel="first"',
    );
  });

  test("answer 404 for unknown ids, and for private repositories the caller cannot read", async () => {
    const secret = await t.store.directory.findRepo("alice", "secret");
    for (const url of [
      "/repositories/999999/events",
      "/user/1234567890123456789/events",
      `/repositories/${secret!.wireId}/events`,
      `/repositories/${secret!.wireId}/issues/events`,
    ]) {
      const res = await t.app.inject({ url });
      assert.equal(res.statusCode, 404, url);
      assert.equal(res.json().message, "Not Found");
    }
  });

  test("a path whose id is not a number is no id path: the 404 of a route feedgate does not implement", async () => {
    for (const url of ["/user/abc/events", "/organizations/-1/events"]) {
      const res = await t.app.inject({ url });
      assert.equal(res.statusCode, 404, url);
      assert.equal(res.json().message, `Not Found: feedgate does not implement GET ${url}`);
      assert.equal(res.headers["x-feedgate-unimplemented"], "true");
    }
  });

  test("an organization's id path is 404 for a user's id", async () => {
    assert.equal((await t.app.inject({ url: "/organizations/33440610/events" })).statusCode, 404);
  });
});
