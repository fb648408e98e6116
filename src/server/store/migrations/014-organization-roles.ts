// Released: tests/unit/store/migrations-frozen.test.ts holds its SQL's checksums. A change is a new migration.
import type { Migration } from "./migration.js";

export const migration: Migration = {
  id: 14,
  name: "organization roles",
  // GitHub's two roles of an organization: 'admin' (an owner: manages the organization's hooks, sees its settings,
  // administers its repositories) and 'member'. Every membership stored before this migration stays a member's.
  sqlite: `
      ALTER TABLE org_members ADD COLUMN role TEXT NOT NULL DEFAULT 'member' CHECK (role IN ('member', 'admin'));
    `,
  postgres: `
      ALTER TABLE org_members ADD COLUMN role text NOT NULL DEFAULT 'member' CHECK (role IN ('member', 'admin'));
    `,
};
