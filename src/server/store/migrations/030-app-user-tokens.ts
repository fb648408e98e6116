// Released: tests/unit/store/migrations-frozen.test.ts holds its SQL's checksums. A change is a new migration.
import type { Migration } from "./migration.js";

export const migration: Migration = {
  id: 30,
  name: "app user tokens",
  // A GitHub App signs users in as an OAuth app does, by its client id: the web and device flows of migration 27,
  // their codes and their tokens are the same. So each GitHub App has an OAuth client row of its own in `oauth_apps`
  // (`github_app_id`), made with the app; the apps of migration 28 get theirs here, with no callback URL yet (the web
  // flow refuses them until one is set) and the device flow off. The tokens such a client grants are the app's user
  // tokens (`ghu_`, eight hours), each with a refresh token (`ghr_`) kept as its SHA-256 with its expiry; revoking
  // the token (deleting its authorization) takes its refresh token too. `from_device` marks a token of the device
  // flow, which GitHub refreshes without the client secret.
  sqlite: `
      ALTER TABLE oauth_apps ADD COLUMN github_app_id INTEGER REFERENCES apps(id) ON DELETE CASCADE;
      CREATE UNIQUE INDEX oauth_apps_by_github_app ON oauth_apps (github_app_id) WHERE github_app_id IS NOT NULL;
      INSERT INTO oauth_apps (client_id, client_secret_hash, name, owner_id, url, callback_url, device_flow, suspended,
          created_at, github_app_id)
        SELECT client_id, COALESCE(client_secret_hash, ''), name, owner_id, '', '', 0, 0, created_at, id FROM apps
        WHERE client_id NOT IN (SELECT client_id FROM oauth_apps);
      CREATE TABLE app_refresh_tokens (
        refresh_token_hash TEXT PRIMARY KEY,
        authorization_id   INTEGER NOT NULL UNIQUE REFERENCES authorizations(id) ON DELETE CASCADE,
        from_device        INTEGER NOT NULL,
        expires_at         TEXT NOT NULL
      ) WITHOUT ROWID;
    `,
  postgres: `
      ALTER TABLE oauth_apps ADD COLUMN github_app_id bigint REFERENCES apps(id) ON DELETE CASCADE;
      CREATE UNIQUE INDEX oauth_apps_by_github_app ON oauth_apps (github_app_id) WHERE github_app_id IS NOT NULL;
      INSERT INTO oauth_apps (client_id, client_secret_hash, name, owner_id, url, callback_url, device_flow, suspended,
          created_at, github_app_id)
        SELECT client_id, COALESCE(client_secret_hash, ''), name, owner_id, '', '', false, false, created_at, id
        FROM apps WHERE client_id NOT IN (SELECT client_id FROM oauth_apps);
      CREATE TABLE app_refresh_tokens (
        refresh_token_hash text PRIMARY KEY,
        authorization_id   bigint NOT NULL UNIQUE REFERENCES authorizations(id) ON DELETE CASCADE,
        from_device        boolean NOT NULL,
        expires_at         timestamptz NOT NULL
      );
    `,
};
