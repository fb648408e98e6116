// Released: tests/unit/store/migrations-frozen.test.ts holds its SQL's checksums. A change is a new migration.
import type { Migration } from "./migration.js";

export const migration: Migration = {
  id: 7,
  name: "ingest log",
  // One row per ingest: how old the oldest event it brought was. A feed's total counted once stays right across
  // later ingests that only added events newer than some time: the server then counts only those newer events
  // (services/feed-totals.ts). Kept for the last INGEST_LOG_KEPT ingests (store/feed-sql.ts).
  sqlite: `
      CREATE TABLE ingest_log (generation INTEGER PRIMARY KEY, oldest_event INTEGER, oldest_issue_event INTEGER);
    `,
  postgres: `
      CREATE TABLE ingest_log (generation bigint PRIMARY KEY, oldest_event bigint, oldest_issue_event bigint);
    `,
};
