// Released: tests/unit/store/migrations-frozen.test.ts holds its SQL's checksums. A change is a new migration.
import type { Migration } from "./migration.js";

export const migration: Migration = {
  id: 18,
  name: "feed indexes covering visibility",
  // PostgreSQL reads the organization's and the received feed part by part (feed-sql.ts, PARTS): an
  // account's, a repository's, an organization's events, each from its index. Those indexes now also hold what a
  // feed's visibility asks of a row (public, and the repository and organization a reader may see), so that a
  // count or a boundary over a thousand follows and watches reads the indexes alone, not a row of the table per
  // event. Rebuilding them takes a while on a large database, once, at the upgrade (docs/operating.md, Upgrades).
  // SQLite's indexes were given the same columns by migration 21.
  sqlite: "",
  postgres: `
      DROP INDEX events_by_repo;
      CREATE INDEX events_by_repo ON events (repo_id, created_at DESC, id DESC) INCLUDE (public, org_id);
      DROP INDEX events_by_actor;
      CREATE INDEX events_by_actor ON events (actor_id, created_at DESC, id DESC) INCLUDE (public, repo_id, org_id);
      DROP INDEX events_by_org;
      CREATE INDEX events_by_org ON events (org_id, created_at DESC, id DESC) INCLUDE (public, repo_id) WHERE org_id IS NOT NULL;
    `,
};
