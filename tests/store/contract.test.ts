/**
 * The store contract: one suite, run against every driver (SQLite always; PostgreSQL when reachable, and
 * always under CI). Feeds are checked against a reference model written here in plain TypeScript, for every
 * scope and visibility kind; the last suite runs one scenario on both drivers and requires identical answers.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import {
  DuplicateError, IngestConflictError, type AuthorizationRow, type EventScope, type FeedPage, type IngestBatch, type Store,
  type StoreVersion, type Visibility,
} from "../../src/server/store/store.js";
import { addEvent, emptyBatch, parseEvent } from "../../src/server/services/event-envelope.js";
import { worldBatch } from "../../src/server/services/world.js";
import { hashToken } from "../../src/server/services/credentials.js";
import { DRIVERS, postgresSkip, type OpenedStore } from "../helpers/store-drivers.js";
import { event, snapshot } from "../helpers/ingest-fixtures.js";

const NOW = new Date("2026-01-15T10:00:00Z");
/** An ingest result's counts of accounts, repositories and tokens when a batch names only stored ones. */
const NOTHING_ELSE_ADDED = { usersAdded: 0, organizationsAdded: 0, reposAdded: 0, tokensAdded: 0 };
const LATER = new Date("2026-01-15T11:30:00Z");
const HASH = "scrypt$not-a-real-hash";
const newUser = (login: string, extra: { siteAdmin?: boolean; otpSecret?: string } = {}) => ({
  login, passwordHash: HASH, otpSecret: extra.otpSecret ?? null, siteAdmin: extra.siteAdmin ?? false,
});
/** 40 hex characters whose last eight differ from token to token. */
const token = (n: number) => `${"ab".repeat(16)}${String(n).padStart(8, "0")}`;
const newAuthorization = (userId: number, n: number, extra: Partial<{ scopes: string[]; note: string | null; lastEight: string }> = {}) => ({
  userId, hashedToken: hashToken(token(n)), tokenLastEight: extra.lastEight ?? token(n).slice(-8),
  scopes: extra.scopes ?? ["repo"], note: extra.note === undefined ? `note ${n}` : extra.note, noteUrl: null, fingerprint: null,
});

// ---------------------------------------------------------------------------------------------------------
// The scenario: a small world with every relation a feed depends on, and generated events with tied times,
// ids of different lengths (so numeric and text order differ), private repositories and repository-less events.

const USERS = ["alice", "bob", "carol", "dave", "erin", "zed"];
const ORGS: Record<string, string[]> = { acme: ["alice", "carol"], umbrella: ["dave"] };
interface RepoSpec { full_name: string; private?: boolean; fork_of?: string; collaborators?: string[] }
const REPOS: RepoSpec[] = [
  { full_name: "alice/pub" },
  { full_name: "alice/priv", private: true, collaborators: ["bob"] },
  { full_name: "acme/widgets" },
  { full_name: "acme/secret", private: true },
  { full_name: "bob/fork", fork_of: "alice/pub" },
  { full_name: "dave/fork2", fork_of: "bob/fork" },
  { full_name: "dave/solo" },
  { full_name: "umbrella/labs", private: true, collaborators: ["erin"] },
];
const FOLLOWS: Record<string, string[]> = { alice: ["carol"], bob: ["alice"], carol: ["dave"], dave: ["bob"], erin: ["alice", "dave"] };
const WATCHES: Record<string, string[]> = {
  alice: ["dave/solo"], bob: ["acme/widgets"], carol: ["acme/secret"], erin: ["alice/priv", "umbrella/labs"],
};

interface ModelEvent { id: string; actor: string; repo: string | null; org: string | null; public: boolean; time: number }
interface ModelIssueEvent { id: string; repo: string; actor: string | null; time: number }

const BASE = Date.UTC(2024, 0, 10, 12, 0, 0) / 1000;
const iso = (seconds: number) => new Date(seconds * 1000).toISOString().replace(".000Z", "Z");

/** A deterministic generator, so both drivers (and every run) see the same events. */
function random(seed: number) {
  let state = seed;
  return (n: number) => { // mulberry32
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n);
  };
}

const repoSpec = (name: string) => REPOS.find((r) => r.full_name === name)!;
const ownerOf = (repo: string) => repo.slice(0, repo.indexOf("/"));

function generateEvents(): ModelEvent[] {
  const next = random(42);
  const events: ModelEvent[] = [];
  const used = new Set<string>();
  for (let i = 0; i < 90; i++) {
    let id: string;
    do id = String(1 + next(10 ** (2 + (i % 9)))); while (used.has(id));
    used.add(id);
    const actor = USERS[next(USERS.length - 1)]!; // zed never acts
    const time = BASE + next(30) * 60; // 30 distinct minutes for 90 events: many ties
    if (i % 10 === 9) {
      // About no repository (GitHub's 2012 GistEvent / TeamAddEvent): private ones belong to an organization.
      const isPublic = i % 20 === 9;
      events.push({ id, actor, repo: null, org: isPublic ? null : Object.keys(ORGS)[next(2)]!, public: isPublic, time });
      continue;
    }
    const repo = REPOS[next(REPOS.length)]!.full_name;
    const owner = ownerOf(repo);
    // GitHub names the owning organization; a few events name one of a user's repository too.
    const org = owner in ORGS ? owner : i % 11 === 0 ? "umbrella" : null;
    events.push({ id, actor, repo, org, public: !repoSpec(repo).private, time });
  }
  return events;
}

function generateIssueEvents(): ModelIssueEvent[] {
  const next = random(7);
  return Array.from({ length: 24 }, (_, i) => ({
    id: String(500 + next(100000) * 24 + i),
    repo: REPOS[i % REPOS.length]!.full_name,
    actor: i % 5 === 4 ? null : USERS[next(5)]!,
    time: BASE + next(6) * 60,
  }));
}

const EVENTS = generateEvents();
const ISSUE_EVENTS = generateIssueEvents();

function worldEvent(e: ModelEvent) {
  return {
    id: e.id, type: e.repo === null ? (e.public ? "GistEvent" : "TeamAddEvent") : "PushEvent",
    actor: { login: e.actor }, repo: { name: e.repo ?? "/" }, payload: {}, public: e.public, created_at: iso(e.time),
    ...(e.org === null ? {} : { org: { login: e.org } }),
  };
}

/** One complete envelope: stored verbatim, and it gives erin and dave/solo GitHub's ids. */
const COMPLETE_EVENT = {
  id: "77", type: "IssuesEvent",
  actor: { id: 9001, login: "erin", gravatar_id: "", url: "https://api.github.com/users/erin", avatar_url: "https://avatars.githubusercontent.com/u/9001?" },
  repo: { id: 7001, name: "dave/solo", url: "https://api.github.com/repos/dave/solo" },
  payload: { action: "opened", issue: { number: 1 } }, public: true, created_at: iso(BASE + 45 * 60),
};
const COMPLETE_MODEL: ModelEvent = { id: "77", actor: "erin", repo: "dave/solo", org: null, public: true, time: BASE + 45 * 60 };
const ALL_EVENTS = [...EVENTS, COMPLETE_MODEL];

const WORLD = {
  users: USERS.map((login) => ({
    login, ...(login === "erin" ? {} : { password: `${login}-password` }),
    ...(FOLLOWS[login] ? { following: FOLLOWS[login] } : {}), ...(WATCHES[login] ? { watching: WATCHES[login] } : {}),
  })),
  orgs: Object.entries(ORGS).map(([login, members]) => ({ login, members })),
  repos: REPOS,
  tokens: [{ user: "alice", token: "0123456789abcdef0123456789abcdef01234567", scopes: ["repo", "user"], note: "seeded" }],
  events: [...EVENTS.map(worldEvent), COMPLETE_EVENT],
  issue_events: ISSUE_EVENTS.map((e) => ({
    repo: e.repo, id: e.id, event: "closed", actor: e.actor === null ? null : { login: e.actor }, created_at: iso(e.time),
    issue: { title: `issue ${e.id}`, number: 1, state: "closed" },
  })),
};

/** The world's batch, built once: both drivers (and both applies) get the very same entries and hashes. */
let worldBatchOnce: Promise<IngestBatch> | undefined;
async function theWorld(store: Store): Promise<IngestBatch> {
  worldBatchOnce ??= worldBatch(store, WORLD, { baseDir: undefined });
  return worldBatchOnce;
}

// The reference model of who sees what.
const networkRoot = (repo: string): string => {
  const parent = repoSpec(repo).fork_of;
  return parent ? networkRoot(parent) : repo;
};
const canRead = (user: string, repo: string) => {
  const owner = ownerOf(repo);
  return owner === user || (repoSpec(repo).collaborators ?? []).includes(user) || (ORGS[owner] ?? []).includes(user);
};

