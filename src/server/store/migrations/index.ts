/**
 * Schema migrations, applied in order and recorded in `schema_migrations`. Never edit a released
 * migration: add a new one. Each has the SQL of every driver side by side so they stay in step.
 */
export interface Migration {
  id: number;
  name: string;
  sqlite: string;
}

export const migrations: readonly Migration[] = [
  {
    id: 1,
    name: "users and authorizations",
    sqlite: `
      CREATE TABLE users (
        id            INTEGER PRIMARY KEY AUTOINCREMENT,
        login         TEXT NOT NULL UNIQUE COLLATE NOCASE,
        password_hash TEXT,
        otp_secret    TEXT,
        site_admin    INTEGER NOT NULL DEFAULT 0,
        created_at    TEXT NOT NULL
      );
      CREATE TABLE authorizations (
        id               INTEGER PRIMARY KEY AUTOINCREMENT,
        user_id          INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        hashed_token     TEXT NOT NULL UNIQUE,
        token_last_eight TEXT NOT NULL,
        scopes           TEXT NOT NULL,
        note             TEXT,
        note_url         TEXT,
        fingerprint      TEXT,
        created_at       TEXT NOT NULL,
        updated_at       TEXT NOT NULL
      );
      CREATE INDEX authorizations_by_user ON authorizations (user_id, id);
      CREATE INDEX authorizations_by_last_eight ON authorizations (token_last_eight);
    `,
  },
];
