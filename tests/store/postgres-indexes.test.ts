/**
 * On PostgreSQL every feed query is served by an index: with sequential scans priced out
 * (`enable_seqscan = off`) the planner must still find an index path for each statement the driver runs
 * (page, count, newest) of every scope kind seen through every visibility kind, and of issue events.
 *
 * "No Seq Scan" alone is too weak a test here: every feed has `created_at >= @notBefore`, and PostgreSQL will
 * happily run that as an Index Cond on the second column of any (x, created_at) index, reading the whole
 * index. So each index read on a feed table must also be narrow: it constrains the index's leading column
 * (a repository, an actor, an organization, an event id). An index that leads with created_at is narrow only
 * for the feed of all events, or when it is walked in order, newest first, by a page or newest statement that
 * stops at its LIMIT; counting a narrower feed through it reads every event in the time range.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import pg from "pg";
import { PostgresStore } from "../../src/server/store/postgres/postgres-store.js";
import { named } from "../../src/server/store/postgres/pool.js";
import { feedStatements, feedWhere, scopeParameters } from "../../src/server/store/feed-sql.js";
import type { EventScope, IngestBatch, Visibility } from "../../src/server/store/store.js";
import { emptyBatch } from "../../src/server/services/event-envelope.js";
import { createTestDatabase, skipUnlessPostgres, type TestDatabase } from "../helpers/services.js";

const skip = await skipUnlessPostgres();

const USERS = 300;
const ORGS = 30;
const REPOS = 600;
const EVENTS = 20000; // below ANALYZE's 30,000-row sample, so the statistics (and plans) are the same every run
const ISSUE_EVENTS = 2000;
const START = Date.UTC(2024, 0, 1) / 1000;

/** A deterministic generator (mulberry32). */
function random(seed: number) {
  let state = seed;
  return (n: number) => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n);
  };
}

/** Thousands of events spread over many repositories, actors and organizations, with every relation a feed reads. */
function seed(): IngestBatch {
  const next = random(2024);
  const batch = emptyBatch();
  const user = (i: number) => `user${i}`;
  const org = (i: number) => `org${i}`;
  for (let i = 0; i < USERS; i++) batch.accounts.push({ source: "users", login: user(i), type: "User" });
  for (let i = 0; i < ORGS; i++) {
    batch.accounts.push({ source: "orgs", login: org(i), type: "Organization" });
    for (let m = 0; m < 8; m++) batch.memberships.push({ source: "orgs", org: org(i), member: user(next(USERS)) });
  }
  const repos: string[] = [];
  for (let i = 0; i < REPOS; i++) {
    const name = `${i % 4 === 0 ? org(next(ORGS)) : user(next(USERS))}/repo${i}`;
    repos.push(name);
    batch.repos.push({
      source: "repos",
      fullName: name,
      private: i % 9 === 0,
      ...(i > 50 && i % 5 === 0 ? { forkOf: repos[next(50)] } : {}),
    });
    if (i % 3 === 0) batch.collaborators.push({ source: "repos", repo: name, user: user(next(USERS)) });
  }
  for (let i = 0; i < USERS; i++) {
    for (let k = 0; k < 5; k++)
      batch.follows.push({ source: "follows", follower: user(i), followee: user(next(USERS)) });
    for (let k = 0; k < 3; k++) batch.watches.push({ source: "watches", user: user(i), repo: repos[next(REPOS)]! });
  }
  for (let i = 0; i < EVENTS; i++) {
    const repo = i % 40 === 0 ? null : repos[next(REPOS)]!;
    const owner = repo?.slice(0, repo.indexOf("/")) ?? null;
    batch.events.push({
      source: `events[${i}]`,
      id: String(10_000 + i),
      type: "PushEvent",
      actorLogin: user(next(USERS)),
      repoName: repo,
      orgLogin: owner?.startsWith("org") ? owner : repo === null ? org(next(ORGS)) : null,
      public: next(5) !== 0,
      createdAt: new Date((START + next(90 * 86400)) * 1000),
      complete: false,
      body: "{}",
    });
  }
  for (let i = 0; i < ISSUE_EVENTS; i++) {
    batch.issueEvents.push({
      source: `issue_events[${i}]`,
      id: String(50_000 + i),
      repoName: repos[next(REPOS)]!,
      actorLogin: user(next(USERS)),
      createdAt: new Date((START + next(90 * 86400)) * 1000),
      complete: false,
      body: "{}",
    });
  }
  return batch;
}

interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  "Index Cond"?: string;
  Plans?: PlanNode[];
}

function* nodes(plan: PlanNode): Generator<PlanNode> {
  yield plan;
  for (const child of plan.Plans ?? []) yield* nodes(child);
}

