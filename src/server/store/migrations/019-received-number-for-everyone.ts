// Released: tests/unit/store/migrations-frozen.test.ts holds its SQL's checksums. A change is a new migration.
import type { Migration } from "./migration.js";

export const migration: Migration = {
  id: 19,
  name: "a number for everyone's follows and watches",
  // `ingest_state.received`, raised with a user's number in `received_versions` by every change to follows and
  // watches: while it stands still, no user's number moved, so the server keeps the users' numbers it read
  // (store/remembering-store.ts) instead of reading one per request for a received feed (a second round trip to
  // PostgreSQL). A star by anyone makes it read them again; it still makes no received feed count again.
  sqlite: `
      ALTER TABLE ingest_state ADD COLUMN received INTEGER NOT NULL DEFAULT 0;
      ${sqliteReceivedTriggers("follows", "follower_id", "received")}
      ${sqliteReceivedTriggers("watches", "user_id", "received")}
    `,
  postgres: `
      ALTER TABLE ingest_state ADD COLUMN received bigint NOT NULL DEFAULT 0;
      ${postgresReceivedFunction("follows", "follower_id", "received")}
      ${postgresReceivedFunction("watches", "user_id", "received")}
    `,
};

// The helpers below are this migration's own: frozen with it, shared with no other migration.

/**
 * Migration 6's SQLite triggers raising the received-feed number of the user a follow or watch row belongs to, made
 * again (SQLite cannot alter a trigger) so that they also raise the `ingest_state` number `alsoRaise`.
 */
function sqliteReceivedTriggers(table: string, user: string, alsoRaise: string): string {
  const raise = (row: string) => `INSERT INTO received_versions (user_id, version) VALUES (${row}.${user}, 1)
      ON CONFLICT (user_id) DO UPDATE SET version = version + 1;`;
  const also = ` UPDATE ingest_state SET ${alsoRaise} = ${alsoRaise} + 1 WHERE id = 1;`;
  return [
    ["INSERT", ["NEW"]],
    ["UPDATE", ["OLD", "NEW"]],
    ["DELETE", ["OLD"]],
  ]
    .map(([kind, rows]) => {
      const name = `${table}_${(kind as string).toLowerCase()}_raises`;
      return `DROP TRIGGER ${name};
      CREATE TRIGGER ${name} AFTER ${kind} ON ${table}
      BEGIN ${(rows as string[]).map(raise).join(" ")}${also} END;`;
    })
    .join("\n");
}

/** Migration 6's PostgreSQL trigger function of a follow or watch table, replaced to also raise `alsoRaise`. */
function postgresReceivedFunction(table: string, user: string, alsoRaise: string): string {
  const raise = (row: string) => `INSERT INTO received_versions (user_id, version) VALUES (${row}.${user}, 1)
        ON CONFLICT (user_id) DO UPDATE SET version = received_versions.version + 1;`;
  const also = `
        UPDATE ingest_state SET ${alsoRaise} = ${alsoRaise} + 1 WHERE id = 1;`;
  return `CREATE OR REPLACE FUNCTION ${table}_raises() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP <> 'INSERT' THEN ${raise("OLD")} END IF;
        IF TG_OP <> 'DELETE' THEN ${raise("NEW")} END IF;${also}
        RETURN NULL;
      END $$;`;
}
