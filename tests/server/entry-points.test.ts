/**
 * The entry-point resources GitHub clients fetch before the feeds (issue 14): `/`, `/user`, `/users/:user`,
 * `/user/:id`, `/orgs/:org`, `/organizations/:id`, `/repos/:user/:repo`, `/repositories/:id`, `/rate_limit` and
 * `/meta`, over inject, on the driver FEEDGATE_TEST_STORE names. Every body validates against GitHub's published
 * schema; counts are the world's relations; ids are the ones the same accounts and repositories carry in events.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import type { InjectOptions } from "fastify";
import { basic, startTestApp, TestClock, type TestApp } from "../helpers/test-app.js";
import { IngestService } from "../../src/server/services/ingest.js";
import { event } from "../helpers/events.js";
import { endpoints } from "../../src/api/endpoints.js";
import { assertSchema } from "../compat/schemas.js";

const BASE = "https://feedgate.example/api/v3";
const NOT_FOUND = { message: "Not Found", documentation_url: "https://developer.github.com/v3" };
const OTP_SECRET = "JBSWY3DPEHPK3PXPJBSWY3DP";
const at = (minute: number) => `2026-01-14T10:${String(minute).padStart(2, "0")}:00Z`;

/** alice's and alice/hello's GitHub ids, from a complete envelope: the resources must show the same ones. */
const ALICE_ID = 9001;
const HELLO_ID = 7001;
const CREATE_HELLO = {
  id: "101",
  type: "CreateEvent",
  actor: {
    id: ALICE_ID,
    login: "alice",
    display_login: "alice",
    gravatar_id: "",
    url: "https://api.github.com/users/alice",
    avatar_url: "https://avatars.githubusercontent.com/u/9001?",
  },
  repo: { id: HELLO_ID, name: "alice/hello", url: "https://api.github.com/repos/alice/hello" },
  payload: { ref: null, ref_type: "repository", master_branch: "main", description: null, pusher_type: "user" },
  public: true,
  created_at: at(1),
};

const TOKENS = {
  alice: "a11ce00000000000000000000000000000000001",
  alicePublic: "a11ce00000000000000000000000000000000002",
  bob: "b0b0000000000000000000000000000000000001",
  carol: "ca10100000000000000000000000000000000001",
  dave: "da7e000000000000000000000000000000000001",
};

const WORLD = {
  users: [
    { login: "alice", password: "alice-password", following: ["bob", "carol"], watching: ["bob/tools"] },
    { login: "bob", password: "bob-password", following: ["alice"], watching: ["alice/hello"] },
    {
      login: "carol",
      password: "carol-password",
      otp_secret: OTP_SECRET,
      following: ["alice", "acme"],
      watching: ["alice/hello"],
    },
    { login: "dave", password: "dave-password" },
    { login: "erin", password: "erin-password" },
  ],
  // carol owns acme (GitHub's admin role); erin is a plain member.
  orgs: [{ login: "acme", members: ["erin"], owners: ["carol"] }],
  repos: [
    { full_name: "alice/hello" },
    { full_name: "alice/secret", private: true, collaborators: ["bob"] },
    { full_name: "acme/site" },
    { full_name: "acme/vault", private: true },
    { full_name: "bob/hello", fork_of: "alice/hello" },
    { full_name: "dave/hello", fork_of: "bob/hello" },
    { full_name: "bob/tools" },
    { full_name: "carol/hidden", private: true },
    { full_name: "carol/open", fork_of: "carol/hidden" },
  ],
  tokens: [
    { user: "alice", token: TOKENS.alice, scopes: ["repo", "user"], note: "alice" },
    { user: "alice", token: TOKENS.alicePublic, scopes: [], note: "alice public" },
    { user: "bob", token: TOKENS.bob, scopes: ["repo"], note: "bob" },
    { user: "carol", token: TOKENS.carol, scopes: ["repo"], note: "carol" },
    { user: "dave", token: TOKENS.dave, scopes: ["repo"], note: "dave" },
  ],
  events: [
    CREATE_HELLO,
    event(102, "PushEvent", "alice", "alice/hello", { created_at: at(5) }),
    event(103, "IssuesEvent", "bob", "alice/hello", { created_at: at(9) }),
    event(104, "PushEvent", "alice", "alice/secret", { created_at: at(7), public: false }),
  ],
};

