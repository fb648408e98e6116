import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { basic, startTestApp, type TestApp } from "../helpers/test-app.js";
import { SAMPLE_GZ, ids, ndjson, sampleLines, snapshot } from "../helpers/ingest-fixtures.js";
import { event } from "../helpers/events.js";
import { IngestService } from "../../src/server/services/ingest.js";
import { currentOtp, mintToken } from "../../src/server/services/credentials.js";

const BASE = "https://feedgate.example";
const OTP_SECRET = "JBSWY3DPEHPK3PXPJBSWY3DP";
const HEX_TOKEN = "0123456789abcdef0123456789abcdef01234567";
const FGP_TOKEN = mintToken();

/** One of everything a world file can hold. bob is never declared: events, follows and memberships name him. */
const WORLD = {
  users: [
    { login: "alice", password: "alice-password", site_admin: true, following: ["bob"], watching: ["carol/tools"] },
    { login: "carol", password: "carol-password", otp_secret: OTP_SECRET },
    { login: "dave" },
  ],
  orgs: [{ login: "acme", members: ["alice", "bob"], owners: ["dave"] }],
  repos: [
    { full_name: "acme/secret", private: true, collaborators: ["carol"] },
    { full_name: "carol/tools" },
    { full_name: "bob/tools", fork_of: "carol/tools" },
  ],
  tokens: [
    { user: "alice", token: HEX_TOKEN, scopes: ["repo", "user:email", "user"], note: "ci" },
    { user: "carol", token: FGP_TOKEN, scopes: ["repo"] },
    { user: "dave", token: "fedcba9876543210fedcba9876543210fedcba98", scopes: [] },
  ],
  events: [
    event("100", "PushEvent", "bob", "bob/tools", { created_at: "2021-07-21T10:00:00Z" }),
    event("101", "IssuesEvent", "carol", "acme/secret", {
      public: false,
      org: { login: "acme" },
      created_at: "2021-07-21T10:01:00Z",
    }),
    event("102", "CreateEvent", "carol", "carol/tools", { created_at: "2021-07-21T10:02:00Z" }),
  ],
  events_files: ["sample.ndjson.gz"],
  issue_events: [
    {
      repo: "carol/tools",
      id: "500",
      event: "closed",
      actor: { login: "carol" },
      created_at: "2021-07-21T10:03:00Z",
      issue: { number: 1, title: "Ship it", state: "closed" },
    },
  ],
};

