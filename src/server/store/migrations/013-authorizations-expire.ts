// Released: tests/unit/store/migrations-frozen.test.ts holds its SQL's checksums. A change is a new migration.
import type { Migration } from "./migration.js";

export const migration: Migration = {
  id: 13,
  name: "authorizations may expire",
  // GitHub's personal access tokens carry an expiry since 2021 (7 to 90 days, a custom date, or none): NULL is none,
  // so every token stored before this migration keeps never expiring. No index: only the token found by its last
  // eight characters is ever compared with the clock.
  sqlite: `
      ALTER TABLE authorizations ADD COLUMN expires_at TEXT;
    `,
  postgres: `
      ALTER TABLE authorizations ADD COLUMN expires_at timestamptz;
    `,
};
