// Released: tests/unit/store/migrations-frozen.test.ts holds its SQL's checksums. A change is a new migration.
import type { Migration } from "./migration.js";

export const migration: Migration = {
  id: 22,
  name: "account profiles",
  // What GitHub's organization-full shows that a world file gives an organization (its public e-mail and blog, and
  // the billing e-mail its owners see), and when the account last changed: GitHub's updated_at, which its
  // Last-Modified is. null: none given; an account never changed since it was created reads its created_at.
  sqlite: `
      ALTER TABLE users ADD COLUMN email TEXT;
      ALTER TABLE users ADD COLUMN blog TEXT;
      ALTER TABLE users ADD COLUMN billing_email TEXT;
      ALTER TABLE users ADD COLUMN updated_at TEXT;
    `,
  postgres: `
      ALTER TABLE users ADD COLUMN email text, ADD COLUMN blog text, ADD COLUMN billing_email text,
        ADD COLUMN updated_at timestamptz;
    `,
};
