// Released: tests/unit/store/migrations-frozen.test.ts holds its SQL's checksums. A change is a new migration.
import type { Migration } from "./migration.js";

export const migration: Migration = {
  id: 6,
  name: "versions of what requests remember",
  // Numbers beside the ingest generation, raised by triggers in the transaction of every write, so no write path
  // (a command in another process, an operator's SQL) can forget them; each names what it covers, so that a
  // change to one kind of thing makes the server forget only what depends on it (store/remembering-store.ts,
  // services/feed-totals.ts): `credentials` (tokens and accounts), `repos` (repositories: privacy, parents,
  // networks) and `access` (collaborators and organization members). Follows and watches raise a number per user,
  // in `received_versions`: each GitHub star is a watch, and one user's must not make every received feed count
  // again. Inserting an account or a repository raises nothing: imports create them all the time, and the server
  // remembers only what it found.
  sqlite: `
      ALTER TABLE ingest_state ADD COLUMN credentials INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE ingest_state ADD COLUMN repos INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE ingest_state ADD COLUMN access INTEGER NOT NULL DEFAULT 0;
      CREATE TABLE received_versions (user_id INTEGER PRIMARY KEY, version INTEGER NOT NULL);
      ${sqliteTriggers("authorizations", ["INSERT", "UPDATE", "DELETE"], "credentials")}
      ${sqliteTriggers("users", ["UPDATE", "DELETE"], "credentials")}
      ${sqliteTriggers("repos", ["DELETE"], "repos")}
      -- A repository is inserted with network 0 and given its own id as network at once: that is its creation.
      CREATE TRIGGER repos_update_raises AFTER UPDATE ON repos WHEN OLD.network_id <> 0
        BEGIN UPDATE ingest_state SET repos = repos + 1 WHERE id = 1; END;
      ${sqliteTriggers("collaborators", ["INSERT", "UPDATE", "DELETE"], "access")}
      ${sqliteTriggers("org_members", ["INSERT", "UPDATE", "DELETE"], "access")}
      ${sqliteReceivedTriggers("follows", "follower_id")}
      ${sqliteReceivedTriggers("watches", "user_id")}
    `,
  postgres: `
      ALTER TABLE ingest_state ADD COLUMN credentials bigint NOT NULL DEFAULT 0;
      ALTER TABLE ingest_state ADD COLUMN repos bigint NOT NULL DEFAULT 0;
      ALTER TABLE ingest_state ADD COLUMN access bigint NOT NULL DEFAULT 0;
      CREATE TABLE received_versions (user_id bigint PRIMARY KEY, version bigint NOT NULL);
      -- Per row, not per statement: a statement that changes nothing (ON CONFLICT DO NOTHING, an UPDATE whose WHERE
      -- matches no row) must not make every instance forget what it knows.
      ${postgresTriggers("authorizations", "INSERT OR UPDATE OR DELETE", "credentials")}
      ${postgresTriggers("users", "UPDATE OR DELETE", "credentials")}
      ${postgresTriggers("repos", "UPDATE OR DELETE", "repos")}
      ${postgresTriggers("collaborators", "INSERT OR UPDATE OR DELETE", "access")}
      ${postgresTriggers("org_members", "INSERT OR UPDATE OR DELETE", "access")}
      ${postgresReceivedTriggers("follows", "follower_id")}
      ${postgresReceivedTriggers("watches", "user_id")}
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

/** SQLite triggers raising the received-feed number of the user a follow or watch row belongs to. */
function sqliteReceivedTriggers(table: string, user: string): string {
  const raise = (row: string) => `INSERT INTO received_versions (user_id, version) VALUES (${row}.${user}, 1)
      ON CONFLICT (user_id) DO UPDATE SET version = version + 1;`;
  return [
    ["INSERT", ["NEW"]],
    ["UPDATE", ["OLD", "NEW"]],
    ["DELETE", ["OLD"]],
  ]
    .map(([kind, rows]) => {
      const name = `${table}_${(kind as string).toLowerCase()}_raises`;
      return `CREATE TRIGGER ${name} AFTER ${kind} ON ${table}
      BEGIN ${(rows as string[]).map(raise).join(" ")} END;`;
    })
    .join("\n");
}

/** A PostgreSQL trigger function and trigger raising one `ingest_state` number for every row `events` change. */
function postgresTriggers(table: string, events: string, version: string): string {
  return `CREATE FUNCTION ${table}_raises() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN UPDATE ingest_state SET ${version} = ${version} + 1 WHERE id = 1; RETURN NULL; END $$;
    CREATE TRIGGER ${table}_raises AFTER ${events} ON ${table} FOR EACH ROW EXECUTE FUNCTION ${table}_raises();`;
}

/** sqliteReceivedTriggers in PostgreSQL: one function per table, for the rows an INSERT, UPDATE or DELETE names. */
function postgresReceivedTriggers(table: string, user: string): string {
  const raise = (row: string) => `INSERT INTO received_versions (user_id, version) VALUES (${row}.${user}, 1)
        ON CONFLICT (user_id) DO UPDATE SET version = received_versions.version + 1;`;
  return `CREATE FUNCTION ${table}_raises() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP <> 'INSERT' THEN ${raise("OLD")} END IF;
        IF TG_OP <> 'DELETE' THEN ${raise("NEW")} END IF;
        RETURN NULL;
      END $$;
    CREATE TRIGGER ${table}_raises AFTER INSERT OR UPDATE OR DELETE ON ${table} FOR EACH ROW EXECUTE FUNCTION ${table}_raises();`;
}
