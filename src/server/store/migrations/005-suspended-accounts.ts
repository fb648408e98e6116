// Released: tests/unit/store/migrations-frozen.test.ts holds its SQL's checksums. A change is a new migration.
import type { Migration } from "./migration.js";

export const migration: Migration = {
  id: 5,
  name: "suspended accounts",
  // `feedgate user disable` suspends an account as GitHub Enterprise's site administrators do: no password or
  // token of it authenticates until `user enable`. A time, not a flag, as GitHub's `suspended_at`.
  sqlite: "ALTER TABLE users ADD COLUMN suspended_at TEXT;",
  postgres: "ALTER TABLE users ADD COLUMN suspended_at timestamptz;",
};
