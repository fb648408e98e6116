// Released: tests/unit/store/migrations-frozen.test.ts holds its SQL's checksums. A change is a new migration.
import type { Migration } from "./migration.js";

export const migration: Migration = {
  id: 40,
  name: "a repository's pushes, indexed",
  // A repository's `pushed_at` is its newest PushEvent's time. events_by_repo orders a repository's events by time
  // but holds no type, so finding the newest push walked back through every event after it: all of them for a
  // repository that was never pushed to, which is every repository of a world that only opens issues (GET /repos/o/r
  // took 9.9 ms after 6,600 issues and comments, and grew with each). This index holds the pushes alone (about half
  // of GH Archive's events), so the newest is its last entry for the repository. What it costs an import of 300,000
  // generated events into an empty table, which builds it once at the end with the feed indexes: about 2% more time
  // on PostgreSQL, and 10% more CPU on SQLite.
  sqlite: `
      CREATE INDEX events_pushes_by_repo ON events (repo_id, created_at) WHERE type = 'PushEvent';
    `,
  postgres: `
      CREATE INDEX events_pushes_by_repo ON events (repo_id, created_at) WHERE type = 'PushEvent';
    `,
};
