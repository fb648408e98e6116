/**
 * Rows as each schema version's feedgate wrote them, for the upgrade tests (tests/server/upgrade.test.ts): a database
 * is built by applying migration 1, writing its rows, applying migration 2, writing its rows..., up to a version;
 * then the current feedgate migrates it and reads every row back through the API.
 *
 * Every migration has an entry here: its rows (in the columns that version had, as its code wrote them) and a check
 * that reads them back once the database is at the latest version; or, for a migration that adds no table or column
 * (an index, a trigger, a compression setting), `none` saying why. A migration without an entry fails the tests.
 */
import assert from "node:assert/strict";
import { generateKeyPairSync } from "node:crypto";
import { gzipSync } from "node:zlib";
import { SignJWT } from "jose";
import type { FastifyInstance } from "fastify";
import type { Store } from "../../src/server/store/store.js";
import { encodeCommit, encodeTree, hashObject } from "../../src/server/git/objects.js";
import {
  hashPassword,
  hashToken,
  mintFineGrainedToken,
  mintRefreshToken,
  mintToken,
  mintUserToken,
} from "../../src/server/services/credentials.js";

/** A database under construction, either driver: `?` placeholders, values as the driver's code wrote them. */
export interface FixtureDb {
  driver: "sqlite" | "postgres";
  /** Inserts a row; returns its `id` column, when it has one. */
  insert(table: string, row: Record<string, unknown>): Promise<number | undefined>;
  run(sql: string, ...params: unknown[]): Promise<void>;
}

/** What the fixtures made that the checks need (ids, tokens, a session cookie), by name. */
// biome-ignore lint/suspicious/noExplicitAny: ids and tokens by name, as each fixture wrote them
export type Made = Record<string, any>;

export interface Fixture {
  rows(db: FixtureDb, made: Made): Promise<void>;
  /** Reads this version's rows back through the API of a feedgate at the latest version. */
  check(api: Api, made: Made): Promise<void>;
}

/** Why a migration needs no rows of its own. */
export interface NoFixture {
  none: string;
}

export interface Api {
  app: FastifyInstance;
  /** The upgraded database, for what no route reads back (an app's own hook). */
  store: Store;
  /** GET `url` with an Authorization header (or none); the answer's status and JSON. */
  // biome-ignore lint/suspicious/noExplicitAny: the API's JSON, which the checks read as they assert on it
  get(url: string, authorization?: string, headers?: Record<string, string>): Promise<{ status: number; body: any }>;
}

export const PASSWORD = "old-feedgate-pw";
const basic = (login: string) => `Basic ${Buffer.from(`${login}:${PASSWORD}`).toString("base64")}`;
const token = (value: string | number) => `token ${value}`;
/** Times as the drivers take them: ISO text (SQLite TEXT, PostgreSQL timestamptz). */
const AT = "2024-03-01T12:00:00.000Z";
const EVENT_TIME = "2024-03-01T11:00:00Z";
const epochSeconds = (iso: string) => Date.parse(iso) / 1000;

async function classicToken(
  db: FixtureDb,
  userId: number,
  scopes: string[],
  note: string,
  extra: Record<string, unknown> = {},
) {
  const value = mintToken();
  await db.insert("authorizations", {
    user_id: userId,
    hashed_token: hashToken(value),
    token_last_eight: value.slice(-8),
    scopes: JSON.stringify(scopes),
    note,
    note_url: null,
    fingerprint: null,
    created_at: AT,
    updated_at: AT,
    ...extra,
  });
  return value;
}

/** An event as the ingest stored it: the envelope verbatim (incomplete: the API adds ids and urls), columns to query by. */
async function storedEvent(
  db: FixtureDb,
  row: {
    id: number;
    type: string;
    actor: number;
    actorLogin: string;
    repo: number | null;
    repoName: string;
    org?: number;
    public: boolean;
  },
) {
  const body = {
    id: String(row.id),
    type: row.type,
    actor: { login: row.actorLogin },
    repo: { name: row.repoName },
    payload: {},
    public: row.public,
    created_at: EVENT_TIME,
  };
  await db.insert("events", {
    id: row.id,
    type: row.type,
    actor_id: row.actor,
    repo_id: row.repo,
    org_id: row.org ?? null,
    public: row.public,
    created_at: epochSeconds(EVENT_TIME),
    complete: false,
    body: JSON.stringify(body),
  });
}

/** The next arrival number for the row `id`, as the SQLite ingest draws it; PostgreSQL's identity has drawn its own. */
async function drawSeq(db: FixtureDb, table: string, id: number) {
  if (db.driver === "sqlite")
    await db.run(`UPDATE ${table} SET seq = (SELECT coalesce(max(seq), 0) + 1 FROM ${table}) WHERE id = ?`, id);
}

const ids = (body: { id: string | number }[]) => body.map((item) => String(item.id));

