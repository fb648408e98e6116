// Released: tests/unit/store/migrations-frozen.test.ts holds its SQL's checksums. A change is a new migration.
import type { Migration } from "./migration.js";

export const migration: Migration = {
  id: 31,
  name: "app manifests",
  // GitHub's manifest flow: a signed-in person confirms an app's manifest, and the app's server converts the code it
  // was sent back with into the registered app (its id, secrets and private key, shown that once). The code is kept
  // as its SHA-256, with whose the app will be (the person, or an organization they own), the manifest as confirmed,
  // and its expiry (an hour); a conversion deletes it.
  sqlite: `
      CREATE TABLE app_manifest_codes (
        code_hash  TEXT PRIMARY KEY,
        owner_id   INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        manifest   TEXT NOT NULL,
        expires_at TEXT NOT NULL
      ) WITHOUT ROWID;
    `,
  postgres: `
      CREATE TABLE app_manifest_codes (
        code_hash  text PRIMARY KEY,
        owner_id   bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        manifest   jsonb NOT NULL,
        expires_at timestamptz NOT NULL
      );
    `,
};
