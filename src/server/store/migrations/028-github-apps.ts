// Released: tests/unit/store/migrations-frozen.test.ts holds its SQL's checksums. A change is a new migration.
import type { Migration } from "./migration.js";

export const migration: Migration = {
  id: 28,
  name: "github apps",
  // A GitHub App: its ids as registered (kept as given), its owner, its bot account (`SLUG[bot]`, type Bot, whose
  // writes are the app's), its client secret as SHA-256 and its public key only (the private key is the app's),
  // its webhook (the secret sealed as hooks' are) and what it asks for. An installation grants the app an account's
  // repositories (all, or those in `repository_ids`) with the permissions it accepted. An installation token is an
  // authorization of the bot account whose grant names its installation: one authorization path for every token.
  sqlite: `
      CREATE TABLE apps (
        id                 INTEGER PRIMARY KEY,
        slug               TEXT NOT NULL UNIQUE COLLATE NOCASE,
        name               TEXT NOT NULL,
        owner_id           INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        bot_id             INTEGER NOT NULL UNIQUE REFERENCES users(id),
        client_id          TEXT NOT NULL UNIQUE,
        client_secret_hash TEXT,
        public_key         TEXT NOT NULL,
        webhook_url        TEXT,
        webhook_secret     TEXT,
        permissions        TEXT NOT NULL,
        events             TEXT NOT NULL,
        created_at         TEXT NOT NULL,
        updated_at         TEXT NOT NULL
      );
      CREATE TABLE installations (
        id                   INTEGER PRIMARY KEY,
        app_id               INTEGER NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
        account_id           INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        repository_selection TEXT NOT NULL CHECK (repository_selection IN ('all', 'selected')),
        repository_ids       TEXT NOT NULL,
        permissions          TEXT NOT NULL,
        events               TEXT NOT NULL,
        suspended_at         TEXT,
        created_at         TEXT NOT NULL,
        updated_at         TEXT NOT NULL,
        UNIQUE (app_id, account_id)
      );
      CREATE INDEX installations_by_account ON installations (account_id);
      CREATE TABLE installation_tokens (
        authorization_id INTEGER PRIMARY KEY REFERENCES authorizations(id) ON DELETE CASCADE,
        installation_id  INTEGER NOT NULL REFERENCES installations(id) ON DELETE CASCADE
      );
      CREATE INDEX installation_tokens_by_installation ON installation_tokens (installation_id);
    `,
  postgres: `
      CREATE TABLE apps (
        id                 bigint PRIMARY KEY,
        slug               text NOT NULL,
        name               text NOT NULL,
        owner_id           bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        bot_id             bigint NOT NULL UNIQUE REFERENCES users(id),
        client_id          text NOT NULL UNIQUE,
        client_secret_hash text,
        public_key         text NOT NULL,
        webhook_url        text,
        webhook_secret     text,
        permissions        jsonb NOT NULL,
        events             jsonb NOT NULL,
        created_at         timestamptz NOT NULL,
        updated_at         timestamptz NOT NULL
      );
      CREATE UNIQUE INDEX apps_by_slug ON apps (lower(slug));
      CREATE TABLE installations (
        id                   bigint PRIMARY KEY,
        app_id               bigint NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
        account_id           bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        repository_selection text NOT NULL CHECK (repository_selection IN ('all', 'selected')),
        repository_ids       jsonb NOT NULL,
        permissions          jsonb NOT NULL,
        events               jsonb NOT NULL,
        suspended_at         timestamptz,
        created_at           timestamptz NOT NULL,
        updated_at           timestamptz NOT NULL,
        UNIQUE (app_id, account_id)
      );
      CREATE INDEX installations_by_account ON installations (account_id);
      CREATE TABLE installation_tokens (
        authorization_id bigint PRIMARY KEY REFERENCES authorizations(id) ON DELETE CASCADE,
        installation_id  bigint NOT NULL REFERENCES installations(id) ON DELETE CASCADE
      );
      CREATE INDEX installation_tokens_by_installation ON installation_tokens (installation_id);
    `,
};
