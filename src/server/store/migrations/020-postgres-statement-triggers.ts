// Released: tests/unit/store/migrations-frozen.test.ts holds its SQL's checksums. A change is a new migration.
import type { Migration } from "./migration.js";

export const migration: Migration = {
  id: 20,
  name: "PostgreSQL raises its numbers once a statement",
  // A trigger for each row changed raises `ingest_state` once per row: a batch that stores hundreds of stars updates
  // that one row as many times in one transaction, each update a new version of it (and a notification folded at
  // commit). Statement triggers read the rows a statement changed (its transition tables) and raise each number once,
  // and, as the row triggers, not at all when it changed none. SQLite updates a row in place, and its triggers stay
  // as they are. docs/benchmarks.md has what it saves.
  sqlite: "",
  postgres: `
      ${postgresStatementTriggers("authorizations", ["INSERT", "UPDATE", "DELETE"], "credentials")}
      ${postgresStatementTriggers("users", ["UPDATE", "DELETE"], "credentials")}
      ${postgresStatementTriggers("sessions", ["DELETE"], "credentials")}
      ${postgresStatementTriggers("repos", ["UPDATE", "DELETE"], "repos")}
      ${postgresStatementTriggers("collaborators", ["INSERT", "UPDATE", "DELETE"], "access")}
      ${postgresStatementTriggers("org_members", ["INSERT", "UPDATE", "DELETE"], "access")}
      ${postgresReceivedStatementTriggers("follows", "follower_id")}
      ${postgresReceivedStatementTriggers("watches", "user_id")}
    `,
};

// The helpers below are this migration's own: frozen with it, shared with no other migration.

type TriggerEvent = "INSERT" | "UPDATE" | "DELETE";

/**
 * `table`'s row trigger `<table>_raises` replaced by a statement trigger for each of `kinds`, all running the function
 * `<table>_raises()` (replaced by `body`), which reads the rows changed in the transition tables `old_rows` (an
 * UPDATE's or a DELETE's) and `new_rows` (an INSERT's or an UPDATE's). PostgreSQL allows transition tables only on a
 * trigger of one kind, hence one trigger per kind.
 */
function postgresStatementTrigger(table: string, kinds: TriggerEvent[], body: string): string {
  const transitions = {
    INSERT: "NEW TABLE AS new_rows",
    UPDATE: "OLD TABLE AS old_rows NEW TABLE AS new_rows",
    DELETE: "OLD TABLE AS old_rows",
  };
  return `CREATE OR REPLACE FUNCTION ${table}_raises() RETURNS trigger LANGUAGE plpgsql AS $$
      ${body}
      $$;
      DROP TRIGGER ${table}_raises ON ${table};
      ${kinds
        .map(
          (kind) => `CREATE TRIGGER ${table}_${kind.toLowerCase()}_raises AFTER ${kind} ON ${table}
        REFERENCING ${transitions[kind]} FOR EACH STATEMENT EXECUTE FUNCTION ${table}_raises();`,
        )
        .join("\n      ")}`;
}

/**
 * The `ingest_state` number `version` that migration 6's or 12's row trigger raised, raised once by a statement that
 * changed rows of `table`.
 */
function postgresStatementTriggers(table: string, kinds: TriggerEvent[], version: string): string {
  return postgresStatementTrigger(
    table,
    kinds,
    `BEGIN
        IF TG_OP = 'DELETE' THEN
          IF EXISTS (SELECT 1 FROM old_rows) THEN UPDATE ingest_state SET ${version} = ${version} + 1 WHERE id = 1; END IF;
        ELSIF EXISTS (SELECT 1 FROM new_rows) THEN
          UPDATE ingest_state SET ${version} = ${version} + 1 WHERE id = 1;
        END IF;
        RETURN NULL;
      END`,
  );
}

/**
 * Migration 6's received-feed numbers raised once a statement: each user whose follows or watches it changed (`user`,
 * before and after), then `ingest_state.received` (migration 19), when it changed any.
 */
function postgresReceivedStatementTriggers(table: string, user: string): string {
  const raise = (
    rows: string,
  ) => `INSERT INTO received_versions (user_id, version) SELECT DISTINCT ${user}, 1 FROM ${rows}
            ON CONFLICT (user_id) DO UPDATE SET version = received_versions.version + 1;
          GET DIAGNOSTICS counted = ROW_COUNT;
          raised := raised + counted;`;
  return postgresStatementTrigger(
    table,
    ["INSERT", "UPDATE", "DELETE"],
    `DECLARE
        raised bigint := 0;
        counted bigint;
      BEGIN
        IF TG_OP <> 'INSERT' THEN
          ${raise("old_rows")}
        END IF;
        IF TG_OP <> 'DELETE' THEN
          ${raise("new_rows")}
        END IF;
        IF raised > 0 THEN UPDATE ingest_state SET received = received + 1 WHERE id = 1; END IF;
        RETURN NULL;
      END`,
  );
}
