/**
 * Who sees which events in every feed (spec 4.2, wire notes 2.1): one compact world, one table per feed
 * family of caller -> the exact event ids, newest first, or 404. Event ids rise with time in this world,
 * so every visible list reads in descending order.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { InjectOptions, LightMyRequestResponse } from "fastify";
import { basic, startTestApp, type TestApp } from "../helpers/test-app.js";
import { IngestService } from "../../src/server/services/ingest.js";
import { event } from "../helpers/events.js";

const BASE = "https://feedgate.example";
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
const NOT_FOUND = { message: "Not Found", documentation_url: "https://developer.github.com/v3" };
const at = (minute: number) => `2026-01-14T10:${String(minute).padStart(2, "0")}:00Z`;

/** A partial envelope: only logins and names, as hand-written worlds give them; ids rise with time. */
const partial = (id: number, type: string, actor: string, repo: string, extra: Record<string, unknown> = {}) =>
  event(id, type, actor, repo, { created_at: at(id - 100), ...extra });

/** A complete envelope, in GitHub's key order, with GitHub's own URLs: it must come back untouched. */
const COMPLETE_111 = {
  id: "111",
  type: "IssuesEvent",
  actor: {
    id: 9001,
    login: "erin",
    display_login: "erin",
    gravatar_id: "",
    url: "https://api.github.com/users/erin",
    avatar_url: "https://avatars.githubusercontent.com/u/9001?",
  },
  repo: { id: 7001, name: "acme/widgets", url: "https://api.github.com/repos/acme/widgets" },
  payload: { action: "opened", issue: { number: 1, title: "Widgets wobble" } },
  public: true,
  created_at: at(11),
  org: {
    id: 8001,
    login: "acme",
    gravatar_id: "",
    url: "https://api.github.com/orgs/acme",
    avatar_url: "https://avatars.githubusercontent.com/u/8001?",
  },
};

/** A complete event from an NDJSON file, with its own key order and spacing: stored and served as that text. */
const RAW_114 =
  `{"type": "WatchEvent", "id": "114", "created_at": "${at(14)}", "public": true, "payload": {"action": "started"}, ` +
  `"repo": {"id": 7002, "name": "dave/solo", "url": "https://api.github.com/repos/dave/solo"}, ` +
  `"actor": {"id": 9001, "login": "erin", "gravatar_id": "", "url": "https://api.github.com/users/erin", "avatar_url": "https://avatars.githubusercontent.com/u/9001?"}}`;

const WORLD = {
  users: [
    { login: "alice", password: "alice-password", following: ["carol"], watching: ["dave/solo"] },
    { login: "bob", password: "bob-password", following: ["alice"], watching: ["acme/widgets"] },
    { login: "carol", password: "carol-password", following: ["dave"], watching: ["acme/secret"] },
    { login: "dave", password: "dave-password", following: ["bob"] },
  ],
  orgs: [{ login: "acme", members: ["alice", "carol"] }],
  repos: [
    { full_name: "alice/public" },
    { full_name: "alice/private", private: true, collaborators: ["bob"] },
    { full_name: "acme/widgets" },
    { full_name: "acme/secret", private: true },
    { full_name: "bob/public-fork", fork_of: "alice/public" },
    { full_name: "dave/fork2", fork_of: "bob/public-fork" },
    { full_name: "dave/solo" },
    { full_name: "carol/notes", private: true },
  ],
  events: [
    partial(101, "PushEvent", "alice", "alice/public", { payload: { size: 1, commits: [] } }),
    partial(102, "PushEvent", "alice", "alice/private", { public: false }),
    partial(103, "IssuesEvent", "bob", "alice/private", { public: false, payload: { action: "opened" } }),
    partial(104, "ForkEvent", "bob", "alice/public", { payload: { forkee: { full_name: "bob/public-fork" } } }),
    partial(105, "PushEvent", "bob", "bob/public-fork"),
    partial(106, "PushEvent", "carol", "acme/widgets", { org: { login: "acme" } }),
    partial(107, "PushEvent", "carol", "acme/secret", { public: false, org: { login: "acme" } }),
    partial(108, "PushEvent", "alice", "acme/secret", { public: false, org: { login: "acme" } }),
    partial(109, "CreateEvent", "dave", "dave/solo", { payload: { ref: null, ref_type: "repository" } }),
    partial(110, "PushEvent", "dave", "dave/fork2"),
    COMPLETE_111,
    // In an organization's repository but not attributed to it: no `org` key.
    partial(112, "IssueCommentEvent", "dave", "acme/widgets", { payload: { action: "created" } }),
    partial(113, "PushEvent", "carol", "carol/notes", { public: false }),
  ],
  events_files: ["complete.ndjson"],
  issue_events: [
    {
      repo: "alice/public",
      id: 5001,
      event: "referenced",
      actor: { login: "bob" },
      commit_id: "a".repeat(40),
      created_at: at(1),
      issue: { title: "Fix the thing", number: 1, state: "closed" },
    },
    {
      repo: "alice/private",
      id: 5002,
      event: "closed",
      actor: { login: "alice" },
      commit_id: null,
      created_at: at(2),
      issue: { title: "Secret bug", number: 7, state: "closed" },
    },
    {
      repo: "alice/public",
      id: 5003,
      event: "labeled",
      actor: { login: "dave" },
      commit_id: null,
      label: { name: "bug", color: "f00" },
      created_at: at(3),
      issue: { title: "Another thing", number: 2, state: "open" },
    },
  ],
};