type ModelScope =
  | { kind: "all" } | { kind: "repo"; repo: string } | { kind: "network"; root: string } | { kind: "org"; org: string }
  | { kind: "actor"; actor: string } | { kind: "received"; user: string };
type ModelVisibility = { kind: "public" } | { kind: "all" } | { kind: "readable-by"; user: string };

function inScope(e: ModelEvent, scope: ModelScope): boolean {
  switch (scope.kind) {
    case "all": return true;
    case "repo": return e.repo === scope.repo;
    case "network": return e.repo !== null && networkRoot(e.repo) === scope.root;
    case "org": return e.org === scope.org || (e.repo !== null && ownerOf(e.repo) === scope.org);
    case "actor": return e.actor === scope.actor;
    case "received": return (FOLLOWS[scope.user] ?? []).includes(e.actor) ||
      (e.repo !== null && (WATCHES[scope.user] ?? []).includes(e.repo));
  }
}

function visible(e: ModelEvent, visibility: ModelVisibility): boolean {
  if (visibility.kind === "all" || e.public) return true;
  if (visibility.kind === "public") return false;
  if (e.repo !== null) return canRead(visibility.user, e.repo);
  return e.org !== null && (ORGS[e.org] ?? []).includes(visibility.user);
}

/** Newest first; equal times by descending id, compared as numbers (they are 64-bit integers in both stores). */
const newestFirst = (a: { time: number; id: string }, b: { time: number; id: string }) =>
  b.time - a.time || (BigInt(b.id) > BigInt(a.id) ? 1 : BigInt(b.id) < BigInt(a.id) ? -1 : 0);

const SCOPES: ModelScope[] = [
  { kind: "all" },
  ...REPOS.map((r) => ({ kind: "repo", repo: r.full_name }) as const),
  ...[...new Set(REPOS.map((r) => networkRoot(r.full_name)))].map((root) => ({ kind: "network", root }) as const),
  ...Object.keys(ORGS).map((org) => ({ kind: "org", org }) as const),
  ...USERS.map((actor) => ({ kind: "actor", actor }) as const),
  ...USERS.map((user) => ({ kind: "received", user }) as const),
];
const VISIBILITIES: ModelVisibility[] = [
  { kind: "public" }, { kind: "all" }, ...USERS.map((user) => ({ kind: "readable-by", user }) as const),
];

const label = (scope: ModelScope, visibility: ModelVisibility) =>
  `${JSON.stringify(scope)} seen as ${JSON.stringify(visibility)}`;

/** Turns model names into the store's row ids. */
async function resolver(store: Store) {
  const userId = async (login: string) => (await store.users.findByLogin(login))!.id;
  const repo = async (name: string) => (await store.directory.findRepo(ownerOf(name), name.slice(name.indexOf("/") + 1)))!;
  return {
    userId, repo,
    async scope(s: ModelScope): Promise<EventScope> {
      switch (s.kind) {
        case "all": return { kind: "all" };
        case "repo": return { kind: "repo", repoId: (await repo(s.repo)).id };
        case "network": return { kind: "network", networkId: (await repo(s.root)).networkId };
        case "org": return { kind: "org", orgId: await userId(s.org) };
        case "actor": return { kind: "actor", actorId: await userId(s.actor) };
        case "received": return { kind: "received", userId: await userId(s.user) };
      }
    },
    async visibility(v: ModelVisibility): Promise<Visibility> {
      return v.kind === "readable-by" ? { kind: "readable-by", userId: await userId(v.user) } : v;
    },
  };
}

const pageIds = (page: FeedPage) => page.rows.map((row) => (JSON.parse(row.body) as { id: string }).id);
const ALL = { limit: 1000, offset: 0, notBefore: null };

// ---------------------------------------------------------------------------------------------------------

