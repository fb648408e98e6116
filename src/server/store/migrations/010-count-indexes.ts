// Released: tests/unit/store/migrations-frozen.test.ts holds its SQL's checksums. A change is a new migration.
import type { Migration } from "./migration.js";

export const migration: Migration = {
  id: 10,
  name: "indexes for the counts a repository and an account show",
  // Without them, a repository's watchers and forks and an account's followers are counted by reading the whole
  // relation, which every `GET /repos/:owner/:repo`, and every webhook body's `repository`, would pay.
  sqlite: `
      CREATE INDEX watches_by_repo ON watches (repo_id, user_id);
      CREATE INDEX follows_by_followee ON follows (followee_id, follower_id);
      CREATE INDEX repos_by_parent ON repos (parent_id) WHERE parent_id IS NOT NULL;
    `,
  postgres: `
      CREATE INDEX watches_by_repo ON watches (repo_id, user_id);
      CREATE INDEX follows_by_followee ON follows (followee_id, follower_id);
      CREATE INDEX repos_by_parent ON repos (parent_id) WHERE parent_id IS NOT NULL;
    `,
};