const token = (name: keyof typeof TOKENS) => ({ authorization: `token ${TOKENS[name]}` });

describe("entry-point resources", () => {
  let t: TestApp;
  const get = (url: string, headers: InjectOptions["headers"] = {}) => t.app.inject({ method: "GET", url, headers });

  before(async () => {
    t = await startTestApp({ baseUrl: BASE, rateLimitAnonymous: 10_000 });
    await new IngestService(t.store, t.clock.now).seedWorld(WORLD, { baseDir: undefined });
  });
  after(() => t.close());

  test("GET / is GitHub's root document, its URL templates at the base URL", async () => {
    const res = await get("/");
    assert.equal(res.statusCode, 200);
    const body = res.json();
    assertSchema("root", body);
    assert.equal(body.current_user_url, `${BASE}/user`);
    assert.equal(body.repository_url, `${BASE}/repos/{owner}/{repo}`);
    assert.equal(body.user_url, `${BASE}/users/{user}`);
    assert.equal(body.rate_limit_url, `${BASE}/rate_limit`);
    assert.ok(res.headers.etag);
    assert.equal(res.headers["x-ratelimit-resource"], "core");
  });

  test("GET /meta is GitHub Enterprise's api-overview", async () => {
    const res = await get("/meta");
    assert.equal(res.statusCode, 200);
    assertSchema("api-overview", res.json());
    assert.deepEqual(res.json(), { verifiable_password_authentication: true });
  });

  test("GET /user is the caller's private-user, with its real counts and X-OAuth-Scopes", async () => {
    const res = await get("/user", token("alice"));
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers["x-oauth-scopes"], "repo, user");
    assert.equal(res.headers["x-accepted-oauth-scopes"], "");
    const body = res.json();
    assertSchema("private-user", body);
    assert.equal(body.login, "alice");
    assert.equal(body.id, ALICE_ID);
    assert.equal(body.type, "User");
    assert.equal(body.url, `${BASE}/users/alice`);
    assert.equal(body.html_url, "https://feedgate.example/alice");
    assert.deepEqual([body.followers, body.following, body.public_repos], [2, 2, 1]);
    assert.deepEqual(
      [body.owned_private_repos, body.total_private_repos, body.two_factor_authentication],
      [1, 1, false],
    );
    assert.deepEqual([body.name, body.email, body.bio, body.public_gists], [null, null, null, 0]);
    assert.match(body.created_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);

    const password = await get("/user", { authorization: basic("alice", "alice-password") });
    assert.equal(password.statusCode, 200);
    assert.deepEqual(password.json(), body);
    assert.equal((await get("/user", token("carol"))).json().two_factor_authentication, true);
  });

  test("GET /user without credentials is 401 Requires authentication; bad credentials are 401 Bad credentials", async () => {
    const res = await get("/user");
    assert.equal(res.statusCode, 401);
    assert.deepEqual(res.json(), {
      message: "Requires authentication",
      documentation_url: endpoints.users.getAuthenticated.documentationUrl,
    });
    assert.ok(res.headers["x-ratelimit-limit"]);
    const bad = await get("/user", { authorization: "token nope" });
    assert.equal(bad.statusCode, 401);
    assert.equal(bad.json().message, "Bad credentials");
  });

  test("GET /users/:user is a public-user whose id is the actor id of the user's events", async () => {
    const res = await get("/users/alice");
    assert.equal(res.statusCode, 200);
    const body = res.json();
    assertSchema("public-user", body);
    const events = (await get("/users/alice/events/public")).json() as { actor: { id: number } }[];
    assert.ok(events.length > 0);
    for (const event of events) assert.equal(event.actor.id, body.id);
    assert.deepEqual(
      [body.login, body.id, body.followers, body.following, body.public_repos],
      ["alice", ALICE_ID, 2, 2, 1],
    );
    assert.equal("two_factor_authentication" in body, false, "private fields only on /user");

    const bob = (await get("/users/BOB")).json();
    assertSchema("public-user", bob);
    assert.deepEqual([bob.login, bob.followers, bob.following, bob.public_repos], ["bob", 1, 1, 2]);
  });

  test("GET /users/:org answers for organizations too, with type Organization", async () => {
    const res = await get("/users/acme");
    assert.equal(res.statusCode, 200);
    assertSchema("public-user", res.json());
    assert.deepEqual([res.json().type, res.json().public_repos, res.json().followers], ["Organization", 1, 1]);
  });

  test("GET /user/:id is the same user by GitHub's id; unknown logins and ids are 404", async () => {
    const byId = await get(`/user/${ALICE_ID}`);
    assert.equal(byId.statusCode, 200);
    assert.deepEqual(byId.json(), (await get("/users/alice")).json());
    for (const url of ["/users/nobody", "/user/987654321"]) {
      const res = await get(url);
      assert.equal(res.statusCode, 404, url);
      assert.deepEqual(res.json(), NOT_FOUND, url);
    }
    // Not a number: not the id form, but another of GitHub's /user/... routes, which feedgate does not serve.
    assert.deepEqual((await get("/user/x1")).json(), {
      ...NOT_FOUND,
      message: "Not Found: feedgate does not implement GET /user/x1",
    });
  });

  test("GET /orgs/:org is an organization-full with real counts; a user's login is 404", async () => {
    const res = await get("/orgs/acme");
    assert.equal(res.statusCode, 200);
    const body = res.json();
    assertSchema("organization-full", body);
    assert.deepEqual(
      [body.login, body.type, body.public_repos, body.followers, body.following],
      ["acme", "Organization", 1, 1, 0],
    );
    assert.equal(body.url, `${BASE}/orgs/acme`);
    assert.equal(body.events_url, `${BASE}/orgs/acme/events`);
    const byId = await get(`/organizations/${body.id}`);
    assert.equal(byId.statusCode, 200);
    assert.deepEqual(byId.json(), body);
    for (const url of ["/orgs/alice", "/orgs/nobody", `/organizations/${ALICE_ID}`]) {
      assert.deepEqual([(await get(url)).statusCode, (await get(url)).json()], [404, NOT_FOUND], url);
    }
  });

  test("GET /repos/:user/:repo is a full-repository with GitHub's id, real counts and the stored events' times", async () => {
    const res = await get("/repos/alice/hello");
    assert.equal(res.statusCode, 200);
    const body = res.json();
    assertSchema("full-repository", body);
    const events = (await get("/repos/alice/hello/events")).json() as { repo: { id: number } }[];
    for (const event of events) assert.equal(event.repo.id, body.id);
    assert.deepEqual(
      [body.id, body.name, body.full_name, body.private, body.fork, body.visibility],
      [HELLO_ID, "hello", "alice/hello", false, false, "public"],
    );
    assert.equal(body.owner.login, "alice");
    assert.equal(body.owner.id, ALICE_ID);
    assertSchema("simple-user", body.owner);
    assert.equal(body.url, `${BASE}/repos/alice/hello`);
    assert.equal(body.clone_url, "https://feedgate.example/alice/hello.git");
    // bob and carol star it (a world's watching is GitHub's star), none subscribes; bob/hello forks it, and dave/hello
    // forks bob/hello.
    assert.deepEqual([body.stargazers_count, body.watchers_count, body.watchers, body.subscribers_count], [2, 2, 2, 0]);
    assert.deepEqual([body.forks_count, body.forks, body.network_count], [1, 1, 2]);
    assert.deepEqual([body.created_at, body.pushed_at, body.updated_at], [at(1), at(5), at(9)]);
    assert.equal("permissions" in body, false, "no permissions for anonymous callers");
    assert.equal("parent" in body || "source" in body || "organization" in body, false);

    const byId = await get(`/repositories/${HELLO_ID}`);
    assert.equal(byId.statusCode, 200);
    assert.deepEqual(byId.json(), body);
  });

  test("an organization's repository names its organization", async () => {
    const body = (await get("/repos/acme/site")).json();
    assertSchema("full-repository", body);
    assert.equal(body.organization.login, "acme");
    assert.equal(body.organization.type, "Organization");
    // No stored event: the epoch, which the schema allows where null it does not.
    assert.deepEqual([body.created_at, body.pushed_at], ["1970-01-01T00:00:00Z", "1970-01-01T00:00:00Z"]);
  });

  test("a fork shows its parent and its network's source", async () => {
    const body = (await get("/repos/dave/hello")).json();
    assertSchema("full-repository", body);
    assert.equal(body.fork, true);
    assert.equal(body.parent.full_name, "bob/hello");
    assert.equal(body.parent.fork, true);
    assert.equal(body.source.full_name, "alice/hello");
    assert.equal(body.source.id, HELLO_ID);
    assert.equal(body.source.stargazers_count, 2);
    assert.equal(body.network_count, 2);
    const bobs = (await get("/repos/bob/hello")).json();
    assert.deepEqual(
      [bobs.parent.full_name, bobs.source.full_name, bobs.forks_count],
      ["alice/hello", "alice/hello", 1],
    );
  });

  test("an organization's owner with admin:org sees its plan and settings; others, members too, see what everyone sees", async () => {
    const carol = await t.store.users.findByLogin("carol");
    const admin = { authorization: `token ${(await t.createToken(carol!, ["admin:org"])).token}` };
    const member = (await get("/orgs/acme", admin)).json();
    assertSchema("organization-full", member);
    assert.deepEqual(
      [
        member.plan.name,
        member.default_repository_permission,
        member.members_can_create_repositories,
        member.two_factor_requirement_enabled,
        member.billing_email,
        member.total_private_repos,
      ],
      ["free", "read", true, false, null, 1],
    );
    assert.equal(member.secret_scanning_push_protection_custom_link_enabled, false);
    const erin = await t.store.users.findByLogin("erin");
    const memberWithAdminOrg = { authorization: `token ${(await t.createToken(erin!, ["admin:org"])).token}` };
    for (const [who, headers] of [
      ["anonymous", {}],
      ["an owner without admin:org", token("carol")],
      ["a non-member", token("alice")],
      ["a member (not an owner) with admin:org", memberWithAdminOrg],
      ["a member with a password", { authorization: basic("erin", "erin-password") }],
    ] as const) {
      const seen = (await get("/orgs/acme", headers)).json();
      assertSchema("organization-full", seen);
      assert.deepEqual(
        [seen.name, seen.company, seen.is_verified, seen.twitter_username],
        ["acme", "", false, null],
        who,
      );
      for (const key of ["plan", "billing_email", "total_private_repos", "members_can_create_repositories"])
        assert.equal(key in seen, false, `${who}: ${key}`);
    }
    const current = (await get("/orgs/acme", { ...admin, "x-github-api-version": "2026-03-10" })).json();
    assert.equal("secret_scanning_push_protection_custom_link_enabled" in current, false, "removed by 2026-03-10");
    assert.equal(current.deploy_keys_enabled_for_repositories, true);
  });

  test("accounts say which view they are: public for anyone's, private with the free plan for the caller's own", async () => {
    assert.equal((await get("/users/alice")).json().user_view_type, "public");
    const self = (await get("/user", token("alice"))).json();
    assertSchema("private-user", self);
    assert.deepEqual(
      [self.user_view_type, self.notification_email, self.plan.name, self.plan.private_repos],
      ["private", null, "free", 10000],
    );
  });

  test("a repository's administrator sees its merge settings, clone token and security switches; everyone sees allow_forking", async () => {
    const owners = await get("/repos/alice/hello", token("alice"));
    const anonymous = await get("/repos/alice/hello");
    const mine = owners.json();
    const theirs = anonymous.json();
    assertSchema("full-repository", mine);
    assert.equal(mine.permissions.admin, true);
    assert.deepEqual(
      [
        mine.allow_squash_merge,
        mine.allow_merge_commit,
        mine.allow_rebase_merge,
        mine.allow_auto_merge,
        mine.delete_branch_on_merge,
        mine.squash_merge_commit_title,
        mine.merge_commit_message,
        mine.temp_clone_token,
      ],
      [true, true, true, false, false, "COMMIT_OR_PR_TITLE", "PR_TITLE", ""],
    );
    assert.equal(mine.security_and_analysis.secret_scanning.status, "disabled");
    for (const key of ["allow_squash_merge", "temp_clone_token", "security_and_analysis", "permissions"])
      assert.equal(key in theirs, false, key);
    for (const body of [mine, theirs])
      assert.deepEqual([body.allow_forking, body.web_commit_signoff_required], [true, false]);
    const current = (
      await get("/repos/alice/hello", { ...token("alice"), "x-github-api-version": "2026-03-10" })
    ).json();
    assert.equal("use_squash_pr_title_as_default" in current, false, "removed by 2026-03-10");
    assert.equal(mine.use_squash_pr_title_as_default, false);
  });

  test("a repository carries Last-Modified, its updated_at, and answers If-Modified-Since with 304", async () => {
    const res = await get("/repos/alice/hello");
    assert.equal(res.headers["last-modified"], new Date(res.json().updated_at).toUTCString());
    assert.equal(
      (await get("/repos/alice/hello", { "if-modified-since": String(res.headers["last-modified"]) })).statusCode,
      304,
    );
  });

  test("API version 2026-03-10 shows a repository, its parent and source without has_downloads", async () => {
    const old = (await get("/repos/dave/hello")).json();
    const current = (await get("/repos/dave/hello", { "x-github-api-version": "2026-03-10" })).json();
    for (const repository of [old, old.parent, old.source]) assert.equal(repository.has_downloads, false);
    for (const repository of [current, current.parent, current.source])
      assert.equal("has_downloads" in repository, false);
    const { has_downloads: _removed, parent: _p, source: _s, ...rest } = old;
    const { parent: _cp, source: _cs, ...currentRest } = current;
    assert.deepEqual(currentRest, rest);
    // The stored schemas are 2022-11-28's, whose parent and source still require has_downloads: the rest is checked.
    assertSchema("full-repository", currentRest);
  });

  test("a private repository is 404 to whoever cannot read its feeds, and 200 with permissions to its readers", async () => {
    for (const [who, headers] of [
      ["anonymous", {}],
      ["dave", token("dave")],
      ["alice without repo scope", token("alicePublic")],
      ["carol", token("carol")],
    ] as const) {
      for (const url of ["/repos/alice/secret", "/repos/alice/secret/events"]) {
        const res = await get(url, headers);
        assert.equal(res.statusCode, 404, `${who}: ${url}`);
        assert.deepEqual(res.json(), NOT_FOUND);
      }
    }
    const secretId = (await get("/repos/alice/secret", token("alice"))).json().id as number;
    assert.equal((await get(`/repositories/${secretId}`)).statusCode, 404);

    const erinToken = {
      authorization: `token ${(await t.createToken((await t.store.users.findByLogin("erin"))!, ["repo"])).token}`,
    };
    const cases: [string, Record<string, string>, string, Record<string, boolean>][] = [
      [
        "owner",
        token("alice"),
        "/repos/alice/secret",
        { admin: true, maintain: true, push: true, triage: true, pull: true },
      ],
      [
        "owner with a password",
        { authorization: basic("alice", "alice-password") },
        "/repos/alice/secret",
        { admin: true, maintain: true, push: true, triage: true, pull: true },
      ],
      [
        "collaborator",
        token("bob"),
        "/repos/alice/secret",
        { admin: false, maintain: false, push: true, triage: true, pull: true },
      ],
      [
        "organization owner",
        token("carol"),
        "/repos/acme/vault",
        { admin: true, maintain: true, push: true, triage: true, pull: true },
      ],
      [
        "organization member",
        erinToken,
        "/repos/acme/vault",
        { admin: false, maintain: false, push: false, triage: false, pull: true },
      ],
      [
        "organization owner, public repository",
        token("carol"),
        "/repos/acme/site",
        { admin: true, maintain: true, push: true, triage: true, pull: true },
      ],
      [
        "organization member, public repository",
        erinToken,
        "/repos/acme/site",
        { admin: false, maintain: false, push: false, triage: false, pull: true },
      ],
      [
        "anyone signed in, on a public repository",
        token("dave"),
        "/repos/alice/hello",
        { admin: false, maintain: false, push: false, triage: false, pull: true },
      ],
    ];
    for (const [who, headers, url, permissions] of cases) {
      const res = await get(url, headers);
      assert.equal(res.statusCode, 200, `${who}: ${url}`);
      assertSchema("full-repository", res.json(), `${who}: ${url}`);
      assert.deepEqual(res.json().permissions, permissions, `${who}: ${url}`);
      assert.equal(res.json().private, url !== "/repos/alice/hello" && url !== "/repos/acme/site");
    }
    assert.equal((await get(`/repositories/${secretId}`, token("bob"))).json().full_name, "alice/secret");
    assert.equal((await get("/repos/acme/vault", token("dave"))).statusCode, 404);
  });

  test("a fork of a private repository shows its parent only to the parent's readers", async () => {
    const stranger = (await get("/repos/carol/open", token("dave"))).json();
    assertSchema("full-repository", stranger);
    assert.equal(stranger.fork, true);
    assert.equal("parent" in stranger || "source" in stranger, false);
    const owner = (await get("/repos/carol/open", token("carol"))).json();
    assert.equal(owner.parent.full_name, "carol/hidden");
    assert.equal(owner.parent.private, true);
  });

  test("unknown repositories and ids are 404", async () => {
    for (const url of ["/repos/alice/nothing", "/repos/nobody/hello", "/repositories/987654321"]) {
      const res = await get(url);
      assert.equal(res.statusCode, 404, url);
      assert.deepEqual(res.json(), NOT_FOUND, url);
    }
    assert.deepEqual((await get("/repositories/abc")).json(), {
      ...NOT_FOUND,
      message: "Not Found: feedgate does not implement GET /repositories/abc",
    });
  });

  test("answers carry an ETag, and If-None-Match gets a 304 that costs no rate limit", async () => {
    for (const [url, headers] of [
      ["/", {}],
      ["/users/alice", {}],
      ["/orgs/acme", {}],
      ["/repos/alice/hello", token("bob")],
      ["/user", token("alice")],
      ["/meta", {}],
      [`/repositories/${HELLO_ID}`, {}],
    ] as const) {
      const first = await get(url, headers);
      assert.equal(first.statusCode, 200, url);
      const etag = first.headers.etag as string;
      assert.match(etag, /^"[0-9a-f]{64}"$/, url);
      const again = await get(url, { ...headers, "if-none-match": etag });
      assert.equal(again.statusCode, 304, url);
      assert.equal(again.body, "");
      assert.equal(
        again.headers["x-ratelimit-remaining"],
        first.headers["x-ratelimit-remaining"],
        `${url}: a 304 is free`,
      );
    }
  });

  test("GET /rate_limit reports the caller's window from the same counters, in its body and headers, and is never counted", async () => {
    const before = await get("/users/alice", token("dave"));
    const used = Number(before.headers["x-ratelimit-used"]);
    const reset = Number(before.headers["x-ratelimit-reset"]);
    for (let i = 0; i < 3; i++) {
      const res = await get("/rate_limit", token("dave"));
      assert.equal(res.statusCode, 200);
      assert.deepEqual(
        ["limit", "remaining", "reset", "used", "resource"].map((name) => res.headers[`x-ratelimit-${name}`]),
        ["5000", String(5000 - used), String(reset), String(used), "core"],
      );
      const body = res.json();
      assertSchema("rate-limit-overview", body);
      assert.deepEqual(body.resources.core, { limit: 5000, used, remaining: 5000 - used, reset });
      assert.deepEqual(body.rate, body.resources.core);
    }
    const after = await get("/users/alice", token("dave"));
    assert.equal(Number(after.headers["x-ratelimit-used"]), used + 1, "the /rate_limit calls counted nothing");

    const anonymous = (await get("/rate_limit")).json();
    assertSchema("rate-limit-overview", anonymous);
    assert.equal(anonymous.resources.core.limit, 10_000);
  });
});

