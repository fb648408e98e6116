/**
 * On SQLite a feed's counts and boundaries are read from its index alone (migration 21): the index holds what the
 * feed's visibility asks of an event (`public`, and for a reader's own view the repository and organization), so
 * that counting a busy account's or repository's feed reads no row of the events table. Before, the first count of
 * an account's 89,000 events at a million took 186 ms (8 s from a cold cache) with the event loop held, against
 * 3 ms from the index. The organization's and the received feed are read in parts, each from its index (PARTS in
 * feed-sql.ts), not gathered as ids and looked up row by row. A page reads its thirty rows' bodies from the table, as it must.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import Database from "better-sqlite3";
import { feedStatements, feedWhere } from "../../src/server/store/feed-sql.js";
import { FEED_INDEXES } from "../../src/server/store/sqlite/feed-indexes.js";
import { REPO_STATS } from "../../src/server/store/directory.js";
import { migrateDatabase } from "../../src/server/store/sqlite/sqlite-store.js";
import type { EventScope, FeedTarget, Visibility } from "../../src/server/store/store.js";

const SCOPES: EventScope[] = [
  { kind: "repo", repoId: 1 },
  { kind: "network", networkId: 1 },
  { kind: "actor", actorId: 1 },
  { kind: "org", orgId: 1 },
  { kind: "received", userId: 1 },
];
const VISIBILITIES: Visibility[] = [{ kind: "public" }, { kind: "readable-by", userId: 1 }, { kind: "all" }];
/**
 * The other feeds routes ask for: `/events`, public only (services/feeds.ts; its other visibilities have no index of
 * their own, as on PostgreSQL: tests/store/postgres-indexes.test.ts), and a repository's issue events.
 */
const OTHER_TARGETS: [string, FeedTarget][] = [
  ["all events, public", { scope: { kind: "all" }, visibility: { kind: "public" } }],
  ["a repository's issue events", { issuesOf: 1 }],
];
/** The statements that read only keys: a count, a range's count, the newest time, the time at a depth. */
const KEY_STATEMENTS = ["count", "countUntil", "newest", "timeAtDepth"] as const;

describe("SQLite: feed counts read from the feed indexes alone", () => {
  let db: Database.Database;

  before(() => {
    db = new Database(":memory:");
    migrateDatabase(db);
  });
  after(() => db?.close());

  /** The plan's lines that read the events table itself: a scan, or a search through an index that does not cover. */
  function tableReads(sql: string, parameters: Record<string, number>): string[] {
    const plan = db
      .prepare(`EXPLAIN QUERY PLAN ${sql}`)
      .all({ ...parameters, notBefore: 0, until: 0, limit: 30, offset: 0, depth: 1 }) as { detail: string }[];
    return plan
      .map((row) => row.detail)
      .filter((detail) => /^(SCAN|SEARCH) (e|events|issue_events)\b/.test(detail) && !/COVERING INDEX/.test(detail));
  }

  function assertKeysOnly(target: FeedTarget): void {
    const { table, where, parameters } = feedWhere("sqlite", target);
    const statements = feedStatements("sqlite", table, where);
    for (const name of KEY_STATEMENTS)
      assert.deepEqual(tableReads(statements[name], parameters), [], `${name}: ${statements[name]}`);
  }

  for (const scope of SCOPES) {
    for (const visibility of VISIBILITIES) {
      test(`${scope.kind} feed, ${visibility.kind}: its counts and boundaries read no row of the events table`, () => {
        assertKeysOnly({ scope, visibility });
      });
    }
  }
  for (const [name, target] of OTHER_TARGETS) {
    test(`${name}: its counts and boundaries read no row of its table`, () => assertKeysOnly(target));
  }

  test("a repository's times, its last push's too, are read from indexes alone", () => {
    // A repository's newest push walked back through every event after it (all of them, never pushed to) before
    // migration 40: GET /repos/o/r grew with each issue and comment a bot made.
    assert.deepEqual(tableReads(REPO_STATS, { id: 1 }), []);
  });

  test("an import that defers the feed indexes builds them as the migrations made them", () => {
    const migrated = new Map(
      (
        db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'events'").all() as {
          name: string;
          sql: string | null;
        }[]
      ).map((row) => [row.name, row.sql]),
    );
    for (const sql of FEED_INDEXES) {
      const name = /^CREATE INDEX (\w+)/.exec(sql)![1]!;
      assert.equal(migrated.get(name), sql, name);
    }
  });
});