const FEED_TABLES = new Set(["events", "issue_events"]);
const VISIBILITY_KINDS: Visibility["kind"][] = ["public", "readable-by", "all"];
/** Every scope kind: the compiler refuses this list when a kind is added or removed. */
const SCOPE_KINDS = Object.keys({ all: 0, repo: 0, network: 0, org: 0, actor: 0, received: 0 } satisfies Record<
  EventScope["kind"],
  0
>) as EventScope["kind"][];

/**
 * Shapes no route asks for (services/feeds.ts shows `/events` to everyone as public only), so they carry no
 * index of their own: one more index on every event write would buy nothing. Listed, not silently left out.
 */
const UNUSED_SHAPES: Record<string, string> = {
  "all|readable-by": "GET /events never includes private events",
  "all|all": "GET /events never includes private events",
};

/**
 * Feeds gathered from many accounts and repositories: their counts, boundaries and newest times read the indexes alone
 * (feed-sql.ts, PARTS; migration 18), never a row of the table per event (seconds for a received feed).
 */
const READ_IN_PARTS = new Set<EventScope["kind"]>(["org", "received"]);

describe("PostgreSQL serves every feed from an index", { skip }, () => {
  let database: TestDatabase;
  let client: pg.Client;
  /** index name -> [table, leading column] for the indexes of events and issue_events. */
  const indexes = new Map<string, [string, string]>();
  /** Per scope kind, the parameter values to explain with: a typical one and the busiest one. */
  const scopes = new Map<EventScope["kind"], EventScope[]>();
  let readers: number[] = [];
  let busiestRepo = 0;
  let midpoint = 0;

  before(async () => {
    database = await createTestDatabase();
    const store = await PostgresStore.open(database.url); // migrates
    try {
      await store.ingest.apply(seed(), new Date());
    } finally {
      await store.close();
    }
    client = new pg.Client({ connectionString: database.url });
    await client.connect();
    // As an import leaves it (postgres/feed-indexes.ts): statistics made, and every row visible to all, as index-only reads need.
    await client.query("VACUUM ANALYZE");
    await client.query("SET enable_seqscan = off");
    await client.query("SET enable_hashjoin = off");
    await client.query("SET enable_mergejoin = off");

    // Events are partitioned by month (migration 16): a plan reads the partitions' own indexes, each named for its
    // partition, and is judged as a read of the parent's.
    const { rows } = await client.query<{ index: string; table: string; leading: string; partition: string }>(`
      SELECT i.relname AS index, coalesce(p.relname, t.relname) AS table, a.attname AS leading, t.relname AS partition
      FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
      LEFT JOIN pg_inherits h ON h.inhrelid = t.oid LEFT JOIN pg_class p ON p.oid = h.inhparent
      JOIN pg_attribute a ON a.attrelid = x.indrelid AND a.attnum = x.indkey[0]
      WHERE coalesce(p.relname, t.relname) IN ('events', 'issue_events')`);
    for (const r of rows) {
      indexes.set(r.index, [r.table, r.leading]);
      FEED_TABLES.add(r.partition);
    }

    /** The most frequent and the median value of a column: the busiest and a typical scope. */
    const pick = async (sql: string): Promise<number[]> => {
      const values = (await client.query<{ v: number }>(`${sql} ORDER BY count(*) DESC, 1`)).rows.map((r) =>
        Number(r.v),
      );
      return [values[0]!, values[Math.floor(values.length / 2)]!];
    };
    const repo = await pick("SELECT repo_id AS v FROM events WHERE repo_id IS NOT NULL GROUP BY 1");
    busiestRepo = repo[0]!;
    scopes.set("all", [{ kind: "all" }]);
    scopes.set(
      "repo",
      repo.map((repoId) => ({ kind: "repo", repoId })),
    );
    scopes.set(
      "network",
      (await pick("SELECT network_id AS v FROM repos GROUP BY 1")).map((networkId) => ({ kind: "network", networkId })),
    );
    scopes.set(
      "org",
      (
        await pick(
          "SELECT owner_id AS v FROM repos r JOIN users u ON u.id = r.owner_id WHERE u.type = 'Organization' GROUP BY 1",
        )
      ).map((orgId) => ({ kind: "org", orgId })),
    );
    scopes.set(
      "actor",
      (await pick("SELECT actor_id AS v FROM events GROUP BY 1")).map((actorId) => ({ kind: "actor", actorId })),
    );
    scopes.set(
      "received",
      (await pick("SELECT follower_id AS v FROM follows GROUP BY 1")).map((userId) => ({ kind: "received", userId })),
    );
    readers = await pick("SELECT user_id AS v FROM org_members GROUP BY 1");
    midpoint = Number(
      (await client.query("SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY created_at) AS t FROM events")).rows[0].t,
    );
  });

  after(async () => {
    await client?.end();
    await database?.drop();
  });

  /** EXPLAINs one statement and asserts that a narrow index read serves every read of a feed table. */
  async function assertIndexServed(
    sql: string,
    parameters: Record<string, unknown>,
    what: string,
    { everyEvent = false, limited = false, indexOnly = false } = {},
  ): Promise<void> {
    const { text, values } = named(`EXPLAIN (FORMAT JSON) ${sql}`, parameters);
    const plan = (await client.query(text, values)).rows[0]["QUERY PLAN"][0].Plan as PlanNode;
    const shown = () =>
      JSON.stringify(plan, ["Node Type", "Relation Name", "Index Name", "Index Cond", "Filter", "Plans"], 1);
    let feedReads = 0;
    for (const node of nodes(plan)) {
      if (node["Node Type"] === "Seq Scan" && FEED_TABLES.has(node["Relation Name"] ?? "")) {
        assert.fail(`${what}: Seq Scan on ${node["Relation Name"]}\n${shown()}`);
      }
      const index = node["Index Name"] ? indexes.get(node["Index Name"]) : undefined;
      if (!index) continue;
      // The default partition holds only what arrived for a month whose partition was not made yet, and retention
      // moves that out at its next run: empty here, as normally, any read of it is free (and the planner picks any).
      if (node["Relation Name"] === "events_default") continue;
      feedReads++;
      if (indexOnly)
        assert.equal(
          node["Node Type"],
          "Index Only Scan",
          `${what}: reads rows of ${node["Relation Name"]}, not only ${node["Index Name"]}\n${shown()}`,
        );
      const [table, leading] = index;
      const cond = node["Index Cond"] ?? "";
      assert.match(
        cond,
        new RegExp(`\\(${leading} (=|>=|<=|>|<) `),
        `${what}: reads all of ${node["Index Name"]} on ${table} (its leading column ${leading} is not constrained)\n${shown()}`,
      );
      if (leading === "created_at" && !everyEvent) {
        const ordered = node["Node Type"] === "Index Scan" || node["Node Type"] === "Index Only Scan";
        assert.ok(
          limited && ordered,
          `${what}: reads every event in the time range of ${node["Index Name"]}\n${shown()}`,
        );
      }
    }
    assert.ok(feedReads > 0, `${what}: no index read\n${shown()}`);
  }

  for (const scopeKind of SCOPE_KINDS) {
    for (const visibility of VISIBILITY_KINDS) {
      const unused = UNUSED_SHAPES[`${scopeKind}|${visibility}`];
      test(`${scopeKind} events seen as ${visibility}: page, count and newest are index reads`, {
        skip: unused ?? false,
      }, async () => {
        const { where } = feedWhere("postgres", {
          scope: scopes.get(scopeKind)![0]!,
          visibility: visibility === "readable-by" ? { kind: visibility, userId: 0 } : { kind: visibility },
        });
        const statements = feedStatements("postgres", "events", where);
        for (const scope of scopes.get(scopeKind)!) {
          for (const reader of visibility === "readable-by" ? readers : [0]) {
            // The whole history, and the `--feed-max-age` cut.
            for (const notBefore of [0, midpoint]) {
              const parameters = {
                ...scopeParameters(scope),
                reader,
                notBefore,
                limit: 30,
                offset: 0,
                until: 2 ** 40,
                depth: 1000,
              };
              for (const [name, sql] of Object.entries(statements)) {
                // named() binds only the parameters a statement names: the others are ignored.
                await assertIndexServed(
                  sql,
                  parameters,
                  `${name} of ${JSON.stringify(scope)} as ${visibility} (reader ${reader}, notBefore ${notBefore})`,
                  {
                    everyEvent: scopeKind === "all",
                    limited: !name.startsWith("count"),
                    indexOnly: READ_IN_PARTS.has(scopeKind) && name !== "page",
                  },
                );
              }
            }
          }
        }
      });
    }
  }

  test("issue events of a repository: page, count and newest are index reads", async () => {
    const statements = feedStatements("postgres", "issue_events", "e.repo_id = @repo");
    for (const notBefore of [0, midpoint]) {
      for (const [name, sql] of Object.entries(statements)) {
        await assertIndexServed(
          sql,
          { repo: busiestRepo, notBefore, limit: 30, offset: 0, until: 2 ** 40, depth: 1000 },
          `issue events ${name} (notBefore ${notBefore})`,
        );
      }
    }
  });
});