describe("seeding a world", () => {
  let t: TestApp;
  let dir: string;
  let seed: (doc: unknown) => ReturnType<IngestService["seedWorld"]>;
  const get = (url: string, authorization?: string, otp?: string) =>
    t.app.inject({
      method: "GET",
      url,
      headers: { ...(authorization ? { authorization } : {}), ...(otp ? { "x-github-otp": otp } : {}) },
    });

  before(async () => {
    t = await startTestApp({ baseUrl: BASE, rateLimitAnonymous: 10_000 });
    dir = mkdtempSync(join(tmpdir(), "feedgate-world-"));
    copyFileSync(SAMPLE_GZ, join(dir, "sample.ndjson.gz"));
    const ingest = new IngestService(t.store, t.clock.now);
    seed = (doc) => ingest.seedWorld(doc, { baseDir: dir });
    const result = await seed(WORLD);
    // A fresh database: every account, repository and token stored was added by this seed.
    const rows = await snapshot(t.dbPath);
    const accounts = (type: string) => rows.users!.filter((u) => (u as { type: string }).type === type).length;
    assert.deepEqual(result, {
      eventsAdded: 803,
      eventsSkipped: 0,
      issueEventsAdded: 1,
      issueEventsSkipped: 0,
      usersAdded: accounts("User"),
      organizationsAdded: accounts("Organization"),
      reposAdded: rows.repos!.length,
      tokensAdded: 3,
      contents: { users: 3, organizations: 1, repos: 3, tokens: 3, events: 803, issueEvents: 1, issues: 0 },
    });
    // More than the file lists: the accounts and repositories only events name are added too.
    assert.ok(result.usersAdded > 3 && result.organizationsAdded > 1 && result.reposAdded > 3);
  });
  after(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test("seeded users log in with their passwords, and with a one-time password when they have a secret", async () => {
    assert.equal((await get("/authorizations", basic("alice", "alice-password"))).statusCode, 200);
    assert.equal((await get("/authorizations", basic("alice", "wrong"))).statusCode, 401);
    const challenged = await get("/authorizations", basic("carol", "carol-password"));
    assert.equal(challenged.statusCode, 401);
    assert.equal(challenged.headers["x-github-otp"], "required; app");
    const otp = currentOtp(OTP_SECRET, t.clock.now());
    assert.equal((await get("/authorizations", basic("carol", "carol-password"), otp)).statusCode, 200);
  });

  test("a seeded user without a password cannot log in", async () => {
    assert.equal((await get("/authorizations", basic("dave", ""))).statusCode, 401);
    assert.equal((await get("/authorizations", basic("bob", "bob"))).statusCode, 401);
  });

  for (const [format, token, scopes] of [
    ["40 hex", HEX_TOKEN, "repo, user"],
    ["fgp_", FGP_TOKEN, "repo"],
  ] as const) {
    test(`a seeded ${format} token authenticates over HTTP with its normalized scopes`, async () => {
      const res = await get("/users/alice/received_events", `token ${token}`);
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers["x-oauth-scopes"], scopes);
    });
  }

  test("a seeded token is listed among its owner's authorizations with its note", async () => {
    const list = (await get("/authorizations", basic("alice", "alice-password"))).json() as {
      note: string;
      token_last_eight: string;
    }[];
    assert.deepEqual(
      list.map((a) => [a.note, a.token_last_eight]),
      [["ci", HEX_TOKEN.slice(-8)]],
    );
  });

  test("following and watching put events in the received feed", async () => {
    const received = ids((await get("/users/alice/received_events")).body);
    assert.deepEqual(received, ["102", "100"]); // 102 from the watched carol/tools, 100 by bob, followed
  });

  test("a fork declared with fork_of joins its parent's network", async () => {
    assert.deepEqual(ids((await get("/networks/carol/tools/events")).body), ["102", "100"]);
  });

  test("a private repository is 404 to strangers and readable by its collaborators and its organization's members", async () => {
    assert.equal((await get("/repos/acme/secret/events")).statusCode, 404);
    assert.equal((await get("/repos/acme/secret/events", `token ${HEX_TOKEN}`)).statusCode, 200); // alice: member of acme
    assert.deepEqual(ids((await get("/repos/acme/secret/events", `token ${FGP_TOKEN}`)).body), ["101"]); // carol: collaborator
    assert.deepEqual(ids((await get("/users/alice/events/orgs/acme", basic("alice", "alice-password"))).body), ["101"]);
  });

  test("partial envelopes are completed with GitHub's keys, ids, urls and defaults", async () => {
    const [pushed] = (await get("/repos/bob/tools/events")).json();
    assert.deepEqual(Object.keys(pushed), ["id", "type", "actor", "repo", "payload", "public", "created_at"]);
    assert.deepEqual(Object.keys(pushed.actor), ["id", "login", "gravatar_id", "url", "avatar_url"]);
    assert.equal(typeof pushed.actor.id, "number");
    assert.equal(pushed.actor.url, `${BASE}/users/bob`);
    assert.match(pushed.actor.avatar_url, /^https:\/\//);
    assert.deepEqual(Object.keys(pushed.repo), ["id", "name", "url"]);
    assert.equal(typeof pushed.repo.id, "number");
    assert.equal(pushed.repo.url, `${BASE}/repos/bob/tools`);
    assert.deepEqual([pushed.payload, pushed.public, pushed.created_at], [{}, true, "2021-07-21T10:00:00Z"]);

    const [issue] = (await get("/repos/acme/secret/events", `token ${FGP_TOKEN}`)).json();
    assert.equal(issue.public, false);
    assert.equal(issue.org.url, `${BASE}/orgs/acme`);
    assert.equal(typeof issue.org.id, "number");
  });

  test("one account keeps one wire id across every event that names it", async () => {
    const [push] = (await get("/repos/bob/tools/events")).json();
    const [, followed] = (await get("/users/alice/received_events")).json();
    assert.equal(followed.actor.login, "bob");
    assert.equal(followed.actor.id, push.actor.id);
  });

  test("events files are read relative to the world file, gzip included, and complete events are served byte for byte", async () => {
    const [first] = sampleLines();
    const sample = JSON.parse(first!) as { repo: { name: string } };
    const res = await get(`/repos/${sample.repo.name}/events?per_page=100`);
    assert.equal(res.statusCode, 200);
    assert.ok(res.body.includes(first!), "the stored line comes back verbatim");
  });

  test("issue events are seeded into their repository's issue feed, their actor completed", async () => {
    const [closed] = (await get("/repos/carol/tools/issues/events")).json();
    assert.equal(closed.id, "500");
    assert.equal(closed.event, "closed");
    assert.equal(closed.actor.url, `${BASE}/users/carol`);
    assert.deepEqual(closed.issue, { number: 1, title: "Ship it", state: "closed" });
    assert.equal("repo" in closed, false);
  });

  test("accounts, repositories and organizations that events mention are created on the fly", async () => {
    const feeds = ["/users/zed/events", "/repos/globex/rocket/events", "/orgs/globex/events"];
    for (const url of feeds) assert.equal((await get(url)).statusCode, 404, url);
    await seed({ events: [event("200", "PushEvent", "zed", "globex/rocket", { org: { login: "globex" } })] });
    for (const url of feeds) assert.deepEqual(ids((await get(url)).body), ["200"], url);
  });

  test("seeding the same world again changes nothing: rows, counts and password hashes", async () => {
    const before = await snapshot(t.dbPath);
    t.clock.advance(3600 * 1000);
    const result = await seed(WORLD);
    assert.deepEqual(result, {
      eventsAdded: 0,
      eventsSkipped: 803,
      issueEventsAdded: 0,
      issueEventsSkipped: 1,
      usersAdded: 0,
      organizationsAdded: 0,
      reposAdded: 0,
      tokensAdded: 0,
      contents: { users: 3, organizations: 1, repos: 3, tokens: 3, events: 803, issueEvents: 1, issues: 0 },
    });
    const after = await snapshot(t.dbPath);
    assert.deepEqual(after, before);
    const hashes = (s: typeof before) => s.users!.map((u) => (u as { password_hash: string | null }).password_hash);
    assert.equal(hashes(after).filter((h) => h !== null).length, 2);
    assert.deepEqual(hashes(after), hashes(before));
  });

  test("an organization's owners are its members with the admin role; the others are plain members", async () => {
    const role = async (login: string) =>
      t.store.directory.orgRole(
        (await t.store.users.findByLogin("acme"))!.id,
        (await t.store.users.findByLogin(login))!.id,
      );
    assert.deepEqual(await Promise.all(["alice", "bob", "dave", "carol"].map(role)), [
      "member",
      "member",
      "admin",
      null,
    ]);
    const acme = (await t.store.users.findByLogin("acme"))!.id;
    assert.equal(await t.store.directory.isMember(acme, (await t.store.users.findByLogin("dave"))!.id), true);
  });

  test("a later world states a member's role again: an owner listed as a member becomes one, and back", async () => {
    const role = async (login: string) =>
      t.store.directory.orgRole(
        (await t.store.users.findByLogin("acme"))!.id,
        (await t.store.users.findByLogin(login))!.id,
      );
    // A login in both lists is an owner.
    await seed({ orgs: [{ login: "acme", members: ["alice", "dave"], owners: ["ALICE"] }] });
    assert.deepEqual([await role("alice"), await role("dave")], ["admin", "member"]);
    await seed(WORLD);
    assert.deepEqual([await role("alice"), await role("dave")], ["member", "admin"]);
  });

  test("a changed password is re-hashed for that user only", async () => {
    const hash = async (login: string) =>
      ((await snapshot(t.dbPath)).users as { login: string; password_hash: string }[]).find((u) => u.login === login)!
        .password_hash;
    const carol = await hash("carol");
    await seed({
      users: [
        { login: "alice", password: "new-password" },
        { login: "carol", password: "carol-password" },
      ],
    });
    assert.equal(await hash("carol"), carol);
    assert.equal((await get("/authorizations", basic("alice", "new-password"))).statusCode, 200);
    assert.equal((await get("/authorizations", basic("alice", "alice-password"))).statusCode, 401);
  });
});

describe("a world with a bad entry", () => {
  let t: TestApp;
  let dir: string;
  let ingest: IngestService;
  const NEW_TOKEN = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
  /** New entries that must not survive a refused world. */
  const NEWCOMER = {
    users: [{ login: "newcomer", password: "pw" }],
    events: [event("300", "PushEvent", "newcomer", "newcomer/x")],
  };

  before(async () => {
    t = await startTestApp();
    dir = mkdtempSync(join(tmpdir(), "feedgate-world-"));
    writeFileSync(
      join(dir, "bad.ndjson"),
      `${ndjson([event("301", "PushEvent", "newcomer", "newcomer/y")])}\n{"id": "302",\n`,
    );
    ingest = new IngestService(t.store, t.clock.now);
    await ingest.seedWorld(
      {
        users: [{ login: "alice", password: "alice-password" }],
        orgs: [{ login: "acme" }],
        tokens: [{ user: "alice", token: HEX_TOKEN }],
      },
      { baseDir: dir },
    );
  });
  after(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const CASES: { problem: string; world: Record<string, unknown>; error: RegExp }[] = [
    { problem: "an unknown top-level key", world: { usres: [] }, error: /^world: unknown key "usres"$/ },
    { problem: "a section that is not an array", world: { repos: {} }, error: /^repos: must be an array$/ },
    {
      problem: "an unknown key in a user",
      world: { users: [{ login: "x", admin: true }] },
      error: /^users\[0\]: unknown key "admin"$/,
    },
    {
      problem: "an invalid login",
      world: { ...NEWCOMER, users: [{ login: "ok" }, { login: "bad_login" }] },
      error: /^users\[1\]\.login: /,
    },
    {
      problem: "an OTP secret that is not base32",
      world: { users: [{ login: "x", otp_secret: "not!base32" }] },
      error: /^users\[0\]\.otp_secret: /,
    },
    {
      problem: "a watched repository without an owner",
      world: { users: [{ login: "x", watching: ["lonely"] }] },
      error: /^users\[0\]\.watching\[0\]: /,
    },
    {
      problem: "a repository name without a slash",
      world: { ...NEWCOMER, repos: [{ full_name: "a/b" }, { full_name: "no-slash" }] },
      error: /^repos\[1\]\.full_name: must be "owner\/name"$/,
    },
    {
      problem: "a repository file at a path git cannot store",
      world: { ...NEWCOMER, repos: [{ full_name: "a/b", files: { "docs/../x": "text" } }] },
      error: /^repos\[0\]\.files\.docs\/\.\.\/x: is not a path git can store/,
    },
    {
      problem: "a repository file that is not text",
      world: { ...NEWCOMER, repos: [{ full_name: "a/b", files: { "a.json": { x: 1 } } }] },
      error: /^repos\[0\]\.files\.a\.json: must be the file's text$/,
    },
    {
      problem: "owners that are not logins",
      world: { orgs: [{ login: "acme", owners: "alice" }] },
      error: /^orgs\[0\]\.owners: must be an array of strings$/,
    },
    {
      problem: "an unknown key in an organization",
      world: { orgs: [{ login: "acme", admins: ["alice"] }] },
      error: /^orgs\[0\]: unknown key "admins"$/,
    },
    {
      problem: "an organization's e-mail that is no address",
      world: { orgs: [{ login: "acme", email: "acme at example.com" }] },
      error: /^orgs\[0\]\.email: must be an e-mail address$/,
    },
    {
      problem: "an organization's billing e-mail that is no address",
      world: { orgs: [{ login: "acme", billing_email: "billing" }] },
      error: /^orgs\[0\]\.billing_email: must be an e-mail address$/,
    },
    {
      problem: "an organization's blog that is no http URL",
      world: { orgs: [{ login: "acme", blog: "acme.example" }] },
      error: /^orgs\[0\]\.blog: must be an http or https URL \("https:\/\/example\.com"\)$/,
    },
    {
      problem: "private given as a string",
      world: { repos: [{ full_name: "a/b", private: "yes" }] },
      error: /^repos\[0\]\.private: must be true or false$/,
    },
    {
      problem: "a token of the wrong shape",
      world: { tokens: [{ user: "alice", token: "abc" }] },
      error: /^tokens\[0\]\.token: /,
    },
    {
      problem: "an unknown scope",
      world: { tokens: [{ user: "alice", token: NEW_TOKEN, scopes: ["repo", "bogus"] }] },
      error: /^tokens\[0\]\.scopes: scopes are invalid: bogus$/,
    },
    {
      problem: "an event without a repository name",
      world: { events: [{ ...event("303", "PushEvent", "x", "x/y"), repo: {} }] },
      error: /^events\[0\]\.repo\.name: /,
    },
    {
      problem: "an event id that is not digits",
      world: { ...NEWCOMER, events: [event("304", "PushEvent", "x", "x/y"), event("abc", "PushEvent", "x", "x/y")] },
      error: /^events\[1\]\.id: /,
    },
    {
      problem: "an event time that is not ISO 8601",
      world: { events: [event("305", "PushEvent", "x", "x/y", { created_at: "yesterday" })] },
      error: /^events\[0\]\.created_at: /,
    },
    {
      problem: "an actor login with a space",
      world: { events: [{ ...event("306", "PushEvent", "x", "x/y"), actor: { login: "a b" } }] },
      error: /^events\[0\]\.actor\.login: /,
    },
    {
      problem: "an issue event without its issue",
      world: { issue_events: [{ repo: "a/b", id: "1", event: "closed", created_at: "2021-07-21T10:00:00Z" }] },
      error: /^issue_events\[0\]\.issue: /,
    },
    {
      problem: "an events file with a line that is not JSON",
      world: { ...NEWCOMER, events_files: ["bad.ndjson"] },
      error: /^bad\.ndjson:2: is not valid JSON$/,
    },
    {
      problem: "an events file that does not exist",
      world: { ...NEWCOMER, events_files: ["missing.ndjson"] },
      error: /^events_files\[0\]: cannot read /,
    },
    // Found only while writing, inside the transaction: what came before the entry must be rolled back.
    {
      problem: "a token for an unknown user",
      world: { ...NEWCOMER, tokens: [{ user: "ghost", token: NEW_TOKEN }] },
      error: /^tokens\[0\]: no user ghost$/,
    },
    {
      problem: "another user's token",
      world: { ...NEWCOMER, tokens: [{ user: "newcomer", token: HEX_TOKEN }] },
      error: /^tokens\[0\]: the token belongs to another user$/,
    },
    {
      problem: "an organization named like a user who can log in",
      world: { ...NEWCOMER, orgs: [{ login: "alice" }] },
      error: /^orgs\[0\]: alice is a user who can log in/,
    },
    {
      problem: "a user named like an organization",
      world: { ...NEWCOMER, users: [{ login: "newcomer" }, { login: "acme" }] },
      error: /^users\[1\]: acme is an organization, not a user$/,
    },
    {
      problem: "a repository forked from itself",
      world: { ...NEWCOMER, repos: [{ full_name: "x/y", fork_of: "X/Y" }] },
      error: /^repos\[0\]: x\/y cannot be a fork of itself$/,
    },
  ];

  for (const { problem, world, error } of CASES) {
    test(`${problem} is refused naming the entry, and nothing is written`, async () => {
      const before = await snapshot(t.dbPath);
      await assert.rejects(ingest.seedWorld(world, { baseDir: dir }), (e: Error) => {
        assert.match(e.message, error);
        return true;
      });
      assert.deepEqual(await snapshot(t.dbPath), before);
    });
  }

  test("events files are refused when there is no folder to read them from, as over HTTP", async () => {
    await assert.rejects(
      ingest.seedWorld({ events_files: ["bad.ndjson"] }, { baseDir: undefined }),
      /^InvalidInputError: events_files\[0\]: events files can only be seeded from the command line$/,
    );
  });

  test("after every refusal the feeds show nothing of the refused worlds", async () => {
    for (const url of ["/users/newcomer/events", "/repos/newcomer/x/events", "/users/ghost/events"]) {
      assert.equal((await t.app.inject({ method: "GET", url })).statusCode, 404, url);
    }
  });
});
