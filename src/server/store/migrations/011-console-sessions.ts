// Released: tests/unit/store/migrations-frozen.test.ts holds its SQL's checksums. A change is a new migration.
import type { Migration } from "./migration.js";

export const migration: Migration = {
  id: 11,
  name: "console sessions",
  // The console's sign-in sessions (server/services/sessions.ts). Only the SHA-256 of a session's id is stored, so a
  // read of the table gives nobody a usable cookie; rows live in the database so every instance knows every session.
  // `credential` is a digest of the password hash the user signed in with: a changed password ends the session.
  sqlite: `
      CREATE TABLE sessions (
        id_hash      TEXT PRIMARY KEY,
        user_id      INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        credential   TEXT NOT NULL,
        verified     INTEGER NOT NULL,
        created_at   TEXT NOT NULL,
        last_seen_at TEXT NOT NULL
      );
      CREATE INDEX sessions_by_user ON sessions (user_id);
    `,
  postgres: `
      CREATE TABLE sessions (
        id_hash      text PRIMARY KEY,
        user_id      bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        credential   text NOT NULL,
        verified     boolean NOT NULL,
        created_at   timestamptz NOT NULL,
        last_seen_at timestamptz NOT NULL
      );
      CREATE INDEX sessions_by_user ON sessions (user_id);
    `,
};
