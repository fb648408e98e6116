// Released: tests/unit/store/migrations-frozen.test.ts holds its SQL's checksums. A change is a new migration.
import type { Migration } from "./migration.js";

export const migration: Migration = {
  id: 12,
  name: "a deleted session raises the credentials number",
  // Sign-out (or an expired session cleared) must end the session's open console streams on every instance: the
  // streams' hubs recheck their subscribers when `credentials` moves (server/streams/hub.ts).
  sqlite: `
      ${sqliteTriggers("sessions", ["DELETE"], "credentials")}
    `,
  postgres: `
      ${postgresTriggers("sessions", "DELETE", "credentials")}
    `,
};

// The helpers below are this migration's own: frozen with it, shared with no other migration.

/** SQLite triggers (one per statement kind, as SQLite allows) raising one `ingest_state` number. */
function sqliteTriggers(table: string, kinds: string[], version: string): string {
  return kinds
    .map(
      (kind) => `CREATE TRIGGER ${table}_${kind.toLowerCase()}_raises AFTER ${kind} ON ${table}
    BEGIN UPDATE ingest_state SET ${version} = ${version} + 1 WHERE id = 1; END;`,
    )
    .join("\n");
}

/** A PostgreSQL trigger function and trigger raising one `ingest_state` number for every row `events` change. */
function postgresTriggers(table: string, events: string, version: string): string {
  return `CREATE FUNCTION ${table}_raises() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN UPDATE ingest_state SET ${version} = ${version} + 1 WHERE id = 1; RETURN NULL; END $$;
    CREATE TRIGGER ${table}_raises AFTER ${events} ON ${table} FOR EACH ROW EXECUTE FUNCTION ${table}_raises();`;
}