type Caller = "anonymous" | "alice" | "alice+repo" | "alice-repo" | "bob+repo" | "carol" | "dave+repo";

/** Who each caller is: the repository owner, a collaborator, an org member and an outsider, in several credentials. */
const CALLER_LABELS: Record<Caller, string> = {
  anonymous: "anonymous",
  alice: "alice with password Basic auth",
  "alice+repo": "alice with a repo token",
  "alice-repo": "alice with a token without repo",
  "bob+repo": "bob with a repo token",
  carol: "carol with password Basic auth",
  "dave+repo": "dave with a repo token",
};
const CALLERS = Object.keys(CALLER_LABELS) as Caller[];

/** What a caller sees: event ids newest first, or a status. `others` covers every caller not named. */
type Sight = number[] | 404;
type Row = { url: string } & Partial<Record<Caller | "others", Sight>>;

const everyone = (sight: Sight): Partial<Record<"others", Sight>> => ({ others: sight });

describe("event feed visibility", () => {
  let t: TestApp;
  let dir: string;
  const auth: Record<Caller, InjectOptions["headers"]> = {} as Record<Caller, InjectOptions["headers"]>;

  before(async () => {
    t = await startTestApp({ baseUrl: BASE, rateLimitAnonymous: 10_000 });
    dir = mkdtempSync(join(tmpdir(), "feedgate-world-"));
    writeFileSync(join(dir, "complete.ndjson"), `\n${RAW_114}\n`);
    await new IngestService(t.store, t.clock.now).seedWorld(WORLD, { baseDir: dir });
    const user = async (login: string) => (await t.store.users.findByLogin(login))!;
    const token = async (login: string, scopes: string[]) => ({
      authorization: `token ${(await t.createToken(await user(login), scopes)).token}`,
    });
    auth.anonymous = {};
    auth.alice = { authorization: basic("alice", "alice-password") };
    auth["alice+repo"] = await token("alice", ["repo"]);
    // Everything but repo: public_repo, user and read:org do not open private feeds.
    auth["alice-repo"] = await token("alice", ["public_repo", "user", "read:org"]);
    auth["bob+repo"] = await token("bob", ["repo"]);
    auth.carol = { authorization: basic("carol", "carol-password") };
    auth["dave+repo"] = await token("dave", ["repo"]);
  });
  after(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const get = (url: string, caller: Caller) => t.app.inject({ method: "GET", url, headers: auth[caller] });
  const ids = (res: LightMyRequestResponse) => (res.json() as { id: string }[]).map((e) => Number(e.id));

  function table(title: string, rows: Row[]) {
    describe(title, () => {
      for (const row of rows) {
        for (const caller of CALLERS) {
          const sight = row[caller] ?? row.others;
          assert.ok(sight !== undefined, `${row.url} has no expectation for ${caller}`);
          const shown = sight === 404 ? "404" : `[${sight.join(", ")}]`;
          test(`GET ${row.url}: ${CALLER_LABELS[caller]} gets ${shown}`, async () => {
            const res = await get(row.url, caller);
            if (sight === 404) {
              assert.equal(res.statusCode, 404);
              assert.deepEqual(res.json(), NOT_FOUND);
              assert.equal(res.headers.etag, undefined);
            } else {
              assert.equal(res.statusCode, 200, res.body);
              assert.deepEqual(ids(res), sight);
            }
          });
        }
      }
    });
  }

  table("the public timeline never shows private events", [
    { url: "/events", ...everyone([114, 112, 111, 110, 109, 106, 105, 104, 101]) },
  ]);

  table("repository feeds show private events to readers with password or repo token, else 404", [
    { url: "/repos/alice/public/events", ...everyone([104, 101]) },
    { url: "/repos/acme/widgets/events", ...everyone([112, 111, 106]) },
    // Owner and collaborator read it; an org member of another org and an outsider do not; repo is needed.
    {
      url: "/repos/alice/private/events",
      alice: [103, 102],
      "alice+repo": [103, 102],
      "bob+repo": [103, 102],
      others: 404,
    },
    // Organization members read the organization's private repositories.
    { url: "/repos/acme/secret/events", alice: [108, 107], "alice+repo": [108, 107], carol: [108, 107], others: 404 },
    { url: "/repos/carol/notes/events", carol: [113], others: 404 },
    // Names compare case-insensitively, as on GitHub.
    {
      url: "/repos/Alice/Private/events",
      alice: [103, 102],
      "alice+repo": [103, 102],
      "bob+repo": [103, 102],
      others: 404,
    },
  ]);

  table("network feeds show public events of every repository in the fork network", [
    { url: "/networks/alice/public/events", ...everyone([110, 105, 104, 101]) },
    { url: "/networks/bob/public-fork/events", ...everyone([110, 105, 104, 101]) },
    { url: "/networks/dave/fork2/events", ...everyone([110, 105, 104, 101]) },
    { url: "/networks/dave/solo/events", ...everyone([114, 109]) },
    // Readers get the network's public events (none here); everyone else cannot tell the repository exists.
    { url: "/networks/alice/private/events", alice: [], "alice+repo": [], "bob+repo": [], others: 404 },
  ]);

  table("the organization feed shows public events of its repositories to everyone, members included", [
    { url: "/orgs/acme/events", ...everyone([112, 111, 106]) },
  ]);

  table("received events include private ones only for the user, and only in repositories the user can read", [
    // bob follows alice (101, 102 in alice/private which bob collaborates on, 108 in acme/secret which he cannot read)
    // and watches acme/widgets (106, 111, 112).
    { url: "/users/bob/received_events", "bob+repo": [112, 111, 106, 102, 101], others: [112, 111, 106, 101] },
    // alice follows carol (106, 107 in acme/secret which alice reads as a member, 113 in carol/notes which she cannot)
    // and watches dave/solo (109, 114).
    {
      url: "/users/alice/received_events",
      alice: [114, 109, 107, 106],
      "alice+repo": [114, 109, 107, 106],
      others: [114, 109, 106],
    },
    // carol follows dave (109, 110, 112) and watches acme/secret (107, 108).
    { url: "/users/carol/received_events", carol: [112, 110, 109, 108, 107], others: [112, 110, 109] },
    // dave follows bob (103 in alice/private, which dave cannot read; 104, 105).
    { url: "/users/dave/received_events", ...everyone([105, 104]) },
    { url: "/users/bob/received_events/public", ...everyone([112, 111, 106, 101]) },
    { url: "/users/alice/received_events/public", ...everyone([114, 109, 106]) },
    { url: "/users/carol/received_events/public", ...everyone([112, 110, 109]) },
  ]);

  table("a user's events include private ones only for the user", [
    { url: "/users/alice/events", alice: [108, 102, 101], "alice+repo": [108, 102, 101], others: [101] },
    { url: "/users/bob/events", "bob+repo": [105, 104, 103], others: [105, 104] },
    { url: "/users/carol/events", carol: [113, 107, 106], others: [106] },
    { url: "/users/erin/events", ...everyone([114, 111]) },
    { url: "/users/alice/events/public", ...everyone([101]) },
    { url: "/users/carol/events/public", ...everyone([106]) },
    // Organizations are accounts too; their own feed of performed events is empty here.
    { url: "/users/acme/events", ...everyone([]) },
  ]);

  table("the organization dashboard is only for the authenticated member it belongs to", [
    // Private events of the org's repositories need password auth or a repo token, like every private feed.
    {
      url: "/users/alice/events/orgs/acme",
      alice: [112, 111, 108, 107, 106],
      "alice+repo": [112, 111, 108, 107, 106],
      "alice-repo": [112, 111, 106],
      others: 404,
    },
    { url: "/users/carol/events/orgs/acme", carol: [112, 111, 108, 107, 106], others: 404 },
    // bob is not a member, so not even bob sees it.
    { url: "/users/bob/events/orgs/acme", ...everyone(404) },
    { url: "/users/alice/events/orgs/alice", ...everyone(404) },
    { url: "/users/alice/events/orgs/nobody", ...everyone(404) },
    { url: "/users/nobody/events/orgs/acme", ...everyone(404) },
  ]);

  table("unknown users, organizations and repositories are 404", [
    { url: "/repos/alice/nope/events", ...everyone(404) },
    { url: "/repos/nobody/public/events", ...everyone(404) },
    { url: "/repos/alice/nope/issues/events", ...everyone(404) },
    { url: "/networks/alice/nope/events", ...everyone(404) },
    { url: "/orgs/nobody/events", ...everyone(404) },
    // A user is not an organization.
    { url: "/orgs/alice/events", ...everyone(404) },
    { url: "/users/nobody/events", ...everyone(404) },
    { url: "/users/nobody/events/public", ...everyone(404) },
    { url: "/users/nobody/received_events", ...everyone(404) },
    { url: "/users/nobody/received_events/public", ...everyone(404) },
  ]);

  table("issue events follow their repository's visibility", [
    { url: "/repos/alice/public/issues/events", ...everyone([5003, 5001]) },
    { url: "/repos/alice/private/issues/events", alice: [5002], "alice+repo": [5002], "bob+repo": [5002], others: 404 },
    { url: "/repos/acme/widgets/issues/events", ...everyone([]) },
  ]);

  describe("event elements", () => {
    type Json = Record<string, unknown>;
    const feed = async (url: string, caller: Caller = "alice") => (await get(url, caller)).json() as Json[];
    const byId = async (id: string) =>
      (await feed("/users/alice/events/orgs/acme?per_page=100"))
        .concat(await feed("/events"))
        .find((e) => e.id === id)!;

    test("every element has a string id, type, actor.login, repo.name owner/repo, payload, public and created_at, in GitHub's key order", async () => {
      const events = [
        ...(await feed("/events")),
        ...(await feed("/users/alice/events")),
        ...(await feed("/users/carol/events", "carol")),
      ];
      assert.ok(events.length > 10);
      // 114 is served as its file's text, key order included (see below).
      for (const e of events.filter((e) => e.id !== "114")) {
        const keys = Object.keys(e);
        assert.deepEqual(
          keys.slice(0, 7),
          ["id", "type", "actor", "repo", "payload", "public", "created_at"],
          `keys of ${e.id}`,
        );
        assert.match(e.id as string, /^[0-9]+$/);
        assert.match(e.type as string, /^[A-Z][A-Za-z]+Event$/);
        assert.equal(typeof (e.actor as Json).login, "string");
        assert.match((e.repo as Json).name as string, /^[^/]+\/[^/]+$/);
        assert.equal(typeof e.payload, "object");
        assert.equal(typeof e.public, "boolean");
        assert.match(e.created_at as string, TIMESTAMP);
      }
    });

    test("private events say public: false and public ones public: true", async () => {
      const events = await feed("/users/alice/events");
      assert.deepEqual(
        events.map((e) => [e.id, e.public]),
        [
          ["108", false],
          ["102", false],
          ["101", true],
        ],
      );
    });

    test("org is present only on events attributed to an organization", async () => {
      const events = await feed("/users/alice/events/orgs/acme");
      assert.deepEqual(
        events.map((e) => [e.id, "org" in e]),
        [
          ["112", false],
          ["111", true],
          ["108", true],
          ["107", true],
          ["106", true],
        ],
      );
      for (const e of await feed("/events"))
        if (e.id !== "111" && e.id !== "106") assert.equal("org" in e, false, `org on ${e.id}`);
    });

    test("a partial envelope comes back completed with ids, urls and avatars", async () => {
      const bob = (await t.store.users.findByLogin("bob"))!;
      const repo = (await t.store.directory.findRepo("alice", "public"))!;
      const e = await byId("104");
      assert.deepEqual(e, {
        id: "104",
        type: "ForkEvent",
        actor: {
          id: bob.wireId,
          login: "bob",
          gravatar_id: "",
          url: `${BASE}/users/bob`,
          avatar_url: "https://github.com/identicons/bob.png",
        },
        repo: { id: repo.wireId, name: "alice/public", url: `${BASE}/repos/alice/public` },
        payload: { forkee: { full_name: "bob/public-fork" } },
        public: true,
        created_at: at(4),
      });
    });

    test("a partial org is completed with the organization's id and URL", async () => {
      const acme = (await t.store.users.findByLogin("acme"))!;
      const widgets = (await t.store.directory.findRepo("acme", "widgets"))!;
      const e = await byId("106");
      // acme and acme/widgets took GitHub's ids from the complete event 111: partial envelopes show the same ids.
      assert.equal(acme.wireId, 8001);
      assert.equal(widgets.wireId, 7001);
      assert.deepEqual(e.org, {
        id: 8001,
        login: "acme",
        gravatar_id: "",
        url: `${BASE}/orgs/acme`,
        avatar_url: "https://github.com/identicons/acme.png",
      });
      assert.deepEqual(e.repo, { id: 7001, name: "acme/widgets", url: `${BASE}/repos/acme/widgets` });
    });

    test("a complete envelope comes back exactly as given", async () => {
      const res = await get("/orgs/acme/events", "anonymous");
      assert.ok(res.body.includes(JSON.stringify(COMPLETE_111)), res.body);
      assert.deepEqual(res.json()[1], COMPLETE_111);
    });

    test("a complete event from an NDJSON file is served as its original text, spacing and key order included", async () => {
      const res = await get("/users/erin/events", "anonymous");
      assert.ok(res.body.startsWith(`[${RAW_114},`), res.body);
    });

    test("issue events have a string id, event, created_at, actor.login and issue, and no repo key", async () => {
      const dave = (await t.store.users.findByLogin("dave"))!;
      const events = (await get("/repos/alice/public/issues/events", "anonymous")).json() as Json[];
      assert.deepEqual(events[0], {
        id: "5003",
        event: "labeled",
        actor: {
          id: dave.wireId,
          login: "dave",
          gravatar_id: "",
          url: `${BASE}/users/dave`,
          avatar_url: "https://github.com/identicons/dave.png",
        },
        commit_id: null,
        label: { name: "bug", color: "f00" },
        created_at: at(3),
        issue: { title: "Another thing", number: 2, state: "open" },
      });
      for (const e of events) {
        assert.equal(typeof e.id, "string");
        assert.equal(typeof e.event, "string");
        assert.match(e.created_at as string, TIMESTAMP);
        assert.equal(typeof (e.actor as Json).login, "string");
        const issue = e.issue as Json;
        assert.deepEqual(
          [typeof issue.title, Number.isInteger(issue.number), typeof issue.state],
          ["string", true, "string"],
        );
        assert.equal("repo" in e, false);
      }
      assert.deepEqual(events[1]!.issue, { title: "Fix the thing", number: 1, state: "closed" });
    });
  });
});
