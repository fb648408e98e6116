// Released: tests/unit/store/migrations-frozen.test.ts holds its SQL's checksums. A change is a new migration.
import type { Migration } from "./migration.js";

export const migration: Migration = {
  id: 21,
  name: "SQLite's feed indexes covering visibility",
  // Migration 18's, on SQLite: a feed's visibility asks `public` of every event (and, for a reader's own view, the
  // repository and organization); while the feed indexes do not hold them, a count reads a row of the table for
  // every event in its range, and so does each move of a feed's boundary, holding the event loop (docs/benchmarks.md
  // has the figures). The columns go after the key (SQLite has no INCLUDE); (created_at, id) is unique, so they
  // change no order. Rebuilding the three takes a while on a large database, once, at the upgrade.
  sqlite: `
      DROP INDEX events_by_repo;
      CREATE INDEX events_by_repo ON events (repo_id, created_at DESC, id DESC, public, org_id);
      DROP INDEX events_by_actor;
      CREATE INDEX events_by_actor ON events (actor_id, created_at DESC, id DESC, public, repo_id, org_id);
      DROP INDEX events_by_org;
      CREATE INDEX events_by_org ON events (org_id, created_at DESC, id DESC, public, repo_id) WHERE org_id IS NOT NULL;
    `,
  postgres: "",
};
