// Released: tests/unit/store/migrations-frozen.test.ts holds its SQL's checksums. A change is a new migration.
import type { Migration } from "./migration.js";

export const migration: Migration = {
  id: 15,
  name: "fine-grained tokens",
  // A fine-grained token is an authorization limited to one resource owner (a user or an organization, whose
  // deletion revokes it, as on GitHub) and to what `fine_grained` says: its repository selection, its repositories'
  // ids and its permissions, as JSON. Classic tokens have neither.
  sqlite: `
      ALTER TABLE authorizations ADD COLUMN resource_owner_id INTEGER REFERENCES users(id) ON DELETE CASCADE;
      ALTER TABLE authorizations ADD COLUMN fine_grained TEXT
        CHECK ((fine_grained IS NULL) = (resource_owner_id IS NULL));
    `,
  postgres: `
      ALTER TABLE authorizations ADD COLUMN resource_owner_id bigint REFERENCES users(id) ON DELETE CASCADE;
      ALTER TABLE authorizations ADD COLUMN fine_grained jsonb
        CHECK ((fine_grained IS NULL) = (resource_owner_id IS NULL));
      CREATE INDEX authorizations_by_resource_owner ON authorizations (resource_owner_id) WHERE resource_owner_id IS NOT NULL;
    `,
};