describe("GET /rate_limit past the limit", () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ rateLimitAnonymous: 2 });
  });
  after(() => t.close());

  test("still answers, with nothing remaining, when every other route is refused", async () => {
    for (let i = 0; i < 2; i++) assert.equal((await t.app.inject({ url: "/meta" })).statusCode, 200);
    assert.equal((await t.app.inject({ url: "/meta" })).statusCode, 403);
    const res = await t.app.inject({ url: "/rate_limit" });
    assert.equal(res.statusCode, 200);
    assert.deepEqual([res.json().rate.limit, res.json().rate.remaining, res.json().rate.used], [2, 0, 2]);
  });
});

describe("an organization's profile from its world", () => {
  const PROFILE = { email: "hello@globex.example", blog: "https://globex.example/blog" };
  const globex = (blog = PROFILE.blog) => ({
    users: ["olive", "milo", "sam"].map((login) => ({ login, password: `${login}-password` })),
    orgs: [
      {
        login: "globex",
        ...PROFILE,
        blog,
        billing_email: "billing@globex.example",
        owners: ["olive"],
        members: ["milo"],
      },
    ],
  });
  const CREATED = new Date("2026-01-15T10:00:00Z");
  let t: TestApp;
  let ingest: IngestService;
  const as = (login: string) => ({ authorization: basic(login, `${login}-password`) });
  const get = (headers: InjectOptions["headers"] = {}, url = "/orgs/globex") =>
    t.app.inject({ method: "GET", url, headers });

  before(async () => {
    t = await startTestApp({ baseUrl: BASE }, new TestClock(CREATED));
    ingest = new IngestService(t.store, t.clock.now);
    await ingest.seedWorld(globex(), { baseDir: undefined });
  });
  after(() => t.close());

  test("its owner sees its billing e-mail and its plan's seats; members and strangers its e-mail and blog; all get Last-Modified", async () => {
    const owner = await get(as("olive"));
    assert.equal(owner.statusCode, 200);
    assert.equal(owner.headers["last-modified"], CREATED.toUTCString());
    const body = owner.json();
    assertSchema("organization-full", body);
    assert.deepEqual(
      [body.email, body.blog, body.billing_email, body.updated_at, body.created_at],
      [PROFILE.email, PROFILE.blog, "billing@globex.example", "2026-01-15T10:00:00Z", "2026-01-15T10:00:00Z"],
    );
    // Two members fill seats, the owner among them.
    assert.deepEqual(body.plan, { name: "free", space: 976562499, private_repos: 10000, filled_seats: 2, seats: 2 });
    for (const [who, headers] of [
      ["a member", as("milo")],
      ["a stranger", as("sam")],
      ["anonymous", {}],
    ] as const) {
      const res = await get(headers);
      assert.equal(res.statusCode, 200, who);
      assert.equal(res.headers["last-modified"], CREATED.toUTCString(), who);
      const seen = res.json();
      assertSchema("organization-full", seen);
      assert.deepEqual([seen.email, seen.blog, seen.updated_at], [PROFILE.email, PROFILE.blog, body.updated_at], who);
      for (const key of ["plan", "billing_email"]) assert.equal(key in seen, false, `${who}: ${key}`);
    }
    const asUser = (await get({}, "/users/globex")).json();
    assertSchema("public-user", asUser);
    assert.deepEqual([asUser.email, asUser.blog], [PROFILE.email, PROFILE.blog]);
  });

  test("its Last-Modified answers If-Modified-Since, and moves only when a later world changes the profile", async () => {
    const since = { "if-modified-since": CREATED.toUTCString() };
    assert.equal((await get({ ...as("olive"), ...since })).statusCode, 304);
    t.clock.advance("1h");
    await ingest.seedWorld(globex(), { baseDir: undefined });
    assert.equal((await get(since)).statusCode, 304, "the same world again changed nothing");
    await ingest.seedWorld(globex("https://globex.example/news"), { baseDir: undefined });
    const changed = await get(since);
    assert.equal(changed.statusCode, 200);
    const later = new Date(CREATED.getTime() + 3_600_000);
    assert.equal(changed.headers["last-modified"], later.toUTCString());
    assert.deepEqual(
      [changed.json().blog, changed.json().email, changed.json().updated_at],
      ["https://globex.example/news", PROFILE.email, "2026-01-15T11:00:00Z"],
    );
  });

  test("an organization whose world gives no profile sends no e-mail or blog, and its owners a null billing e-mail", async () => {
    await ingest.seedWorld({ orgs: [{ login: "initech", owners: ["olive"] }] }, { baseDir: undefined });
    const res = await get(as("olive"), "/orgs/initech");
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers["last-modified"], new Date(res.json().created_at).toUTCString());
    assert.deepEqual(
      ["email" in res.json(), "blog" in res.json(), res.json().billing_email, res.json().plan.filled_seats],
      [false, false, null, 1],
    );
  });
});