export const FIXTURES: Record<number, Fixture | NoFixture> = {
  1: {
    async rows(db, made) {
      const hash = await hashPassword(PASSWORD);
      made.passwordHash = hash;
      made.alice = (await db.insert("users", {
        login: "alice",
        password_hash: hash,
        site_admin: false,
        created_at: AT,
      }))!;
      made.bob = (await db.insert("users", { login: "bob", password_hash: hash, site_admin: false, created_at: AT }))!;
      made.aliceToken = await classicToken(
        db,
        made.alice,
        ["repo", "admin:repo_hook", "admin:org_hook", "read:org"],
        "alice at v1",
      );
      made.bobToken = await classicToken(db, made.bob, ["repo"], "bob at v1");
    },
    async check(api, made) {
      const me = await api.get("/user", basic("alice"));
      assert.deepEqual([me.status, me.body.login], [200, "alice"], "alice's password");
      const byToken = await api.get("/user", token(made.bobToken!));
      assert.deepEqual([byToken.status, byToken.body.login], [200, "bob"], "bob's token");
      const list = await api.get("/authorizations", basic("alice"));
      assert.equal(list.status, 200);
      assert.ok(
        list.body.some(
          (a: { note: string; scopes: string[] }) => a.note === "alice at v1" && a.scopes.includes("admin:repo_hook"),
        ),
        JSON.stringify(list.body),
      );
    },
  },
  2: {
    async rows(db, made) {
      made.acme = (await db.insert("users", {
        login: "acme",
        type: "Organization",
        external_id: 9001,
        site_admin: false,
        created_at: AT,
      }))!;
      made.carol = (await db.insert("users", {
        login: "carol",
        external_id: 9002,
        site_admin: false,
        created_at: AT,
      }))!;
      await db.insert("org_members", { org_id: made.acme, user_id: made.alice });
      const repo = async (owner: number, name: string, extra: Record<string, unknown> = {}) => {
        const id = (await db.insert("repos", { owner_id: owner, name, private: false, network_id: 0, ...extra }))!;
        await db.run("UPDATE repos SET network_id = ? WHERE id = ?", extra.network_id ?? id, id);
        return id;
      };
      made.widget = await repo(made.alice, "widget", { external_id: 7001 });
      made.secret = await repo(made.acme, "secret", { private: true });
      made.fork = await repo(made.bob, "widget", { parent_id: made.widget, network_id: made.widget });
      await db.insert("collaborators", { repo_id: made.secret, user_id: made.bob });
      await db.insert("follows", { follower_id: made.bob, followee_id: made.alice });
      await db.insert("watches", { user_id: made.carol, repo_id: made.widget });
      await storedEvent(db, {
        id: 20001,
        type: "PushEvent",
        actor: made.alice,
        actorLogin: "alice",
        repo: made.widget,
        repoName: "alice/widget",
        public: true,
      });
      await storedEvent(db, {
        id: 20002,
        type: "IssuesEvent",
        actor: made.bob,
        actorLogin: "bob",
        repo: made.secret,
        repoName: "acme/secret",
        org: made.acme,
        public: false,
      });
      await storedEvent(db, {
        id: 20003,
        type: "FollowEvent",
        actor: made.carol,
        actorLogin: "carol",
        repo: null,
        repoName: "/",
        public: true,
      });
      await db.insert("issue_events", {
        id: 30001,
        repo_id: made.widget,
        actor_id: made.alice,
        created_at: epochSeconds(EVENT_TIME),
        complete: false,
        body: JSON.stringify({
          id: 30001,
          event: "closed",
          actor: { login: "alice" },
          created_at: EVENT_TIME,
          issue: { title: "Issue 1", number: 1, state: "closed" },
        }),
      });
    },
    async check(api, made) {
      const repoFeed = await api.get("/repos/alice/widget/events");
      assert.equal(repoFeed.status, 200);
      assert.ok(ids(repoFeed.body).includes("20001"), JSON.stringify(repoFeed.body));
      assert.equal(
        repoFeed.body.find((e: { id: string }) => e.id === "20001").repo.id,
        7001,
        "the repository's GitHub id",
      );
      const hidden = await api.get("/repos/acme/secret/events");
      assert.equal(hidden.status, 404, "a private repository, anonymously");
      const asCollaborator = await api.get("/repos/acme/secret/events", token(made.bobToken!));
      assert.deepEqual(
        [asCollaborator.status, ids(asCollaborator.body ?? [])],
        [200, ["20002"]],
        "bob collaborates on acme/secret",
      );
      const orgFeed = await api.get("/users/bob/events/orgs/acme", token(made.bobToken!));
      assert.ok([200, 404].includes(orgFeed.status)); // bob is not a member: the feed is refused, as on GitHub
      const received = await api.get("/users/bob/received_events");
      assert.ok(ids(received.body).includes("20001"), `bob follows alice: ${JSON.stringify(received.body)}`);
      const carolEvents = await api.get("/users/carol/events");
      assert.ok(ids(carolEvents.body).includes("20003"), "an event with no repository");
      const issueEvents = await api.get("/repos/alice/widget/issues/events");
      assert.equal(issueEvents.status, 200);
      assert.ok(ids(issueEvents.body).includes("30001"), JSON.stringify(issueEvents.body));
      const fork = await api.get("/repos/bob/widget");
      assert.deepEqual([fork.status, fork.body.fork, fork.body.parent?.full_name], [200, true, "alice/widget"]);
      const org = await api.get("/orgs/acme");
      assert.deepEqual([org.status, org.body.id], [200, 9001]);
    },
  },
  3: {
    async rows(db) {
      await db.run("UPDATE ingest_state SET generation = 7 WHERE id = 1"); // seven ingests so far
    },
    async check(api) {
      // The generation only keys caches: a page read now must be the stored one.
      assert.equal((await api.get("/repos/alice/widget/events")).status, 200);
    },
  },
  4: { none: "event bodies compressed with lz4 on PostgreSQL: a column setting, no table or column" },
  5: {
    async rows(db, made) {
      made.dave = (await db.insert("users", {
        login: "dave",
        password_hash: await hashPassword(PASSWORD),
        site_admin: false,
        created_at: AT,
        suspended_at: AT,
      }))!;
      made.daveToken = await classicToken(db, made.dave, [], "dave, suspended");
    },
    async check(api, made) {
      const refused = await api.get("/user", token(made.daveToken!));
      assert.deepEqual([refused.status, refused.body.message], [403, "Sorry. Your account was suspended."]);
    },
  },
  6: {
    async rows(db, made) {
      // A follow and a watch now raise their user's received-feed number (received_versions), by trigger.
      await db.insert("follows", { follower_id: made.carol, followee_id: made.alice });
      await db.insert("watches", { user_id: made.bob, repo_id: made.widget });
    },
    async check(api) {
      const received = await api.get("/users/carol/received_events");
      assert.ok(ids(received.body).includes("20001"), `carol follows alice: ${JSON.stringify(received.body)}`);
      const watchers = await api.get("/repos/alice/widget");
      assert.equal(watchers.body.watchers_count, 2, "carol and bob watch alice/widget");
    },
  },
  7: {
    async rows(db) {
      await db.insert("ingest_log", {
        generation: 7,
        oldest_event: epochSeconds(EVENT_TIME),
        oldest_issue_event: null,
      });
    },
    async check(api) {
      const page = await api.get("/repos/alice/widget/events?per_page=1");
      assert.equal(page.status, 200);
    },
  },
  8: {
    async rows(db, made) {
      const hook = (target: Record<string, number>, url: string) =>
        db.insert("hooks", {
          ...target,
          name: "web",
          active: true,
          events: JSON.stringify(["push"]),
          url,
          content_type: "json",
          insecure_ssl: "0",
          secret: null,
          created_at: AT,
          updated_at: AT,
          last_code: 200,
          last_status: "active",
          last_message: "OK",
        });
      made.repoHook = (await hook({ repo_id: made.widget }, "https://receiver.example/repo"))!;
      made.orgHook = (await hook({ org_id: made.acme }, "https://receiver.example/org"))!;
      await db.insert("hook_queue", {
        hook_id: made.repoHook,
        guid: "00000000-0000-4000-8000-000000000008",
        event: "push",
        action: null,
        event_id: 20001,
        body: null,
        redelivery: false,
        attempts: 1,
        next_attempt_at: Date.parse("2099-01-01"),
        claimed_until: null,
        created_at: AT,
      });
      await db.insert("hook_deliveries", {
        hook_id: made.repoHook,
        guid: "00000000-0000-4000-8000-000000000001",
        delivered_at: AT,
        redelivery: false,
        duration: 0.12,
        status: "OK",
        status_code: 200,
        event: "push",
        action: null,
        repository_id: 7001,
        url: "https://receiver.example/repo",
        request_headers: JSON.stringify({ "X-GitHub-Event": "push" }),
        request_body: JSON.stringify({ ref: "refs/heads/main" }),
        response_headers: JSON.stringify({ "content-type": "text/plain" }),
        response_body: "thanks",
      });
    },
    async check(api, made) {
      const hooks = await api.get("/repos/alice/widget/hooks", token(made.aliceToken!));
      assert.deepEqual(
        [hooks.status, ids(hooks.body), hooks.body[0]?.config?.url],
        [200, [String(made.repoHook)], "https://receiver.example/repo"],
      );
      const deliveries = await api.get(
        `/repos/alice/widget/hooks/${made.repoHook}/deliveries`,
        token(made.aliceToken!),
      );
      assert.equal(deliveries.status, 200);
      assert.deepEqual(
        deliveries.body.map((d: { guid: string; status_code: number }) => [d.guid, d.status_code]),
        [["00000000-0000-4000-8000-000000000001", 200]],
      );
      const delivery = await api.get(
        `/repos/alice/widget/hooks/${made.repoHook}/deliveries/${deliveries.body[0].id}`,
        token(made.aliceToken!),
      );
      assert.deepEqual(
        [delivery.status, delivery.body.request?.payload, delivery.body.response?.payload],
        [200, { ref: "refs/heads/main" }, "thanks"],
      );
    },
  },
  9: {
    async rows(db, made) {
      // Events stored from now on carry an arrival number, drawn as each driver's ingest draws it.
      await storedEvent(db, {
        id: 20009,
        type: "WatchEvent",
        actor: made.carol,
        actorLogin: "carol",
        repo: made.widget,
        repoName: "alice/widget",
        public: true,
      });
      await drawSeq(db, "events", 20009);
      await db.insert("issue_events", {
        id: 30009,
        repo_id: made.widget,
        actor_id: made.carol,
        created_at: epochSeconds(EVENT_TIME) + 60,
        complete: false,
        body: JSON.stringify({
          id: 30009,
          event: "reopened",
          actor: { login: "carol" },
          created_at: "2024-03-01T11:01:00Z",
          issue: { title: "Issue 1", number: 1, state: "open" },
        }),
      });
      await drawSeq(db, "issue_events", 30009);
    },
    async check(api) {
      const feed = await api.get("/repos/alice/widget/events");
      assert.deepEqual(
        ids(feed.body)
          .filter((id) => ["20001", "20009"].includes(id))
          .sort(),
        ["20001", "20009"],
      );
      const issueEvents = await api.get("/repos/alice/widget/issues/events");
      assert.deepEqual(ids(issueEvents.body).sort(), ["30001", "30009"]);
    },
  },
  10: { none: "indexes for counts: no table or column" },
  11: {
    async rows(db, made) {
      // A console session as sessions.ts keeps it: the SHA-256 of the cookie's value, and a digest of the password hash.
      const cookie = "u".repeat(43);
      await db.insert("sessions", {
        id_hash: hashToken(cookie),
        user_id: made.alice,
        credential: hashToken(`feedgate session ${made.passwordHash}`),
        verified: true,
        created_at: new Date().toISOString(),
        last_seen_at: new Date().toISOString(),
      });
      made.session = cookie;
    },
    async check(api, made) {
      const page = await api.get("/console/tokens", undefined, { cookie: `feedgate_session=${made.session}` });
      assert.equal(page.status, 200, "alice's console session survives the upgrade");
      assert.match(page.body, /<h1>Tokens \(classic\)<\/h1>[\s\S]*alice at v1/);
    },
  },
  12: { none: "a trigger on sessions: no table or column" },
  13: {
    async rows(db, made) {
      made.expiredToken = await classicToken(db, made.alice, [], "expired", { expires_at: "2024-03-02T00:00:00.000Z" });
      made.lastingToken = await classicToken(db, made.alice, [], "lasting", { expires_at: "2999-01-01T00:00:00.000Z" });
    },
    async check(api, made) {
      assert.equal((await api.get("/user", token(made.expiredToken!))).status, 401, "an expired token");
      assert.equal((await api.get("/user", token(made.lastingToken!))).status, 200, "a token that expires later");
    },
  },
  14: {
    async rows(db, made) {
      await db.run("UPDATE org_members SET role = 'admin' WHERE org_id = ? AND user_id = ?", made.acme, made.alice);
      await db.insert("org_members", { org_id: made.acme, user_id: made.carol, role: "member" });
    },
    async check(api, made) {
      const hooks = await api.get("/orgs/acme/hooks", token(made.aliceToken!));
      assert.deepEqual(
        [hooks.status, ids(hooks.body ?? [])],
        [200, [String(made.orgHook)]],
        "alice owns acme, so sees its hooks",
      );
    },
  },
  15: {
    async rows(db, made) {
      const value = mintFineGrainedToken();
      await db.insert("authorizations", {
        user_id: made.alice,
        hashed_token: hashToken(value),
        token_last_eight: value.slice(-8),
        scopes: "[]",
        note: "fine-grained",
        note_url: null,
        fingerprint: null,
        created_at: AT,
        updated_at: AT,
        expires_at: null,
        resource_owner_id: made.acme,
        fine_grained: JSON.stringify({
          repository_selection: "none",
          repository_ids: [],
          permissions: { organization_hooks: "read" },
          description: "reads acme's hooks",
        }),
      });
      made.fineGrained = value;
    },
    async check(api, made) {
      const hooks = await api.get("/orgs/acme/hooks", token(made.fineGrained!));
      assert.equal(hooks.status, 200, JSON.stringify(hooks.body));
      const elsewhere = await api.get("/repos/alice/widget/hooks", token(made.fineGrained!));
      assert.notEqual(elsewhere.status, 200, "a token for acme does not reach alice's repository's hooks");
    },
  },
  16: {
    async rows(db, made) {
      // A large request body as retention's feedgate stores it: compressed, the text column empty. (On PostgreSQL this
      // migration also moved every event into monthly partitions: the feeds' checks above read them there.)
      const payload = {
        ref: "refs/heads/main",
        commits: Array.from({ length: 200 }, (_, n) => ({ message: `commit ${n}` })),
      };
      made.largePayload = payload;
      await db.insert("hook_deliveries", {
        hook_id: made.orgHook,
        guid: "00000000-0000-4000-8000-000000000016",
        delivered_at: AT,
        redelivery: false,
        duration: 0.2,
        status: "OK",
        status_code: 200,
        event: "push",
        action: null,
        repository_id: 7001,
        url: "https://receiver.example/org",
        request_headers: JSON.stringify({ "X-GitHub-Event": "push" }),
        request_body: "",
        request_body_gzip: gzipSync(JSON.stringify(payload)),
        response_headers: "{}",
        response_body: "ok",
      });
    },
    async check(api, made) {
      const deliveries = await api.get(`/orgs/acme/hooks/${made.orgHook}/deliveries`, token(made.aliceToken!));
      assert.equal(deliveries.status, 200, JSON.stringify(deliveries.body));
      const [item] = deliveries.body;
      assert.equal(item?.guid, "00000000-0000-4000-8000-000000000016");
      const delivery = await api.get(`/orgs/acme/hooks/${made.orgHook}/deliveries/${item.id}`, token(made.aliceToken!));
      assert.deepEqual(delivery.body.request?.payload, made.largePayload, "the compressed body, whole");
    },
  },
  17: {
    async rows(db, made) {
      // A hook the disable rule turned off: every delivery failed for five days.
      const since = Date.parse("2024-02-25T12:00:00.000Z");
      await db.run(
        "UPDATE hooks SET active = ?, failing_since = ?, disabled_at = ?, disabled_reason = ? WHERE id = ?",
        db.driver === "sqlite" ? 0 : false,
        since,
        AT,
        "every delivery failed for 5 days; the last: Invalid HTTP Response: 500",
        made.repoHook,
      );
    },
    async check(api, made) {
      const hook = await api.get(`/repos/alice/widget/hooks/${made.repoHook}`, token(made.aliceToken!));
      assert.deepEqual([hook.status, hook.body.active], [200, false]);
      const page = await api.get("/console/repos/alice/widget/hooks", undefined, {
        cookie: `feedgate_session=${made.session}`,
      });
      assert.equal(page.status, 200);
      assert.match(
        page.body,
        /Disabled[\s\S]*every delivery failed for 5 days/,
        "the console says why the hook was turned off",
      );
    },
  },
  18: { none: "feed indexes rebuilt holding more columns (PostgreSQL): no table or column" },
  19: {
    none: "a counter in ingest_state that triggers raise, not data (state-store.ts); the triggers are the store contract's (tests/store/arrivals-contract.test.ts)",
  },
  20: {
    none: "PostgreSQL's triggers raising the same numbers once a statement: no table or column; which writes raise what is the store contract's (tests/store/arrivals-contract.test.ts), once a statement tests/store/postgres-triggers.test.ts's",
  },
  21: {
    none: "SQLite's feed indexes rebuilt holding more columns: no table or column; tests/store/sqlite-indexes.test.ts reads their plans",
  },
  22: {
    async rows(db, made) {
      // An organization's profile as a world gave it, changed an hour after the organization was made.
      await db.run(
        "UPDATE users SET email = ?, blog = ?, billing_email = ?, updated_at = ? WHERE id = ?",
        "hello@acme.example",
        "https://acme.example/blog",
        "billing@acme.example",
        "2024-03-01T13:00:00.000Z",
        made.acme,
      );
    },
    async check(api) {
      const org = await api.get("/orgs/acme");
      assert.equal(org.status, 200, JSON.stringify(org.body));
      assert.deepEqual(
        [org.body.email, org.body.blog, org.body.updated_at],
        ["hello@acme.example", "https://acme.example/blog", "2024-03-01T13:00:00Z"],
      );
    },
  },
  23: {
    async rows(db, made) {
      // An issue on alice/widget, labelled, as the issue actions write them.
      const label = await db.insert("labels", {
        repo_id: made.widget,
        name: "bug",
        color: "d73a4a",
        description: "Something isn't working",
        is_default: db.driver === "sqlite" ? 1 : true,
      });
      made.issue = await db.insert("issues", {
        repo_id: made.widget,
        number: 1,
        user_id: made.alice,
        title: "Found a bug",
        body: "It breaks",
        state: "open",
        created_at: AT,
        updated_at: AT,
      });
      await db.insert("issue_labels", { issue_id: made.issue, label_id: label });
      await db.insert("issue_assignees", { issue_id: made.issue, user_id: made.alice });
      await db.insert("milestones", {
        repo_id: made.widget,
        number: 1,
        title: "v1.0",
        state: "open",
        creator_id: made.alice,
        created_at: AT,
        updated_at: AT,
      });
      const comment = await db.insert("issue_comments", {
        repo_id: made.widget,
        issue_id: made.issue,
        user_id: made.bob,
        body: "Me too",
        created_at: AT,
        updated_at: AT,
      });
      await db.insert("reactions", {
        subject_type: "comment",
        subject_id: comment,
        user_id: made.alice,
        content: "+1",
        created_at: AT,
      });
    },
    async check(api) {
      const issue = await api.get("/repos/alice/widget/issues/1");
      assert.equal(issue.status, 200, JSON.stringify(issue.body));
      assert.deepEqual(
        [
          issue.body.title,
          issue.body.state,
          issue.body.labels.map((l: { name: string }) => l.name),
          issue.body.assignee.login,
          issue.body.created_at,
        ],
        ["Found a bug", "open", ["bug"], "alice", "2024-03-01T12:00:00Z"],
      );
    },
  },
  24: {
    async rows(db, made) {
      // A star made through the API (with its time), and a subscription, which is not a star.
      await db.insert("watches", { user_id: made.alice, repo_id: made.fork, starred_at: AT });
      await db.insert("subscriptions", {
        user_id: made.bob,
        repo_id: made.widget,
        subscribed: db.driver === "sqlite" ? 1 : true,
        ignored: db.driver === "sqlite" ? 0 : false,
        created_at: AT,
      });
    },
    async check(api, made) {
      const starred = await api.get("/users/alice/starred", undefined, { accept: "application/vnd.github.star+json" });
      assert.equal(starred.status, 200, JSON.stringify(starred.body));
      assert.deepEqual(
        starred.body.map((s: { starred_at: string; repo: { full_name: string } }) => [s.starred_at, s.repo.full_name]),
        [["2024-03-01T12:00:00Z", "bob/widget"]],
      );
      const widget = await api.get("/repos/alice/widget");
      assert.deepEqual([widget.body.stargazers_count, widget.body.subscribers_count], [2, 1], "carol and bob star it");
      const subscription = await api.get("/repos/alice/widget/subscription", token(made.bobToken!));
      assert.deepEqual(
        [subscription.status, subscription.body.subscribed, subscription.body.created_at],
        [200, true, "2024-03-01T12:00:00Z"],
      );
    },
  },
  25: {
    async rows(db, made) {
      // carol, an admin collaborator of alice/widget, has invited dave to it with read only; version 2's bob keeps
      // the role every collaborator had before (push).
      await db.insert("collaborators", { repo_id: made.widget, user_id: made.carol, permission: "admin" });
      await db.insert("repository_invitations", {
        repo_id: made.widget,
        invitee_id: made.dave,
        inviter_id: made.carol,
        permission: "pull",
        created_at: AT,
      });
    },
    async check(api, made) {
      const bob = await api.get("/repos/acme/secret/collaborators/bob/permission", token(made.bobToken!));
      assert.equal(bob.status, 200, JSON.stringify(bob.body));
      assert.deepEqual([bob.body.permission, bob.body.role_name], ["write", "write"]);
      const invitations = await api.get("/repos/alice/widget/invitations", token(made.aliceToken!));
      assert.equal(invitations.status, 200, JSON.stringify(invitations.body));
      assert.deepEqual(
        invitations.body.map(
          (i: { invitee: { login: string }; inviter: { login: string }; permissions: string; expired: boolean }) => [
            i.invitee.login,
            i.inviter.login,
            i.permissions,
            i.expired,
          ],
        ),
        [["dave", "carol", "read", true]],
      );
      const carol = await api.get("/repos/alice/widget/collaborators?affiliation=direct", token(made.aliceToken!));
      assert.deepEqual(
        carol.body.map((c: { login: string; role_name: string }) => [c.login, c.role_name]),
        [["carol", "admin"]],
      );
    },
  },
  26: {
    async rows(db, made) {
      // Settings a repository keeps once edited through the API, and an old name a rename left.
      await db.run(
        "UPDATE repos SET description = ?, homepage = ?, default_branch = ?, created_at = ?, updated_at = ? WHERE id = ?",
        "Widgets, made",
        "https://widget.example",
        "trunk",
        AT,
        AT,
        made.widget,
      );
      await db.insert("repo_renames", { owner_id: made.alice, name: "gadget", repo_id: made.widget });
    },
    async check(api) {
      const widget = await api.get("/repos/alice/widget");
      assert.deepEqual(
        [widget.body.description, widget.body.homepage, widget.body.default_branch, widget.body.created_at],
        ["Widgets, made", "https://widget.example", "trunk", "2024-03-01T12:00:00Z"],
      );
      const moved = await api.get("/repos/alice/gadget/events");
      assert.equal(moved.status, 301);
      assert.match(moved.body.url, /\/repositories\/7001\/events$/);
    },
  },
  27: {
    async rows(db, made) {
      // An OAuth app of alice's, and a token bob granted it through the web flow.
      const app = await db.insert("oauth_apps", {
        client_id: "Ov23liUpgrade000000000",
        client_secret_hash: hashToken("upgrade-secret"),
        name: "Upgrade Sign-in",
        owner_id: made.alice,
        url: "https://sign-in.example",
        callback_url: "https://sign-in.example/callback",
        device_flow: true,
        created_at: AT,
      });
      made.bobAppToken = await classicToken(db, made.bob, ["read:user"], "", { oauth_app_id: app });
      // A web-flow code bob's consent made and a device code he approved, neither exchanged yet.
      await db.insert("oauth_codes", {
        code_hash: hashToken("upgrade-code"),
        app_id: app,
        user_id: made.bob,
        redirect_uri: null,
        scopes: JSON.stringify(["repo"]),
        code_challenge: null,
        expires_at: "2999-01-01T00:00:00.000Z",
      });
      await db.insert("oauth_device_codes", {
        device_code_hash: hashToken("upgrade-device-code"),
        user_code: "UPGR-ADE1",
        app_id: app,
        scopes: JSON.stringify(["gist"]),
        interval_seconds: 5,
        expires_at: "2999-01-01T00:00:00.000Z",
        last_polled_at: null,
        state: "approved",
        user_id: made.bob,
      });
    },
    async check(api, made) {
      const listed = await api.get("/authorizations", basic("bob"));
      assert.equal(listed.status, 200, JSON.stringify(listed.body));
      const granted = listed.body.filter(
        (a: { app: { client_id: string } }) => a.app.client_id === "Ov23liUpgrade000000000",
      );
      assert.deepEqual(
        granted.map((a: { app: { name: string; url: string }; scopes: string[] }) => [a.app.name, a.app.url, a.scopes]),
        [["Upgrade Sign-in", "https://sign-in.example", ["read:user"]]],
      );
      const user = await api.get("/user", token(made.bobAppToken!));
      assert.equal(user.body.login, "bob");
      const exchange = async (grant: Record<string, string>) => {
        const answer = await api.app.inject({
          method: "POST",
          url: "/login/oauth/access_token",
          headers: { accept: "application/json" },
          payload: { client_id: "Ov23liUpgrade000000000", ...grant },
        });
        return answer.json() as { access_token?: string; scope?: string; error?: string };
      };
      const web = await exchange({ client_secret: "upgrade-secret", code: "upgrade-code" });
      assert.equal(web.scope, "repo", JSON.stringify(web));
      const device = await exchange({
        device_code: "upgrade-device-code",
        grant_type: "urn:ietf:params:oauth:grant-type:device_code",
      });
      assert.equal(device.scope, "gist", JSON.stringify(device));
    },
  },
  28: {
    async rows(db, made) {
      // alice's GitHub App, its bot account, an installation on her account and a token the installation was given.
      const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
      made.appKey = privateKey;
      const bot = await db.insert("users", {
        login: "upgrade-bot[bot]",
        type: "Bot",
        site_admin: false,
        created_at: AT,
      });
      await db.insert("apps", {
        id: 9001,
        slug: "upgrade-bot",
        name: "Upgrade Bot",
        owner_id: made.alice,
        bot_id: bot,
        client_id: "Iv23liUpgrade000000000",
        client_secret_hash: hashToken("upgrade-app-secret"),
        public_key: publicKey.export({ type: "spki", format: "pem" }).toString(),
        webhook_url: "https://upgrade-bot.example/hook",
        webhook_secret: null,
        permissions: JSON.stringify({ issues: "write", metadata: "read" }),
        events: JSON.stringify(["issues"]),
        created_at: AT,
        updated_at: AT,
      });
      await db.insert("installations", {
        id: 9101,
        app_id: 9001,
        account_id: made.alice,
        repository_selection: "all",
        repository_ids: JSON.stringify([]),
        permissions: JSON.stringify({ issues: "write", metadata: "read" }),
        events: JSON.stringify(["issues"]),
        suspended_at: null,
        created_at: AT,
        updated_at: AT,
      });
      const value = mintToken();
      const authorization = await db.insert("authorizations", {
        user_id: bot,
        hashed_token: hashToken(value),
        token_last_eight: value.slice(-8),
        scopes: JSON.stringify([]),
        note: "",
        note_url: null,
        fingerprint: null,
        created_at: AT,
        updated_at: AT,
      });
      await db.insert("installation_tokens", { authorization_id: authorization, installation_id: 9101 });
    },
    async check(api, made) {
      // A JWT of the app, by the wall clock the upgraded server reads.
      const now = Math.floor(Date.now() / 1000);
      const jwt = await new SignJWT({ iat: now - 30, exp: now + 540, iss: "9001" })
        .setProtectedHeader({ alg: "RS256", typ: "JWT" })
        .sign(made.appKey);
      const app = await api.get("/app", `Bearer ${jwt}`);
      assert.equal(app.status, 200, JSON.stringify(app.body));
      assert.deepEqual([app.body.id, app.body.slug, app.body.owner.login], [9001, "upgrade-bot", "alice"]);
      const installations = await api.get("/app/installations", `Bearer ${jwt}`);
      assert.deepEqual(
        installations.body.map((i: { id: number; account: { login: string }; repository_selection: string }) => [
          i.id,
          i.account.login,
          i.repository_selection,
        ]),
        [[9101, "alice", "all"]],
      );
    },
  },
  29: {
    async rows(db, made) {
      // A delivery queued to an app's hook, naming its installation (the column this version added).
      made.appHook = await db
        .insert("hooks", {
          app_id: 9001,
          name: "web",
          active: true,
          events: JSON.stringify(["issues"]),
          url: "https://upgrade-bot.example/second",
          content_type: "json",
          insecure_ssl: "0",
          secret: null,
          created_at: AT,
          updated_at: AT,
        })
        .catch(() => undefined);
      await db.insert("hook_queue", {
        hook_id: made.repoHook,
        guid: "00000000-0000-4000-8000-000000000029",
        event: "issues",
        action: "opened",
        event_id: null,
        body: JSON.stringify({ action: "opened" }),
        redelivery: false,
        attempts: 0,
        next_attempt_at: Date.parse("2099-01-01"),
        claimed_until: null,
        created_at: AT,
        installation_id: 9101,
      });
    },
    async check(api, made) {
      // Migration 29 moved the app's webhook of version 28 into `hooks`, as the app's; one hook an app.
      const hooks = await api.store.hooks.list({ kind: "app", appId: 9001 }, { limit: 10, offset: 0 });
      assert.deepEqual(
        hooks.rows.map((h) => [h.config.url, h.events, h.active]),
        [["https://upgrade-bot.example/hook", ["issues"], true]],
      );
      assert.equal(made.appHook, undefined, "a second hook for the same app is refused");
      // The repository hooks of version 8, their queue and record kept their ids through the rebuild.
      assert.equal((await api.store.hooks.get(made.repoHook))?.config.url, "https://receiver.example/repo");
      assert.equal(await api.store.hooks.queued(made.repoHook), 2);
    },
  },
  30: {
    async rows(db, made) {
      // A user token of the app of version 28, through the client migration 30 made for it, and its refresh token.
      made.userToken = mintUserToken();
      made.refreshToken = mintRefreshToken();
      await db.run(
        `INSERT INTO authorizations (user_id, hashed_token, token_last_eight, scopes, note, note_url, fingerprint,
           created_at, updated_at, expires_at, oauth_app_id)
         SELECT ?, ?, ?, '[]', NULL, NULL, NULL, ?, ?, ?, id FROM oauth_apps WHERE github_app_id = 9001`,
        made.alice,
        hashToken(made.userToken),
        made.userToken.slice(-8),
        AT,
        AT,
        "2999-01-01T00:00:00.000Z",
      );
      await db.run(
        `INSERT INTO app_refresh_tokens (refresh_token_hash, authorization_id, from_device, expires_at)
         SELECT ?, id, ?, ? FROM authorizations WHERE hashed_token = ?`,
        hashToken(made.refreshToken),
        true,
        "2999-01-01T00:00:00.000Z",
        hashToken(made.userToken),
      );
    },
    async check(api, made) {
      const me = await api.get("/user", token(made.userToken));
      assert.equal(me.body.login, "alice");
      // A token of the device flow renews without the client secret; the old one stops working.
      const renewed = await api.app.inject({
        method: "POST",
        url: "/login/oauth/access_token",
        headers: { accept: "application/json" },
        payload: { client_id: "Iv23liUpgrade000000000", grant_type: "refresh_token", refresh_token: made.refreshToken },
      });
      const answer = renewed.json() as { access_token?: string; error?: string };
      assert.match(answer.access_token ?? "", /^ghu_/, renewed.body);
      assert.equal((await api.get("/user", token(answer.access_token!))).body.login, "alice");
      assert.equal((await api.get("/user", token(made.userToken))).status, 401);
    },
  },
  31: {
    async rows(db, made) {
      // A manifest confirmed by alice, its code not converted yet.
      made.manifestCode = "0123456789abcdef0123456789abcdef01234567";
      await db.insert("app_manifest_codes", {
        code_hash: hashToken(made.manifestCode),
        owner_id: made.alice,
        manifest: JSON.stringify({ name: "Upgraded Manifest", url: "https://upgraded.example" }),
        expires_at: "2999-01-01T00:00:00.000Z",
      });
    },
    async check(api, made) {
      const converted = await api.app.inject({
        method: "POST",
        url: `/app-manifests/${made.manifestCode}/conversions`,
      });
      assert.equal(converted.statusCode, 201, converted.body);
      const app = converted.json() as { slug: string; owner: { login: string }; pem: string };
      assert.deepEqual([app.slug, app.owner.login], ["upgraded-manifest", "alice"]);
      assert.match(app.pem, /BEGIN RSA PRIVATE KEY/);
    },
  },
  32: {
    async rows(db, made) {
      // alice/widget's first commit, as git would store it: a README, its tree, the commit, and main pointing at it.
      const person = { name: "alice", email: "alice@example.com", date: new Date(AT), offsetMinutes: 0 };
      const blob = Buffer.from("# widget\n");
      const tree = encodeTree([{ mode: "100644", name: "README.md", sha: hashObject("blob", blob) }]);
      const commit = encodeCommit({
        tree: hashObject("tree", tree),
        parents: [],
        author: person,
        committer: person,
        message: "Initial commit",
      });
      for (const [type, body] of [
        ["blob", blob],
        ["tree", tree],
        ["commit", commit],
      ] as const)
        await db.insert("git_objects", { network_id: made.widget, sha: hashObject(type, body), type, body });
      made.widgetHead = hashObject("commit", commit);
      await db.insert("git_refs", { repo_id: made.widget, name: "refs/heads/main", sha: made.widgetHead });
    },
    async check(api, made) {
      const readme = await api.get("/repos/alice/widget/contents/README.md?ref=main", token(made.aliceToken!));
      assert.equal(readme.status, 200, JSON.stringify(readme.body));
      assert.equal(Buffer.from(String(readme.body.content), "base64").toString(), "# widget\n");
      const ref = await api.get("/repos/alice/widget/git/ref/heads/main", token(made.aliceToken!));
      assert.equal(ref.body.object.sha, made.widgetHead);
    },
  },
  33: {
    async rows(db, made) {
      // alice/widget's pull request #2 from its `docs` branch (one commit on main's), bob asked and bob's approval.
      const person = { name: "alice", email: "alice@example.com", date: new Date(AT), offsetMinutes: 0 };
      const readme = Buffer.from("# widget\n");
      const docs = Buffer.from("How to use it.\n");
      const tree = encodeTree([
        { mode: "100644", name: "DOCS.md", sha: hashObject("blob", docs) },
        { mode: "100644", name: "README.md", sha: hashObject("blob", readme) },
      ]);
      const commit = encodeCommit({
        tree: hashObject("tree", tree),
        parents: [made.widgetHead!],
        author: person,
        committer: person,
        message: "Add docs",
      });
      for (const [type, body] of [
        ["blob", docs],
        ["tree", tree],
        ["commit", commit],
      ] as const)
        await db.insert("git_objects", { network_id: made.widget, sha: hashObject(type, body), type, body });
      made.docsHead = hashObject("commit", commit);
      await db.insert("git_refs", { repo_id: made.widget, name: "refs/heads/docs", sha: made.docsHead });
      const issue = await db.insert("issues", {
        repo_id: made.widget,
        number: 2,
        user_id: made.alice,
        title: "Add docs",
        body: null,
        state: "open",
        created_at: AT,
        updated_at: AT,
      });
      made.docsPull = issue;
      await db.insert("pull_requests", {
        issue_id: issue,
        repo_id: made.widget,
        number: 2,
        head_repo_id: made.widget,
        head_ref: "docs",
        head_sha: made.docsHead,
        base_ref: "main",
        base_sha: made.widgetHead,
      });
      await db.insert("pull_request_reviewers", { issue_id: issue, user_id: made.bob });
      await db.insert("pull_request_reviews", {
        issue_id: issue,
        user_id: made.bob,
        state: "APPROVED",
        body: "Good",
        commit_id: made.docsHead,
        submitted_at: AT,
        created_at: AT,
      });
    },
    async check(api, made) {
      const pull = await api.get("/repos/alice/widget/pulls/2", token(made.aliceToken!));
      assert.equal(pull.status, 200, JSON.stringify(pull.body));
      assert.deepEqual(
        [pull.body.head.sha, pull.body.base.sha, pull.body.commits, pull.body.changed_files, pull.body.mergeable],
        [made.docsHead, made.widgetHead, 1, 1, true],
      );
      assert.deepEqual(
        pull.body.requested_reviewers.map((u: { login: string }) => u.login),
        ["bob"],
      );
      const reviews = await api.get("/repos/alice/widget/pulls/2/reviews", token(made.aliceToken!));
      assert.deepEqual(
        // The first: a later version's fixture adds a review of its own.
        reviews.body.map((r: { state: string; user: { login: string } }) => [r.state, r.user.login]).slice(0, 1),
        [["APPROVED", "bob"]],
      );
    },
  },
  34: {
    async rows(db, made) {
      // What CI reported of widget's first commit: alice's status, and Upgrade Bot's completed run with one annotation
      // in its suite, whose state was written from its run.
      await db.insert("commit_statuses", {
        repo_id: made.widget,
        sha: made.widgetHead,
        context: "ci/upgrade",
        state: "success",
        target_url: "https://ci.example/upgrade",
        description: "Upgraded",
        creator_id: made.alice,
        created_at: AT,
        updated_at: AT,
      });
      made.checkSuite = await db.insert("check_suites", {
        repo_id: made.widget,
        app_id: 9001,
        head_sha: made.widgetHead,
        head_branch: "main",
        status: "completed",
        conclusion: "success",
        created_at: AT,
        updated_at: AT,
      });
      made.checkRun = await db.insert("check_runs", {
        suite_id: made.checkSuite,
        repo_id: made.widget,
        head_sha: made.widgetHead,
        name: "upgrade",
        status: "completed",
        conclusion: "success",
        started_at: AT,
        completed_at: AT,
        external_id: "",
        details_url: null,
        output_title: "Upgraded",
        output_summary: "Nothing lost",
        output_text: null,
        annotations_count: 1,
      });
      await db.insert("check_annotations", {
        run_id: made.checkRun,
        path: "README.md",
        start_line: 1,
        end_line: 1,
        start_column: null,
        end_column: null,
        annotation_level: "notice",
        title: null,
        message: "kept",
        raw_details: null,
      });
    },
    async check(api, made) {
      const auth = token(made.aliceToken!);
      const combined = await api.get("/repos/alice/widget/commits/main/status", auth);
      assert.equal(combined.status, 200, JSON.stringify(combined.body));
      assert.deepEqual(
        [combined.body.state, combined.body.total_count, combined.body.statuses[0].context],
        ["success", 1, "ci/upgrade"],
      );
      const runs = await api.get("/repos/alice/widget/commits/main/check-runs", auth);
      assert.equal(runs.status, 200, JSON.stringify(runs.body));
      const [run] = runs.body.check_runs;
      assert.deepEqual(
        [runs.body.total_count, run.id, run.app.slug, run.output.annotations_count],
        [1, made.checkRun, "upgrade-bot", 1],
      );
      const notes = await api.get(`/repos/alice/widget/check-runs/${made.checkRun}/annotations`, auth);
      assert.deepEqual(
        notes.body.map((n: { message: string }) => n.message),
        ["kept"],
      );
      const suite = await api.get(`/repos/alice/widget/check-suites/${made.checkSuite}`, auth);
      assert.deepEqual(
        [suite.body.status, suite.body.conclusion, suite.body.head_branch],
        ["completed", "success", "main"],
      );
    },
  },
  35: {
    async rows(db, made) {
      // widget's release v1.0 by alice, published and the latest, with one asset she uploaded; and a draft.
      made.release = await db.insert("releases", {
        repo_id: made.widget,
        tag_name: "v1.0",
        target_commitish: "main",
        name: "Upgraded",
        body: "Kept across the upgrade",
        draft: false,
        prerelease: false,
        make_latest: "true",
        latest_at: AT,
        author_id: made.alice,
        created_at: AT,
        updated_at: AT,
        published_at: AT,
      });
      await db.insert("releases", {
        repo_id: made.widget,
        tag_name: "v2.0",
        target_commitish: "main",
        name: null,
        body: null,
        draft: true,
        prerelease: false,
        make_latest: "true",
        latest_at: null,
        author_id: made.alice,
        created_at: AT,
        updated_at: AT,
        published_at: null,
      });
      made.asset = await db.insert("release_assets", {
        release_id: made.release,
        name: "widget.txt",
        label: "The widget",
        content_type: "text/plain",
        size: 7,
        body: Buffer.from("widget\n"),
        digest: "sha256:0000000000000000000000000000000000000000000000000000000000000000",
        download_count: 3,
        state: "uploaded",
        uploader_id: made.alice,
        created_at: AT,
        updated_at: AT,
      });
    },
    async check(api, made) {
      const latest = await api.get("/repos/alice/widget/releases/latest");
      assert.equal(latest.status, 200, JSON.stringify(latest.body));
      assert.deepEqual(
        [latest.body.id, latest.body.tag_name, latest.body.name, latest.body.author.login, latest.body.draft],
        [made.release, "v1.0", "Upgraded", "alice", false],
      );
      assert.deepEqual(
        latest.body.assets.map((a: { id: number; name: string; label: string; download_count: number }) => [
          a.id,
          a.name,
          a.label,
          a.download_count,
        ]),
        [[made.asset, "widget.txt", "The widget", 3]],
      );
      const anonymous = await api.get("/repos/alice/widget/releases");
      assert.deepEqual(
        anonymous.body.map((r: { tag_name: string }) => r.tag_name),
        ["v1.0"],
      );
      const owner = await api.get("/repos/alice/widget/releases", token(made.aliceToken!));
      assert.deepEqual(
        owner.body.map((r: { tag_name: string }) => r.tag_name),
        ["v2.0", "v1.0"],
      );
    },
  },
  36: {
    async rows(db, made) {
      // bob's note on DOCS.md's line of alice/widget's pull request #2, in a review of its own.
      const review = await db.insert("pull_request_reviews", {
        issue_id: made.docsPull,
        user_id: made.bob,
        state: "COMMENTED",
        body: "",
        commit_id: made.docsHead,
        submitted_at: AT,
        created_at: AT,
      });
      made.reviewComment = await db.insert("pull_request_review_comments", {
        repo_id: made.widget,
        issue_id: made.docsPull,
        review_id: review,
        user_id: made.bob,
        body: "Say more",
        path: "DOCS.md",
        commit_id: made.docsHead,
        line: 1,
        side: "RIGHT",
        position: 1,
        subject_type: "line",
        diff_hunk: "@@ -0,0 +1 @@\n+How to use it.",
        created_at: AT,
        updated_at: AT,
      });
    },
    async check(api, made) {
      const comment = await api.get(
        `/repos/alice/widget/pulls/comments/${made.reviewComment}`,
        token(made.aliceToken!),
      );
      assert.equal(comment.status, 200, JSON.stringify(comment.body));
      assert.deepEqual(
        [comment.body.body, comment.body.path, comment.body.line, comment.body.user.login],
        ["Say more", "DOCS.md", 1, "bob"],
      );
    },
  },
  37: {
    async rows(db, made) {
      // bob's note on README.md of alice/widget's first commit.
      made.commitComment = await db.insert("commit_comments", {
        repo_id: made.widget,
        commit_id: made.widgetHead,
        user_id: made.bob,
        body: "Short and sweet",
        path: "README.md",
        position: 1,
        line: 1,
        created_at: AT,
        updated_at: AT,
      });
    },
    async check(api, made) {
      const comment = await api.get(`/repos/alice/widget/comments/${made.commitComment}`, token(made.aliceToken!));
      assert.equal(comment.status, 200, JSON.stringify(comment.body));
      assert.deepEqual(
        [comment.body.body, comment.body.commit_id, comment.body.path, comment.body.position, comment.body.user.login],
        ["Short and sweet", made.widgetHead, "README.md", 1, "bob"],
      );
    },
  },
  38: {
    async rows(db, made) {
      // alice/widget's main protected: the `ci` check required, strictly, and one approval.
      const rules = {
        requiredStatusChecks: { strict: true, checks: [{ context: "ci", appId: null }] },
        enforceAdmins: false,
        requiredPullRequestReviews: {
          dismissStaleReviews: false,
          requireCodeOwnerReviews: false,
          requiredApprovingReviewCount: 1,
          requireLastPushApproval: false,
        },
        restrictions: null,
        requiredLinearHistory: false,
        allowForcePushes: false,
        allowDeletions: false,
        blockCreations: false,
        requiredConversationResolution: false,
        lockBranch: false,
        allowForkSyncing: false,
      };
      await db.insert("branch_protections", {
        repo_id: made.widget,
        branch: "main",
        rules: JSON.stringify(rules),
        created_at: AT,
        updated_at: AT,
      });
    },
    async check(api, made) {
      const protection = await api.get("/repos/alice/widget/branches/main/protection", token(made.aliceToken!));
      assert.equal(protection.status, 200, JSON.stringify(protection.body));
      assert.deepEqual(
        [
          protection.body.required_status_checks.contexts,
          protection.body.required_status_checks.strict,
          protection.body.required_pull_request_reviews.required_approving_review_count,
        ],
        [["ci"], true, 1],
      );
      const branch = await api.get("/repos/alice/widget/branches/main", token(made.aliceToken!));
      assert.equal(branch.body.protected, true);
    },
  },
  39: {
    async rows(db, made) {
      // widget's preference turning Upgrade Bot's suites on push off, and a suite a push made, with its `before`.
      await db.insert("check_suite_preferences", {
        repo_id: made.widget,
        app_id: 9001,
        auto_trigger: db.driver === "sqlite" ? 0 : false,
      });
      await db.run("UPDATE check_suites SET before_sha = ? WHERE id = ?", "1".repeat(40), made.checkSuite);
    },
    async check(api, made) {
      assert.deepEqual(await api.store.checks.preferences(made.widget), [{ appId: 9001, setting: false }]);
      const suite = await api.get(`/repos/alice/widget/check-suites/${made.checkSuite}`, token(made.aliceToken!));
      assert.equal(suite.status, 200, JSON.stringify(suite.body));
      assert.equal(suite.body.before, "1".repeat(40));
    },
  },
  40: { none: "an index of a repository's pushes: no table or column" },
  41: {
    async rows(db) {
      // The number as a feedgate of this version left it, after seven changes to hooks and installations.
      await db.run("UPDATE ingest_state SET hooks = 7 WHERE id = 1");
    },
    async check(api) {
      assert.equal((await api.store.events.version()).hooks, 7);
    },
  },
};
