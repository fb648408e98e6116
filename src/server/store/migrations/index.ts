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
  {
    id: 2,
    name: "accounts, repositories, relations, events",
    // Users and organizations share GitHub's namespace, so organizations are rows of `users` too.
    // `external_id` keeps GitHub's id from imported data; the wire id is external_id, else the row id.
    // Events keep their JSON verbatim in `body`; the other columns exist to query by.
    sqlite: `
      ALTER TABLE users ADD COLUMN type TEXT NOT NULL DEFAULT 'User';
      ALTER TABLE users ADD COLUMN external_id INTEGER;
      CREATE INDEX users_by_external_id ON users (external_id);

      CREATE TABLE org_members (
        org_id  INTEGER NOT NULL REFERENCES users(id),
        user_id INTEGER NOT NULL REFERENCES users(id),
        PRIMARY KEY (org_id, user_id)
      ) WITHOUT ROWID;
      CREATE INDEX org_members_by_user ON org_members (user_id, org_id);

      CREATE TABLE repos (
        id          INTEGER PRIMARY KEY AUTOINCREMENT,
        owner_id    INTEGER NOT NULL REFERENCES users(id),
        name        TEXT NOT NULL COLLATE NOCASE,
        private     INTEGER NOT NULL DEFAULT 0,
        parent_id   INTEGER REFERENCES repos(id),
        network_id  INTEGER NOT NULL,
        external_id INTEGER,
        UNIQUE (owner_id, name)
      );
      CREATE INDEX repos_by_network ON repos (network_id);

      CREATE TABLE collaborators (
        repo_id INTEGER NOT NULL REFERENCES repos(id),
        user_id INTEGER NOT NULL REFERENCES users(id),
        PRIMARY KEY (repo_id, user_id)
      ) WITHOUT ROWID;
      CREATE INDEX collaborators_by_user ON collaborators (user_id, repo_id);

      CREATE TABLE follows (
        follower_id INTEGER NOT NULL REFERENCES users(id),
        followee_id INTEGER NOT NULL REFERENCES users(id),
        PRIMARY KEY (follower_id, followee_id)
      ) WITHOUT ROWID;

      CREATE TABLE watches (
        user_id INTEGER NOT NULL REFERENCES users(id),
        repo_id INTEGER NOT NULL REFERENCES repos(id),
        PRIMARY KEY (user_id, repo_id)
      ) WITHOUT ROWID;

      CREATE TABLE events (
        id         INTEGER PRIMARY KEY,
        type       TEXT NOT NULL,
        actor_id   INTEGER NOT NULL REFERENCES users(id),
        repo_id    INTEGER NOT NULL REFERENCES repos(id),
        org_id     INTEGER REFERENCES users(id),
        public     INTEGER NOT NULL,
        created_at INTEGER NOT NULL,
        complete   INTEGER NOT NULL,
        body       TEXT NOT NULL
      );
      CREATE INDEX events_public ON events (created_at DESC, id DESC) WHERE public = 1;
      CREATE INDEX events_by_repo ON events (repo_id, created_at DESC, id DESC);
      CREATE INDEX events_by_actor ON events (actor_id, created_at DESC, id DESC);
      CREATE INDEX events_by_org ON events (org_id, created_at DESC, id DESC) WHERE org_id IS NOT NULL;

      CREATE TABLE issue_events (
        id         INTEGER PRIMARY KEY,
        repo_id    INTEGER NOT NULL REFERENCES repos(id),
        actor_id   INTEGER REFERENCES users(id),
        created_at INTEGER NOT NULL,
        complete   INTEGER NOT NULL,
        body       TEXT NOT NULL
      );
      CREATE INDEX issue_events_by_repo ON issue_events (repo_id, created_at DESC, id DESC);
    `,
  },
];
