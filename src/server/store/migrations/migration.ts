/**
 * A schema migration: applied once, in order of id, each in its own transaction, and recorded in `schema_migrations`.
 * It has the SQL of every driver side by side, so that they stay in step ("" where a driver has nothing to do).
 *
 * A released migration never changes: an installation that applied it keeps what it made, so an edit would make fresh
 * installations differ from upgraded ones. Each lives in its own file, `NNN-what.ts`, with every helper its SQL is made
 * with copied into it, so that no edit elsewhere can rewrite it; tests/unit/store/migrations-frozen.test.ts holds the
 * checksum of each one's SQL per driver. A change to the schema is a new migration.
 */
export interface Migration {
  id: number;
  name: string;
  sqlite: string;
  postgres: string;
}
