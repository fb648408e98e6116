// Released: tests/unit/store/migrations-frozen.test.ts holds its SQL's checksums. A change is a new migration.
import type { Migration } from "./migration.js";

export const migration: Migration = {
  id: 39,
  name: "check suites made on push, and their preferences",
  // GitHub makes a check suite for each app that takes checks when a branch is pushed, unless the repository's
  // preferences turn that off for the app (`PATCH .../check-suites/preferences`): a row per repository and app that
  // was given a setting, absent meaning on. A suite made by a push keeps the push's `before`, which its answers and
  // webhooks show; one made otherwise has none (its head commit's parent is shown).
  sqlite: `
      CREATE TABLE check_suite_preferences (
        repo_id      INTEGER NOT NULL REFERENCES repos(id) ON DELETE CASCADE,
        app_id       INTEGER NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
        auto_trigger INTEGER NOT NULL,
        PRIMARY KEY (repo_id, app_id)
      ) WITHOUT ROWID;
      ALTER TABLE check_suites ADD COLUMN before_sha TEXT;
    `,
  postgres: `
      CREATE TABLE check_suite_preferences (
        repo_id      bigint NOT NULL REFERENCES repos(id) ON DELETE CASCADE,
        app_id       bigint NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
        auto_trigger boolean NOT NULL,
        PRIMARY KEY (repo_id, app_id)
      );
      ALTER TABLE check_suites ADD COLUMN before_sha text;
    `,
};