for (const driver of DRIVERS) {
  describe(`store contract: ${driver.name}`, { skip: driver.skip }, () => {
    describe("users", () => {
      let s: OpenedStore;
      before(async () => { s = await driver.open(); });
      after(() => s.close());

      test("create returns the login user, and findByLogin finds it whatever the letter case", async () => {
        const alice = await s.store.users.create(newUser("Alice", { siteAdmin: true, otpSecret: "JBSWY3DPEHPK3PXP" }));
        assert.equal(alice.login, "Alice");
        assert.equal(alice.type, "User");
        assert.equal(alice.wireId, alice.id);
        assert.equal(alice.passwordHash, HASH);
        assert.equal(alice.otpSecret, "JBSWY3DPEHPK3PXP");
        assert.equal(alice.siteAdmin, true);
        assert.ok(alice.createdAt instanceof Date && !Number.isNaN(alice.createdAt.getTime()));
        for (const login of ["Alice", "alice", "ALICE"]) assert.deepEqual(await s.store.users.findByLogin(login), alice, login);
        assert.equal(await s.store.users.findByLogin("alic"), null);
        assert.deepEqual(await s.store.users.findById(alice.id), alice);
        assert.equal(await s.store.users.findById(alice.id + 1000), null);
      });

      test("a login taken in any letter case is a DuplicateError", async () => {
        await assert.rejects(s.store.users.create(newUser("aLiCe")), DuplicateError);
      });

      test("create claims an account known only from imported events: same row, GitHub's id kept", async () => {
        const batch = emptyBatch();
        addEvent(batch, parseEvent({ ...COMPLETE_EVENT, actor: { ...COMPLETE_EVENT.actor, login: "Importee" } }, "events[0]"));
        await s.store.ingest.apply(batch, NOW);
        const imported = (await s.store.users.findByLogin("importee"))!;
        assert.equal(imported.passwordHash, null);
        assert.equal(imported.wireId, 9001);
        assert.equal(imported.createdAt.getTime(), NOW.getTime());

        const claimed = await s.store.users.create(newUser("IMPORTEE"));
        assert.equal(claimed.id, imported.id);
        assert.equal(claimed.login, "Importee");
        assert.equal(claimed.wireId, 9001);
        assert.equal(claimed.passwordHash, HASH);
        // Once claimed it has a password: a second claim is a duplicate.
        await assert.rejects(s.store.users.create(newUser("importee")), DuplicateError);
      });

      test("an organization's login cannot be claimed as a user", async () => {
        const batch = emptyBatch();
        batch.accounts.push({ source: "orgs[0]", login: "acme", type: "Organization" });
        await s.store.ingest.apply(batch, NOW);
        await assert.rejects(s.store.users.create(newUser("ACME")), DuplicateError);
        assert.equal((await s.store.users.findByLogin("acme"))!.passwordHash, null);
      });

      test("list and count cover only accounts that can log in, in creation order", async () => {
        const bob = await s.store.users.create(newUser("bob"));
        const listed = await s.store.users.list();
        assert.deepEqual(listed.map((u) => u.login), ["Alice", "Importee", "bob"]);
        assert.deepEqual(listed.map((u) => u.id), [...listed.map((u) => u.id)].sort((a, b) => a - b));
        assert.equal(await s.store.users.count(), 3);
        assert.deepEqual(listed[2], bob);
        // The imported actor of the repository and the organization exist, but are not login users.
        assert.equal((await s.store.users.findByLogin("dave"))?.passwordHash, null);
        assert.equal((await s.store.users.findByLogin("acme"))?.type, "Organization");
      });

      test("setPassword replaces the hash", async () => {
        const bob = (await s.store.users.findByLogin("bob"))!;
        await s.store.users.setPassword(bob.id, "scrypt$another");
        assert.equal((await s.store.users.findById(bob.id))!.passwordHash, "scrypt$another");
        assert.equal((await s.store.users.findByLogin("alice"))!.passwordHash, HASH);
      });
    });

    describe("authorizations", () => {
      let s: OpenedStore;
      let alice: number;
      let bob: number;
      before(async () => {
        s = await driver.open();
        alice = (await s.store.users.create(newUser("alice"))).id;
        bob = (await s.store.users.create(newUser("bob"))).id;
      });
      after(() => s.close());

      test("create stores every field and both times; find returns it only to its owner", async () => {
        const created = await s.store.authorizations.create(
          { ...newAuthorization(alice, 1, { scopes: ["repo", "user"] }), noteUrl: "https://ci.example", fingerprint: "fp" }, NOW);
        assert.deepEqual({ ...created, id: 0 }, {
          id: 0, userId: alice, hashedToken: hashToken(token(1)), tokenLastEight: token(1).slice(-8), scopes: ["repo", "user"],
          note: "note 1", noteUrl: "https://ci.example", fingerprint: "fp", createdAt: NOW, updatedAt: NOW,
        });
        assert.deepEqual(await s.store.authorizations.find(alice, created.id), created);
        assert.equal(await s.store.authorizations.find(bob, created.id), null);
        assert.equal(await s.store.authorizations.find(alice, created.id + 1000), null);
      });

      test("a token already stored is a DuplicateError, for any user", async () => {
        await assert.rejects(s.store.authorizations.create(newAuthorization(bob, 1), NOW), DuplicateError);
      });

      test("list pages oldest first with the user's total", async () => {
        for (let n = 2; n <= 5; n++) await s.store.authorizations.create(newAuthorization(alice, n), new Date(NOW.getTime() + n * 1000));
        await s.store.authorizations.create(newAuthorization(bob, 6), NOW);
        const all = await s.store.authorizations.list(alice, { limit: 100, offset: 0 });
        assert.equal(all.total, 5);
        assert.deepEqual(all.rows.map((a) => a.note), ["note 1", "note 2", "note 3", "note 4", "note 5"]);
        const second = await s.store.authorizations.list(alice, { limit: 2, offset: 2 });
        assert.deepEqual(second, { rows: all.rows.slice(2, 4), total: 5 });
        assert.deepEqual(await s.store.authorizations.list(alice, { limit: 2, offset: 4 }), { rows: all.rows.slice(4), total: 5 });
        assert.deepEqual(await s.store.authorizations.list(alice, { limit: 2, offset: 10 }), { rows: [], total: 5 });
        const bobs = await s.store.authorizations.list(bob, { limit: 100, offset: 0 });
        assert.deepEqual(bobs.rows.map((a) => a.note), ["note 6"]);
        assert.equal(bobs.total, 1);
      });

      test("update sets the fields given (null included), keeps the absent ones, and moves only updatedAt", async () => {
        const [first] = (await s.store.authorizations.list(alice, { limit: 1, offset: 0 })).rows;
        const cleared = await s.store.authorizations.update(alice, first!.id, { note: null, scopes: ["gist"] }, LATER);
        assert.deepEqual(cleared, { ...first!, note: null, scopes: ["gist"], updatedAt: LATER });

        const later = new Date(LATER.getTime() + 60_000);
        const untouched = await s.store.authorizations.update(alice, first!.id, {}, later);
        assert.deepEqual(untouched, { ...cleared!, updatedAt: later });

        const fingerprinted = await s.store.authorizations.update(alice, first!.id, { fingerprint: "fp2", noteUrl: null }, later);
        assert.deepEqual(fingerprinted, { ...untouched!, fingerprint: "fp2", noteUrl: null });
        assert.deepEqual(await s.store.authorizations.find(alice, first!.id), fingerprinted);

        assert.equal(await s.store.authorizations.update(bob, first!.id, { note: "stolen" }, later), null);
        assert.equal((await s.store.authorizations.find(alice, first!.id))!.note, null);
      });

      test("findByTokenLastEight returns every candidate with those last eight characters", async () => {
        const shared = "zzzz0000";
        const a = await s.store.authorizations.create(newAuthorization(alice, 7, { lastEight: shared }), NOW);
        const b = await s.store.authorizations.create(newAuthorization(bob, 8, { lastEight: shared }), NOW);
        const found = await s.store.authorizations.findByTokenLastEight(shared);
        assert.deepEqual(found.sort((x, y) => x.id - y.id), [a, b]);
        assert.deepEqual(await s.store.authorizations.findByTokenLastEight("nothing!"), []);
      });

      test("delete removes only the owner's row, once", async () => {
        const [row] = (await s.store.authorizations.list(alice, { limit: 1, offset: 0 })).rows;
        assert.equal(await s.store.authorizations.delete(bob, row!.id), false);
        assert.ok(await s.store.authorizations.find(alice, row!.id));
        assert.equal(await s.store.authorizations.delete(alice, row!.id), true);
        assert.equal(await s.store.authorizations.delete(alice, row!.id), false);
        assert.equal(await s.store.authorizations.find(alice, row!.id), null);
        assert.deepEqual(await s.store.authorizations.findByTokenLastEight(row!.tokenLastEight), []);
        assert.equal((await s.store.authorizations.list(alice, { limit: 100, offset: 0 })).total, 5);
      });
    });

    describe("account administration", () => {
      let s: OpenedStore;
      const id = async (login: string) => (await s.store.users.findByLogin(login))!.id;
      /** The rows of a relation table that name the account, in any column. */
      const rowsNaming = async (table: string, accountId: number) =>
        ((await snapshot(s.db))[table] as Record<string, unknown>[]).filter((row) =>
          Object.entries(row).some(([column, value]) => column !== "id" && column.endsWith("_id") && Number(value) === accountId));
      before(async () => {
        s = await driver.open();
        // zoe has relations of every kind and no history; ivy acts in an event; both hold tokens.
        await s.store.ingest.apply(await worldBatch(s.store, {
          users: [
            { login: "zoe", password: "zoe-pw", otp_secret: "JBSWY3DPEHPK3PXP", site_admin: true, following: ["bob"], watching: ["bob/repo"] },
            { login: "bob", password: "bob-pw", following: ["zoe", "ivy"] },
            { login: "ivy", password: "ivy-pw" },
          ],
          orgs: [{ login: "acme", members: ["zoe", "ivy"] }],
          repos: [{ full_name: "bob/repo", collaborators: ["zoe"] }],
          events: [event("501", "PushEvent", "ivy", "bob/repo", { public: true })],
        }, { baseDir: undefined }), NOW);
        for (const [n, login] of [[1, "zoe"], [2, "zoe"], [3, "bob"], [4, "ivy"]] as const) {
          await s.store.authorizations.create(newAuthorization(await id(login), n), new Date(NOW.getTime() + n * 1000));
        }
      });
      after(() => s.close());

      test("a new user is not suspended; setSuspended sets and clears the time, setOtpSecret the secret", async () => {
        const bob = await id("bob");
        assert.equal((await s.store.users.findById(bob))!.suspendedAt, null);
        await s.store.users.setSuspended(bob, LATER);
        assert.deepEqual((await s.store.users.findByLogin("BOB"))!.suspendedAt, LATER);
        assert.deepEqual((await s.store.users.list()).find((u) => u.id === bob)!.suspendedAt, LATER);
        await s.store.users.setSuspended(bob, null);
        assert.equal((await s.store.users.findById(bob))!.suspendedAt, null);
        await s.store.users.setOtpSecret(bob, "KRSXG5CTMVRXEZLU");
        assert.equal((await s.store.users.findById(bob))!.otpSecret, "KRSXG5CTMVRXEZLU");
        await s.store.users.setOtpSecret(bob, null);
        assert.equal((await s.store.users.findById(bob))!.otpSecret, null);
      });

      test("listAll gives every token with its owner's login, oldest first, or one user's; countByUser counts them", async () => {
        const all = await s.store.authorizations.listAll();
        assert.deepEqual(all.map((a) => [a.login, a.note]), [["zoe", "note 1"], ["zoe", "note 2"], ["bob", "note 3"], ["ivy", "note 4"]]);
        assert.deepEqual(all[0], { ...(await s.store.authorizations.find(await id("zoe"), all[0]!.id))!, login: "zoe" });
        assert.deepEqual((await s.store.authorizations.listAll(await id("zoe"))).map((a) => a.note), ["note 1", "note 2"]);
        assert.deepEqual(await s.store.authorizations.listAll(await id("acme")), []);
        assert.deepEqual(await s.store.authorizations.countByUser(),
          new Map([[await id("zoe"), 2], [await id("bob"), 1], [await id("ivy"), 1]]));
      });

      test("revoke deletes a token by id whoever owns it, once", async () => {
        const [bobs] = await s.store.authorizations.listAll(await id("bob"));
        const { login, ...row } = bobs!;
        assert.equal(login, "bob");
        assert.deepEqual(await s.store.authorizations.revoke(row.id), row);
        assert.equal(await s.store.authorizations.revoke(row.id), null);
        assert.deepEqual(await s.store.authorizations.findByTokenLastEight(row.tokenLastEight), []);
        assert.equal((await s.store.authorizations.countByUser()).get(await id("bob")), undefined);
      });

      test("delete of an account history does not name removes its row, tokens and every relation, and raises the generation", async () => {
        const zoe = await id("zoe");
        const before = await s.store.events.version();
        assert.deepEqual(await s.store.users.delete(zoe), { authorizationsDeleted: 2, rowKept: false });
        assert.equal(await s.store.users.findByLogin("zoe"), null);
        for (const table of ["authorizations", "follows", "watches", "org_members", "collaborators"]) {
          assert.deepEqual(await rowsNaming(table, zoe), [], table);
        }
        const after = await s.store.events.version();
        assert.equal(after.generation, before.generation + 1);
        assert.ok(after.credentials > before.credentials && after.access > before.access);
        assert.ok(await s.store.events.receivedVersion(zoe) > 0);
        // Other accounts' relations stay.
        assert.equal((await rowsNaming("follows", await id("ivy"))).length, 1);
        assert.ok(await s.store.directory.isMember(await id("acme"), await id("ivy")));
        // The login is free again.
        assert.equal((await s.store.users.create(newUser("zoe"))).login, "zoe");
      });

      test("delete of an account an event names keeps the row without credentials, and the event", async () => {
        const ivy = await id("ivy");
        await s.store.users.setSuspended(ivy, NOW);
        assert.deepEqual(await s.store.users.delete(ivy), { authorizationsDeleted: 1, rowKept: true });
        const kept = (await s.store.users.findById(ivy))!;
        assert.deepEqual([kept.login, kept.passwordHash, kept.otpSecret, kept.siteAdmin, kept.suspendedAt], ["ivy", null, null, false, null]);
        assert.ok(!(await s.store.users.list()).some((u) => u.id === ivy));
        for (const table of ["authorizations", "follows", "org_members"]) assert.deepEqual(await rowsNaming(table, ivy), [], table);
        const feed = await s.store.events.feed({ kind: "actor", actorId: ivy },
          { limit: 10, offset: 0, visibility: { kind: "public" }, notBefore: null });
        assert.equal(feed.total, 1);
      });
    });

    describe("directory", () => {
      let s: OpenedStore;
      before(async () => {
        s = await driver.open();
        await s.store.ingest.apply(await theWorld(s.store), NOW);
      });
      after(() => s.close());

      test("findRepo matches owner and name in any letter case and keeps the stored case", async () => {
        const repo = await s.store.directory.findRepo("ACME", "Widgets");
        assert.equal(repo?.fullName, "acme/widgets");
        assert.equal(repo?.ownerId, (await s.store.users.findByLogin("acme"))!.id);
        assert.equal(repo?.private, false);
        assert.equal(repo?.wireId, repo?.id);
        assert.equal((await s.store.directory.findRepo("acme", "secret"))?.private, true);
        assert.equal(await s.store.directory.findRepo("acme", "nothing"), null);
        assert.equal(await s.store.directory.findRepo("nobody", "widgets"), null);
        // GitHub's id, from the complete envelope.
        assert.equal((await s.store.directory.findRepo("dave", "solo"))?.wireId, 7001);
      });

      test("a fork network is the id of its root repository", async () => {
        const root = (await s.store.directory.findRepo("alice", "pub"))!;
        assert.equal(root.networkId, root.id);
        for (const [owner, name] of [["bob", "fork"], ["dave", "fork2"]] as const) {
          assert.equal((await s.store.directory.findRepo(owner, name))!.networkId, root.id, `${owner}/${name}`);
        }
        const solo = (await s.store.directory.findRepo("dave", "solo"))!;
        assert.equal(solo.networkId, solo.id);
      });

      test("canRead: owner, collaborator and member of the owning organization; nobody else", async () => {
        const { userId, repo } = await resolver(s.store);
        for (const user of USERS) {
          for (const { full_name } of REPOS) {
            assert.equal(await s.store.directory.canRead(await userId(user), (await repo(full_name)).id), canRead(user, full_name),
              `${user} reading ${full_name}`);
          }
        }
      });

      test("findRepoById finds a repository by row id, with its parent (null for a network's root)", async () => {
        const { repo } = await resolver(s.store);
        for (const spec of REPOS) {
          const found = await s.store.directory.findRepoById((await repo(spec.full_name)).id);
          assert.equal(found?.fullName, spec.full_name);
          assert.equal(found?.parentId, spec.fork_of ? (await repo(spec.fork_of)).id : null, spec.full_name);
        }
        assert.equal((await s.store.directory.findRepo("alice", "pub"))?.parentId, null);
        assert.equal(await s.store.directory.findRepoById(987654321), null);
      });

      test("accountCounts: followers, following, and owned repositories by visibility", async () => {
        const { userId } = await resolver(s.store);
        for (const login of [...USERS, ...Object.keys(ORGS)]) {
          const owned = REPOS.filter((r) => ownerOf(r.full_name) === login);
          assert.deepEqual(await s.store.directory.accountCounts(await userId(login)), {
            followers: Object.values(FOLLOWS).filter((followees) => followees.includes(login)).length,
            following: (FOLLOWS[login] ?? []).length,
            publicRepos: owned.filter((r) => !r.private).length,
            privateRepos: owned.filter((r) => r.private).length,
          }, login);
        }
      });

      test("repoStats: watchers, direct forks, the rest of the network, and the stored events' times", async () => {
        const { repo } = await resolver(s.store);
        const time = (seconds: number | undefined) => (seconds === undefined ? null : new Date(seconds * 1000));
        for (const { full_name } of REPOS) {
          const times = ALL_EVENTS.filter((e) => e.repo === full_name).map((e) => e.time);
          // Every event of this world on a repository is a PushEvent but the complete IssuesEvent on dave/solo.
          const pushes = EVENTS.filter((e) => e.repo === full_name).map((e) => e.time);
          assert.deepEqual(await s.store.directory.repoStats((await repo(full_name)).id), {
            watchers: Object.values(WATCHES).filter((repos) => repos.includes(full_name)).length,
            forks: REPOS.filter((r) => r.fork_of === full_name).length,
            networkForks: REPOS.filter((r) => r.full_name !== full_name && networkRoot(r.full_name) === networkRoot(full_name)).length,
            firstEventAt: time(times.length ? Math.min(...times) : undefined),
            lastEventAt: time(times.length ? Math.max(...times) : undefined),
            lastPushAt: time(pushes.length ? Math.max(...pushes) : undefined),
          }, full_name);
        }
      });

      test("repoRole names the relation canRead rests on: owner, collaborator, member, or none", async () => {
        const { userId, repo } = await resolver(s.store);
        for (const user of USERS) {
          for (const { full_name, collaborators = [] } of REPOS) {
            const owner = ownerOf(full_name);
            const expected = owner === user ? "owner" : collaborators.includes(user) ? "collaborator"
              : (ORGS[owner] ?? []).includes(user) ? "member" : null;
            assert.equal(await s.store.directory.repoRole(await userId(user), (await repo(full_name)).id), expected,
              `${user} on ${full_name}`);
          }
        }
      });

      test("isMember says who belongs to which organization", async () => {
        const { userId } = await resolver(s.store);
        for (const [org, members] of Object.entries(ORGS)) {
          for (const user of USERS) {
            assert.equal(await s.store.directory.isMember(await userId(org), await userId(user)), members.includes(user), `${user} in ${org}`);
          }
        }
      });
    });

    describe("ingest", () => {
      let s: OpenedStore;
      before(async () => { s = await driver.open(); });
      after(() => s.close());

      test("applies a world: accounts, organizations, relations, tokens, events and issue events", async () => {
        const result = await s.store.ingest.apply(await theWorld(s.store), NOW);
        assert.deepEqual(result, {
          eventsAdded: ALL_EVENTS.length, eventsSkipped: 0, issueEventsAdded: ISSUE_EVENTS.length, issueEventsSkipped: 0,
          usersAdded: USERS.length, organizationsAdded: Object.keys(ORGS).length, reposAdded: REPOS.length, tokensAdded: 1,
        });
        assert.equal((await s.store.users.findByLogin("acme"))!.type, "Organization");
        assert.equal((await s.store.users.findByLogin("erin"))!.wireId, 9001);
        assert.deepEqual((await s.store.users.list()).map((u) => u.login), USERS.filter((u) => u !== "erin"));
        const [seeded] = await s.store.authorizations.findByTokenLastEight("01234567");
        assert.deepEqual([seeded?.scopes, seeded?.note, seeded?.createdAt], [["repo", "user"], "seeded", NOW]);
      });

      test("applying the same batch again adds nothing and leaves every table identical", async () => {
        const before = await snapshot(s.db);
        const again = await s.store.ingest.apply(await theWorld(s.store), LATER);
        assert.deepEqual(again, {
          eventsAdded: 0, eventsSkipped: ALL_EVENTS.length, issueEventsAdded: 0, issueEventsSkipped: ISSUE_EVENTS.length,
          usersAdded: 0, organizationsAdded: 0, reposAdded: 0, tokensAdded: 0,
        });
        assert.deepEqual(await snapshot(s.db), before);
      });

      test("an event given twice in one batch is added once", async () => {
        const batch = emptyBatch();
        for (const id of ["900000001", "900000001", "900000002"]) {
          addEvent(batch, parseEvent({ ...worldEvent(EVENTS[0]!), id }, `events[${id}]`));
        }
        assert.deepEqual(await s.store.ingest.apply(batch, NOW),
          { eventsAdded: 2, eventsSkipped: 1, issueEventsAdded: 0, issueEventsSkipped: 0, ...NOTHING_ELSE_ADDED });
        const overlapping = emptyBatch();
        for (const id of ["900000002", "900000003"]) addEvent(overlapping, parseEvent({ ...worldEvent(EVENTS[0]!), id }, id));
        assert.deepEqual(await s.store.ingest.apply(overlapping, NOW),
          { eventsAdded: 1, eventsSkipped: 1, issueEventsAdded: 0, issueEventsSkipped: 0, ...NOTHING_ELSE_ADDED });
      });

      test("event bodies come back byte for byte: escapes, backslashes, tabs, line breaks and any Unicode", async () => {
        const tricky = {
          ...COMPLETE_EVENT, id: "990000020",
          payload: { strings: ["back\\slash", "tab\there", "quote\"d", "line\nbreak", "\\N", "\\.", "é ✓ 😀", "nul\u0000escaped"] },
        };
        // A complete envelope is stored as its original text: pretty-printed, that text holds raw tabs and newlines.
        const raw = `  ${JSON.stringify(tricky, null, "\t")}\n`;
        const batch = emptyBatch();
        addEvent(batch, parseEvent(JSON.parse(raw), "tricky.ndjson:1", raw));
        addEvent(batch, parseEvent({ ...worldEvent(EVENTS[0]!), id: "990000021", payload: tricky.payload }, "events[1]"));
        batch.issueEvents.push({ source: "issue_events[0]", id: "990000022", repoName: "dave/solo", actorLogin: null, createdAt: NOW,
          complete: true, body: JSON.stringify({ id: "990000022", event: "renamed", rename: { from: "a\tb\\c", to: "\n😀" } }) });
        await s.store.ingest.apply(batch, NOW);
        const feed = await s.store.events.feed({ kind: "all" }, { ...ALL, visibility: { kind: "all" } });
        const body = (id: string) => feed.rows.find((r) => JSON.parse(r.body).id === id)?.body;
        assert.equal(body("990000020"), raw.trim());
        assert.deepEqual(JSON.parse(body("990000021")!).payload, tricky.payload);
        const repo = (await s.store.directory.findRepo("dave", "solo"))!;
        const [issue] = (await s.store.events.issueFeed(repo.id, ALL)).rows.filter((r) => JSON.parse(r.body).id === "990000022");
        assert.equal(issue?.body, batch.issueEvents[0]!.body);
      });

      /** A batch that writes a little of everything before its last entry conflicts. */
      function conflicting(last: (batch: IngestBatch) => void): IngestBatch {
        const batch = emptyBatch();
        batch.accounts.push({ source: "users[0]", login: "newbie", type: "User", passwordHash: HASH, siteAdmin: true });
        batch.accounts.push({ source: "orgs[0]", login: "newco", type: "Organization" });
        batch.memberships.push({ source: "orgs[0]", org: "newco", member: "newbie" });
        batch.memberships.push({ source: "orgs[1]", org: "acme", member: "bob" });
        batch.repos.push({ source: "repos[0]", fullName: "newco/thing", private: true });
        batch.repos.push({ source: "repos[1]", fullName: "alice/pub", private: true });
        batch.repos.push({ source: "repos[2]", fullName: "dave/solo", forkOf: "acme/widgets" });
        batch.collaborators.push({ source: "repos[0]", repo: "newco/thing", user: "zed" });
        batch.collaborators.push({ source: "repos[3]", repo: "alice/priv", user: "bob", remove: true });
        batch.follows.push({ source: "users[0]", follower: "newbie", followee: "alice" });
        batch.watches.push({ source: "users[0]", user: "newbie", repo: "alice/pub" });
        batch.tokens.push({ source: "tokens[0]", login: "newbie", hashedToken: hashToken(token(40)), tokenLastEight: "abababab", scopes: [], note: null });
        addEvent(batch, parseEvent({ ...worldEvent(EVENTS[0]!), id: "990000001", repo: { name: "newco/thing" } }, "events[0]"));
        batch.issueEvents.push({ source: "issue_events[0]", id: "990000002", repoName: "newco/thing", actorLogin: "newbie", createdAt: NOW, complete: false, body: "{}" });
        last(batch);
        return batch;
      }

      const CONFLICTS: [string, (batch: IngestBatch) => void, RegExp][] = [
        ["a token for an unknown user", (b) => b.tokens.push({ source: "tokens[1]", login: "ghost", hashedToken: hashToken(token(41)),
          tokenLastEight: "abababab", scopes: [], note: null }), /^tokens\[1\]: no user ghost$/],
        ["a token for an organization", (b) => b.tokens.push({ source: "tokens[1]", login: "acme", hashedToken: hashToken(token(42)),
          tokenLastEight: "abababab", scopes: [], note: null }), /^tokens\[1\]: no user acme$/],
        ["another user's token", (b) => b.tokens.push({ source: "tokens[1]", login: "bob",
          hashedToken: hashToken("0123456789abcdef0123456789abcdef01234567"), tokenLastEight: "01234567", scopes: [], note: null }),
        /^tokens\[1\]: the token belongs to another user$/],
        ["a repository forked from itself", (b) => b.repos.push({ source: "repos[9]", fullName: "newco/thing", forkOf: "NEWCO/Thing" }),
          /^repos\[9\]: newco\/thing cannot be a fork of itself$/],
        ["a world user that is an organization", (b) => b.accounts.push({ source: "users[9]", login: "umbrella", type: "User" }),
          /^users\[9\]: umbrella is an organization, not a user$/],
        ["an organization that is a login user", (b) => b.accounts.push({ source: "orgs[9]", login: "bob", type: "Organization" }),
          /^orgs\[9\]: bob is a user who can log in, not an organization$/],
      ];

      for (const [what, last, message] of CONFLICTS) {
        test(`a batch whose last entry is ${what} is refused naming it, and writes nothing at all`, async () => {
          const before = await snapshot(s.db);
          await assert.rejects(s.store.ingest.apply(conflicting(last), LATER), (error: unknown) => {
            assert.ok(error instanceof IngestConflictError, String(error));
            assert.match(error.message, message);
            return true;
          });
          assert.deepEqual(await snapshot(s.db), before);
        });
      }

      test("the same batch without its conflict then applies", async () => {
        const result = await s.store.ingest.apply(conflicting(() => undefined), LATER);
        // newbie, newco, newco/thing and newbie's token are new; everything else it names was stored.
        assert.deepEqual(result, {
          eventsAdded: 1, eventsSkipped: 0, issueEventsAdded: 1, issueEventsSkipped: 0,
          usersAdded: 1, organizationsAdded: 1, reposAdded: 1, tokensAdded: 1,
        });
        assert.equal((await s.store.directory.findRepo("newco", "thing"))?.private, true);
        assert.equal((await s.store.users.findByLogin("newbie"))?.siteAdmin, true);
        // Its removed collaborator can no longer read the private repository; the new one can.
        const { userId, repo } = await resolver(s.store);
        assert.equal(await s.store.directory.canRead(await userId("bob"), (await repo("alice/priv")).id), false);
        assert.equal(await s.store.directory.canRead(await userId("zed"), (await repo("newco/thing")).id), true);
        assert.equal(await s.store.directory.isMember(await userId("acme"), await userId("bob")), true);
      });

      test("logins and repository names match in any spelling, within a batch and across batches; the first spelling stays", async () => {
        const first = emptyBatch();
        first.repos.push({ source: "r0", fullName: "CaseCo/Widget", externalId: 4242 });
        first.watches.push({ source: "w0", user: "CASEWATCHER", repo: "caseco/WIDGET" });
        first.follows.push({ source: "f0", follower: "casewatcher", followee: "CASECO" });
        await s.store.ingest.apply(first, NOW);
        const second = emptyBatch();
        second.repos.push({ source: "r0", fullName: "CASECO/widget", private: true, externalId: 1 });
        second.accounts.push({ source: "a0", login: "caseWatcher", type: "User", externalId: 77 });
        await s.store.ingest.apply(second, NOW);

        const repo = (await s.store.directory.findRepo("caseco", "widget"))!;
        assert.equal(repo.fullName, "CaseCo/Widget");
        assert.equal(repo.private, true);
        assert.equal(repo.wireId, 4242, "a GitHub id once given is kept");
        // Follows apply before watches (IngestBatch's order), so the follow's spelling came first.
        assert.equal(await s.store.directory.loginByWireId(77), "casewatcher");
        assert.equal((await s.store.users.findByLogin("CaseWatcher"))!.id, (await s.store.users.findByLogin("CASEWATCHER"))!.id);
      });

      test("a fork joins its parent's network, bringing every repository already forked from it", async () => {
        const network = async (full: string) => (await s.store.directory.findRepo(ownerOf(full), full.slice(full.indexOf("/") + 1)))!.networkId;
        const id = async (full: string) => (await s.store.directory.findRepo(ownerOf(full), full.slice(full.indexOf("/") + 1)))!.id;
        const first = emptyBatch();
        // Children named before their parents within one batch, and a separate network forked later.
        first.repos.push({ source: "r0", fullName: "x/grandchild", forkOf: "x/child" });
        first.repos.push({ source: "r1", fullName: "x/child", forkOf: "x/root" });
        first.repos.push({ source: "r2", fullName: "y/other" });
        first.repos.push({ source: "r3", fullName: "y/other-fork", forkOf: "y/other" });
        await s.store.ingest.apply(first, NOW);
        const root = await id("x/root");
        for (const repo of ["x/root", "x/child", "x/grandchild"]) assert.equal(await network(repo), root, repo);
        const other = await id("y/other");
        assert.equal(await network("y/other-fork"), other);

        const second = emptyBatch();
        second.repos.push({ source: "r0", fullName: "y/other", forkOf: "x/grandchild" });
        await s.store.ingest.apply(second, NOW);
        for (const repo of ["x/root", "x/child", "x/grandchild", "y/other", "y/other-fork"]) assert.equal(await network(repo), root, repo);
        // The network feed follows.
        const feed = await s.store.events.feed({ kind: "network", networkId: root }, { ...ALL, visibility: { kind: "all" } });
        assert.equal(feed.total, 0);

        // A stored repository first named after its network moved in the same batch is in the new network:
        // y/other-fork was read before the batch, while its network was still y/other's.
        const third = emptyBatch();
        third.repos.push({ source: "r0", fullName: "z/base" });
        const fourth = emptyBatch();
        fourth.repos.push({ source: "r0", fullName: "x/root", forkOf: "z/base" });
        fourth.repos.push({ source: "r1", fullName: "z/late-fork", forkOf: "y/other-fork" });
        await s.store.ingest.apply(third, NOW);
        await s.store.ingest.apply(fourth, NOW);
        const base = await id("z/base");
        for (const repo of ["x/root", "x/child", "x/grandchild", "y/other", "y/other-fork", "z/late-fork"]) {
          assert.equal(await network(repo), base, repo);
        }
      });

      test("an organization named by an event becomes an organization; GitHub's ids come from later complete envelopes", async () => {
        const batch = emptyBatch();
        addEvent(batch, parseEvent({ ...worldEvent(EVENTS[0]!), id: "990000010", actor: { login: "solo-dev" }, repo: { name: "solo-dev/app" },
          org: { login: "latecorp" } }, "e0"));
        await s.store.ingest.apply(batch, NOW);
        const late = (await s.store.users.findByLogin("latecorp"))!;
        assert.equal(late.type, "Organization");
        assert.equal(late.wireId, late.id);
        const complete = emptyBatch();
        addEvent(complete, parseEvent({ ...COMPLETE_EVENT, id: "990000011", actor: { ...COMPLETE_EVENT.actor, id: 424242, login: "solo-dev" },
          repo: { ...COMPLETE_EVENT.repo, id: 515151, name: "solo-dev/app" } }, "e1"));
        await s.store.ingest.apply(complete, NOW);
        assert.equal((await s.store.users.findByLogin("solo-dev"))!.wireId, 424242);
        assert.equal((await s.store.directory.findRepo("solo-dev", "app"))!.wireId, 515151);
      });
    });

    describe("version: which writes raise which number", () => {
      let s: OpenedStore;
      before(async () => {
        s = await driver.open();
        await s.store.ingest.apply(await theWorld(s.store), NOW);
      });
      after(() => s.close());

      /** The numbers a write raised: 0 for one it left alone. */
      async function raisedBy(write: () => Promise<unknown>): Promise<Record<keyof StoreVersion, number>> {
        const before = await s.store.events.version();
        await write();
        const after = await s.store.events.version();
        const raised = { ...after };
        for (const name of Object.keys(after) as (keyof StoreVersion)[]) raised[name] = Math.sign(after[name] - before[name]);
        return raised;
      }
      const NONE = { generation: 0, credentials: 0, repos: 0, access: 0 };
      /** An ingest raises the generation, and the named numbers. */
      const INGEST = { ...NONE, generation: 1 };
      const id = async (login: string) => (await s.store.users.findByLogin(login))!.id;
      const batchOf = (fill: (batch: IngestBatch) => void) => {
        const batch = emptyBatch();
        fill(batch);
        return () => s.store.ingest.apply(batch, NOW);
      };

      test("new events by new accounts in new repositories raise only the generation", async () => {
        const batch = emptyBatch();
        addEvent(batch, parseEvent({ ...COMPLETE_EVENT, id: "880000001", actor: { ...COMPLETE_EVENT.actor, id: 8801, login: "newcomer" },
          repo: { ...COMPLETE_EVENT.repo, id: 8802, name: "newcomer/fresh" } }, "e0"));
        assert.deepEqual(await raisedBy(() => s.store.ingest.apply(batch, NOW)), INGEST);
        // Applying it again adds nothing, and nothing else moves either.
        assert.deepEqual(await raisedBy(() => s.store.ingest.apply(batch, NOW)), INGEST);
      });

      test("tokens raise credentials only: create, update, delete, revoke", async () => {
        const bob = await id("bob");
        let created: AuthorizationRow | undefined;
        assert.deepEqual(await raisedBy(async () => { created = await s.store.authorizations.create(newAuthorization(bob, 71), NOW); }),
          { ...NONE, credentials: 1 });
        assert.deepEqual(await raisedBy(() => s.store.authorizations.update(bob, created!.id, { note: "changed" }, LATER)),
          { ...NONE, credentials: 1 });
        assert.deepEqual(await raisedBy(() => s.store.authorizations.delete(bob, created!.id)), { ...NONE, credentials: 1 });
        const again = await s.store.authorizations.create(newAuthorization(bob, 72), NOW);
        assert.deepEqual(await raisedBy(() => s.store.authorizations.revoke(again.id)), { ...NONE, credentials: 1 });
        // A delete that finds nothing changes nothing.
        assert.deepEqual(await raisedBy(() => s.store.authorizations.delete(bob, again.id)), NONE);
      });

      test("account changes raise credentials", async () => {
        const carol = await id("carol");
        for (const write of [
          () => s.store.users.setPassword(carol, "scrypt$other"),
          () => s.store.users.setOtpSecret(carol, "JBSWY3DPEHPK3PXP"),
          () => s.store.users.setSuspended(carol, NOW),
          () => s.store.users.setSuspended(carol, null),
        ]) {
          assert.deepEqual(await raisedBy(write), { ...NONE, credentials: 1 }, String(write));
        }
      });

      test("each relation raises its number (and the generation, as ingests do)", async () => {
        const cases: Array<[string, () => Promise<unknown>, Partial<StoreVersion>]> = [
          ["follow", batchOf((b) => b.follows.push({ source: "f", follower: "zed", followee: "alice" })), {}],
          ["watch", batchOf((b) => b.watches.push({ source: "w", user: "zed", repo: "alice/pub" })), {}],
          ["member", batchOf((b) => b.memberships.push({ source: "m", org: "acme", member: "zed" })), { access: 1 }],
          ["collaborator", batchOf((b) => b.collaborators.push({ source: "c", repo: "dave/solo", user: "zed" })), { access: 1 }],
          ["private", batchOf((b) => b.repos.push({ source: "r", fullName: "dave/solo", private: true })), { repos: 1 }],
          ["fork", batchOf((b) => b.repos.push({ source: "r", fullName: "dave/solo", forkOf: "acme/widgets" })), { repos: 1 }],
          // Even a fork the batch creates: a trigger cannot tell a row this transaction inserted from an older one, and
          // forgetting too much costs look-ups, never a stale answer.
          ["new fork", batchOf((b) => b.repos.push({ source: "r", fullName: "zed/new-fork", forkOf: "acme/widgets" })), { repos: 1 }],
          ["organization", batchOf((b) => b.accounts.push({ source: "o", login: "newcomer", type: "Organization" })), { credentials: 1 }],
          ["same follow again", batchOf((b) => b.follows.push({ source: "f", follower: "zed", followee: "alice" })), {}],
        ];
        for (const [what, write, raised] of cases) assert.deepEqual(await raisedBy(write), { ...INGEST, ...raised }, what);
      });

      test("follows and watches raise the received number of the user they belong to, and no one else's", async () => {
        const [zed, alice] = [await id("zed"), await id("alice")];
        const received = async () => [await s.store.events.receivedVersion(zed), await s.store.events.receivedVersion(alice)];
        const [zedBefore, aliceBefore] = await received();
        await batchOf((b) => b.follows.push({ source: "f", follower: "zed", followee: "bob" }))();
        assert.deepEqual(await received(), [zedBefore! + 1, aliceBefore]);
        await batchOf((b) => b.watches.push({ source: "w", user: "zed", repo: "dave/solo" }))();
        assert.deepEqual(await received(), [zedBefore! + 2, aliceBefore]);
        // Deleting the account removes its follows and watches: its number moves again.
        await s.store.users.delete(zed);
        assert.ok((await s.store.events.receivedVersion(zed)) > zedBefore! + 2);
        assert.equal(await s.store.events.receivedVersion(999_999), 0);
      });
    });

    describe("arrival order: what live streams read", () => {
      let s: OpenedStore;
      before(async () => {
        s = await driver.open();
        await s.store.ingest.apply(await theWorld(s.store), NOW);
      });
      after(() => s.close());

      const ingest = (...events: Record<string, unknown>[]) => {
        const batch = emptyBatch();
        events.forEach((e, i) => addEvent(batch, parseEvent(e, `events[${i}]`)));
        return s.store.ingest.apply(batch, NOW);
      };
      const alicePriv = async () => (await s.store.directory.findRepo("alice", "priv"))!;
      const lived = (id: string, repo: string, created = "2020-01-01T00:00:00Z") =>
        ({ ...COMPLETE_EVENT, id, created_at: created, repo: { ...COMPLETE_EVENT.repo, id: undefined, name: repo }, public: repo !== "alice/priv" });

      test("numbers events in the order they were stored, whatever their ids and times", async () => {
        const before = await s.store.events.lastArrivals();
        // A smaller id and an older time stored later must still come after.
        await ingest(lived("990000009", "alice/priv", "2025-06-01T00:00:00Z"));
        await ingest(lived("990000001", "alice/priv", "2019-01-01T00:00:00Z"), lived("990000005", "alice/priv"));
        const last = await s.store.events.lastArrivals();
        assert.equal(last.events, before.events + 3);
        assert.equal(last.issueEvents, before.issueEvents);
        const first = await s.store.events.arrivalOf("events", "990000009");
        assert.equal(first, before.events + 1);
        assert.ok((await s.store.events.arrivalOf("events", "990000001"))! > first!);
        assert.equal(await s.store.events.arrivalOf("events", "123456789012345678"), null);
        assert.equal(await s.store.events.arrivalOf("issueEvents", "990000009"), null);
        // Storing an event again gives it no new number.
        await ingest(lived("990000009", "alice/priv"));
        assert.deepEqual(await s.store.events.lastArrivals(), last);
      });

      test("reads a feed's arrivals in (after, upTo] with the feed's own visibility and limit", async () => {
        const start = (await s.store.events.lastArrivals()).events;
        await ingest(lived("990000102", "alice/priv"), lived("990000101", "alice/pub"), lived("990000103", "alice/priv"));
        const repo = await alicePriv();
        const upTo = start + 3;
        const read = async (visibility: Visibility, after = start, limit = 10) =>
          (await s.store.events.arrivals({ scope: { kind: "repo", repoId: repo.id }, visibility },
            { after, upTo, limit, notBefore: null })).map((e) => [e.id, e.type, e.seq]);
        assert.deepEqual(await read({ kind: "all" }), [["990000102", "IssuesEvent", start + 1], ["990000103", "IssuesEvent", start + 3]]);
        assert.deepEqual(await read({ kind: "public" }), []);
        assert.deepEqual(await read({ kind: "all" }, start + 1), [["990000103", "IssuesEvent", start + 3]]);
        assert.deepEqual(await read({ kind: "all" }, start, 1), [["990000102", "IssuesEvent", start + 1]]);
        const bob = (await s.store.users.findByLogin("bob"))!.id;
        assert.deepEqual((await read({ kind: "readable-by", userId: bob })).length, 2);
        const all = await s.store.events.arrivals({ scope: { kind: "all" }, visibility: { kind: "public" } },
          { after: start, upTo, limit: 10, notBefore: null });
        assert.deepEqual(all.map((e) => e.id), ["990000101"]);
        assert.equal(all[0]!.body, JSON.stringify(lived("990000101", "alice/pub")));
        // The age cap leaves out what the feed leaves out.
        assert.deepEqual(await s.store.events.arrivals({ scope: { kind: "all" }, visibility: { kind: "public" } },
          { after: start, upTo, limit: 10, notBefore: new Date("2021-01-01T00:00:00Z") }), []);
      });

      test("numbers issue events apart, and reads them by repository", async () => {
        const before = await s.store.events.lastArrivals();
        const batch = emptyBatch();
        batch.issueEvents.push({ source: "i", id: "770000001", repoName: "alice/pub", actorLogin: "bob", createdAt: NOW, complete: true,
          body: JSON.stringify({ id: "770000001", event: "closed" }) });
        await s.store.ingest.apply(batch, NOW);
        const after = await s.store.events.lastArrivals();
        assert.deepEqual(after, { events: before.events, issueEvents: before.issueEvents + 1 });
        const repo = (await s.store.directory.findRepo("alice", "pub"))!;
        const read = await s.store.events.arrivals({ issuesOf: repo.id },
          { after: before.issueEvents, upTo: after.issueEvents, limit: 10, notBefore: null });
        assert.deepEqual(read.map((e) => [e.id, e.type]), [["770000001", null]]);
        assert.equal(await s.store.events.arrivalOf("issueEvents", "770000001"), after.issueEvents);
      });

      test("tells a listener of writes committed through other connections", { skip: driver.name !== "postgres" }, async () => {
        let heard!: () => void;
        const told = new Promise<void>((resolve) => (heard = resolve));
        const stop = await s.store.events.listenForChanges(() => heard());
        try {
          const bob = (await s.store.users.findByLogin("bob"))!.id;
          await s.store.authorizations.create(newAuthorization(bob, 991), NOW);
          await told;
        } finally {
          await stop();
        }
      });
    });

    describe("event feeds", () => {
      let s: OpenedStore;
      let resolve: Awaited<ReturnType<typeof resolver>>;
      before(async () => {
        s = await driver.open();
        await s.store.ingest.apply(await theWorld(s.store), NOW);
        resolve = await resolver(s.store);
      });
      after(() => s.close());

      test("every scope kind seen through every visibility kind serves exactly the model's events, newest first", async () => {
        let checked = 0;
        for (const scope of SCOPES) {
          for (const visibility of VISIBILITIES) {
            const expected = ALL_EVENTS.filter((e) => inScope(e, scope) && visible(e, visibility)).sort(newestFirst);
            const page = await s.store.events.feed(await resolve.scope(scope), { ...ALL, visibility: await resolve.visibility(visibility) });
            assert.deepEqual(pageIds(page), expected.map((e) => e.id), label(scope, visibility));
            assert.equal(page.total, expected.length, label(scope, visibility));
            assert.deepEqual(page.newest, expected[0] ? new Date(expected[0].time * 1000) : null, label(scope, visibility));
            checked += expected.length;
          }
        }
        assert.ok(checked > 1000, "the scenario is not degenerate");
      });

      test("the model's feeds are neither empty nor all alike", () => {
        // Guards the scenario itself: each visibility kind must change some feed, each scope kind must select.
        const sizes = (v: ModelVisibility) => SCOPES.map((scope) => ALL_EVENTS.filter((e) => inScope(e, scope) && visible(e, v)).length);
        assert.notDeepEqual(sizes({ kind: "public" }), sizes({ kind: "all" }));
        assert.notDeepEqual(sizes({ kind: "readable-by", user: "carol" }), sizes({ kind: "public" }));
        assert.notDeepEqual(sizes({ kind: "readable-by", user: "carol" }), sizes({ kind: "all" }));
        assert.ok(ALL_EVENTS.some((e) => e.repo === null && !e.public && visible(e, { kind: "readable-by", user: "dave" })));
        assert.ok(ALL_EVENTS.some((e) => e.org === "umbrella" && e.repo !== null && ownerOf(e.repo) !== "umbrella"));
        const times = ALL_EVENTS.map((e) => e.time);
        assert.ok(new Set(times).size < times.length, "some events share a second");
      });

      test("paging: limit and offset cut the same order; total and newest describe the whole feed", async () => {
        for (const [scope, visibility] of [
          [{ kind: "all" }, { kind: "all" }], [{ kind: "all" }, { kind: "public" }], [{ kind: "org", org: "acme" }, { kind: "readable-by", user: "carol" }],
          [{ kind: "received", user: "erin" }, { kind: "readable-by", user: "erin" }], [{ kind: "network", root: "alice/pub" }, { kind: "public" }],
        ] as [ModelScope, ModelVisibility][]) {
          const full = await s.store.events.feed(await resolve.scope(scope), { ...ALL, visibility: await resolve.visibility(visibility) });
          const ids: string[] = [];
          for (let offset = 0; offset < full.total + 7; offset += 7) {
            const page = await s.store.events.feed(await resolve.scope(scope),
              { limit: 7, offset, notBefore: null, visibility: await resolve.visibility(visibility) });
            assert.equal(page.total, full.total, label(scope, visibility));
            assert.deepEqual(page.newest, full.newest, label(scope, visibility));
            assert.deepEqual(page.rows, full.rows.slice(offset, offset + 7), `${label(scope, visibility)} at ${offset}`);
            ids.push(...pageIds(page));
          }
          assert.deepEqual(ids, pageIds(full));
        }
      });

      test("notBefore leaves older events out of rows, total and newest", async () => {
        const cutoff = BASE + 15 * 60;
        for (const scope of SCOPES) {
          const expected = ALL_EVENTS.filter((e) => inScope(e, scope) && e.time >= cutoff).sort(newestFirst);
          const page = await s.store.events.feed(await resolve.scope(scope),
            { limit: 1000, offset: 0, notBefore: new Date(cutoff * 1000), visibility: { kind: "all" } });
          assert.deepEqual(pageIds(page), expected.map((e) => e.id), JSON.stringify(scope));
          assert.equal(page.total, expected.length);
        }
        const future = await s.store.events.feed({ kind: "all" }, { ...ALL, notBefore: new Date("2100-01-01T00:00:00Z"), visibility: { kind: "all" } });
        assert.deepEqual(future, { rows: [], total: 0, newest: null });
      });

      test("an empty feed has no rows, a zero total and no newest time", async () => {
        const zed = await resolve.userId("zed");
        assert.deepEqual(await s.store.events.feed({ kind: "actor", actorId: zed }, { ...ALL, visibility: { kind: "all" } }),
          { rows: [], total: 0, newest: null });
        assert.deepEqual(await s.store.events.feed({ kind: "repo", repoId: 999999 }, { ...ALL, visibility: { kind: "all" } }),
          { rows: [], total: 0, newest: null });
      });

      test("stored events carry their body, completeness, time and, for partial envelopes, the wire ids", async () => {
        const page = await s.store.events.feed({ kind: "actor", actorId: await resolve.userId("erin") }, { ...ALL, visibility: { kind: "all" } });
        const complete = page.rows.find((r) => JSON.parse(r.body).id === "77")!;
        assert.deepEqual(complete, { body: JSON.stringify(COMPLETE_EVENT), complete: true, createdAt: new Date(COMPLETE_MODEL.time * 1000),
          actorWireId: null, repoWireId: null, orgWireId: null });
        const partial = page.rows.find((r) => !r.complete && JSON.parse(r.body).repo.name !== "/")!;
        assert.equal(partial.actorWireId, 9001);
        const repoName = JSON.parse(partial.body).repo.name as string;
        const repo = await resolve.repo(repoName);
        assert.equal(partial.repoWireId, repo.wireId);
        const org = (JSON.parse(partial.body).org?.login as string | undefined);
        assert.equal(partial.orgWireId, org ? (await s.store.users.findByLogin(org))!.wireId : null);
      });

      test("issueFeed serves a repository's issue events newest first, with paging and notBefore", async () => {
        for (const { full_name } of REPOS) {
          const expected = ISSUE_EVENTS.filter((e) => e.repo === full_name).sort(newestFirst);
          const repoId = (await resolve.repo(full_name)).id;
          const page = await s.store.events.issueFeed(repoId, ALL);
          assert.deepEqual(pageIds(page), expected.map((e) => e.id), full_name);
          assert.equal(page.total, expected.length);
          assert.deepEqual(page.newest, expected[0] ? new Date(expected[0].time * 1000) : null);
          const second = await s.store.events.issueFeed(repoId, { limit: 1, offset: 1, notBefore: null });
          assert.deepEqual(pageIds(second), expected.slice(1, 2).map((e) => e.id));
          assert.equal(second.total, expected.length);
          const cutoff = BASE + 3 * 60;
          const recent = await s.store.events.issueFeed(repoId, { ...ALL, notBefore: new Date(cutoff * 1000) });
          assert.deepEqual(pageIds(recent), expected.filter((e) => e.time >= cutoff).map((e) => e.id));
        }
        const withoutActor = (await s.store.events.issueFeed((await resolve.repo(ISSUE_EVENTS[4]!.repo)).id, ALL)).rows
          .find((r) => JSON.parse(r.body).id === ISSUE_EVENTS[4]!.id)!;
        assert.equal(JSON.parse(withoutActor.body).actor, null);
        assert.equal(withoutActor.actorWireId, null);
      });
    });
  });
}

