// Released: tests/unit/store/migrations-frozen.test.ts holds its SQL's checksums. A change is a new migration.
import type { Migration } from "./migration.js";

export const migration: Migration = {
  id: 3,
  name: "ingest generation",
  // A number every ingest raises in its own transaction. Feed pages cached under it stay right on every
  // instance: a new generation is read from the database on each request, so no instance serves a stale page.
  sqlite: `
      CREATE TABLE ingest_state (id INTEGER PRIMARY KEY CHECK (id = 1), generation INTEGER NOT NULL);
      INSERT INTO ingest_state (id, generation) VALUES (1, 0);
    `,
  postgres: `
      CREATE TABLE ingest_state (id integer PRIMARY KEY CHECK (id = 1), generation bigint NOT NULL);
      INSERT INTO ingest_state (id, generation) VALUES (1, 0);
    `,
};
