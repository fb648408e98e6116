// Released: tests/unit/store/migrations-frozen.test.ts holds its SQL's checksums. A change is a new migration.
import type { Migration } from "./migration.js";

export const migration: Migration = {
  id: 4,
  name: "event bodies compressed with lz4",
  // PostgreSQL compresses bodies over 2 KB (most GH Archive events) with pglz unless told otherwise; lz4 is
  // several times faster to compress and to read back. Servers built without lz4 keep pglz. SQLite has no
  // column compression: nothing to do there.
  sqlite: "",
  postgres: `
      DO $$
      BEGIN
        ALTER TABLE events ALTER COLUMN body SET COMPRESSION lz4;
        ALTER TABLE issue_events ALTER COLUMN body SET COMPRESSION lz4;
      EXCEPTION WHEN feature_not_supported THEN
        RAISE NOTICE 'this PostgreSQL has no lz4: event bodies stay compressed with pglz';
      END
      $$;
    `,
};