/**
 * Everything a scenario's Store calls answer, in order. Only the times the store itself takes (a login user's
 * createdAt) are left out; ids, bodies, order, totals and error types must match exactly.
 */
async function transcript(store: Store): Promise<unknown[]> {
  const out: unknown[] = [];
  const record = async (what: string, work: () => Promise<unknown>) => {
    try {
      out.push([what, await work()]);
    } catch (error) {
      out.push([what, "threw", (error as Error).name, (error as Error).message]);
    }
  };
  const resolve = await resolver(store);
  await record("world", async () => store.ingest.apply(await theWorld(store), NOW));
  for (const login of [...USERS, ...Object.keys(ORGS)]) await record(`user ${login}`, () => store.users.findByLogin(login));
  await record("list", () => store.users.list());
  await record("count", () => store.users.count());
  for (const { full_name } of REPOS) await record(`repo ${full_name}`, () => resolve.repo(full_name));
  for (const user of USERS) {
    for (const { full_name } of REPOS) {
      await record(`canRead ${user} ${full_name}`, async () => store.directory.canRead(await resolve.userId(user), (await resolve.repo(full_name)).id));
    }
    for (const org of Object.keys(ORGS)) {
      await record(`isMember ${user} ${org}`, async () => store.directory.isMember(await resolve.userId(org), await resolve.userId(user)));
    }
  }
  for (const scope of SCOPES) {
    for (const visibility of VISIBILITIES) {
      const s = await resolve.scope(scope);
      const v = await resolve.visibility(visibility);
      await record(label(scope, visibility), () => store.events.feed(s, { ...ALL, visibility: v }));
      await record(`${label(scope, visibility)} page 2`, () => store.events.feed(s, { limit: 3, offset: 3, notBefore: new Date((BASE + 600) * 1000), visibility: v }));
    }
  }
  for (const { full_name } of REPOS) {
    await record(`issues ${full_name}`, async () => store.events.issueFeed((await resolve.repo(full_name)).id, ALL));
  }
  const alice = await resolve.userId("alice");
  const ids: number[] = [];
  for (let n = 1; n <= 4; n++) {
    await record(`create ${n}`, async () => {
      const row = await store.authorizations.create(newAuthorization(alice, n), new Date(NOW.getTime() + n));
      ids.push(row.id);
      return row;
    });
  }
  await record("update", () => store.authorizations.update(alice, ids[1]!, { note: null, fingerprint: "fp" }, LATER));
  await record("delete", () => store.authorizations.delete(alice, ids[2]!));
  await record("authorizations", () => store.authorizations.list(alice, { limit: 2, offset: 1 }));
  await record("by last eight", () => store.authorizations.findByTokenLastEight(token(4).slice(-8)));
  await record("again", async () => store.ingest.apply(await theWorld(store), LATER));
  // Failures last: PostgreSQL spends a sequence value on a failed insert, so ids after one may differ by design.
  await record("claim erin", async () => ({ ...(await store.users.create(newUser("Erin"))), createdAt: "(store time)" }));
  await record("duplicate user", () => store.users.create(newUser("ERIN")));
  await record("duplicate token", () => store.authorizations.create(newAuthorization(alice, 1), NOW));
  await record("conflict", () => {
    const batch = emptyBatch();
    batch.tokens.push({ source: "tokens[0]", login: "nobody", hashedToken: "x", tokenLastEight: "x", scopes: [], note: null });
    return store.ingest.apply(batch, NOW);
  });
  return out;
}

describe("SQLite and PostgreSQL answer the same scenario identically", { skip: postgresSkip }, () => {
  const opened: OpenedStore[] = [];
  before(async () => {
    for (const driver of DRIVERS) opened.push(await driver.open());
  });
  after(async () => { for (const s of opened) await s.close(); });

  test("every answer, in order, is the same on both drivers", async () => {
    const [sqlite, postgres] = [await transcript(opened[0]!.store), await transcript(opened[1]!.store)];
    assert.equal(sqlite.length, postgres.length);
    for (let i = 0; i < sqlite.length; i++) assert.deepEqual(postgres[i], sqlite[i], `step ${i}: ${(sqlite[i] as unknown[])[0]}`);
    assert.ok(sqlite.length > 400);
  });
});
