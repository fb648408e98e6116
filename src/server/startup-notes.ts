/**
 * What starting the server did before its logger existed, said once it does: the database it opened (created, in
 * memory, migrated) and what `serve`'s own start-up work did (cli/serve-startup.ts).
 */
import { IN_MEMORY_DB } from "./config.js";
import { isPostgresUrl } from "./store/open-store.js";
import { shownDb } from "./store/open-failures.js";
import type { MigrationReport, StandbyReport } from "./store/store.js";

/** A log line about what happened before the app, whose logger writes these, was built. */
export interface StartupNote {
  level: "info" | "warn";
  msg: string;
  fields?: Record<string, unknown>;
}

/**
 * What opening `db` did that an operator may not expect: a SQLite path with a typo would otherwise start an empty
 * service on a new file without a word. Nothing when an existing database was opened as it was.
 */
export function databaseNote(db: string, opened: MigrationReport): StartupNote | undefined {
  if (db === IN_MEMORY_DB) {
    return {
      level: "info",
      msg: "the database is in memory: nothing is written to disk, and it is gone when the server stops",
    };
  }
  const where = shownDb(db);
  if (opened.created) {
    return isPostgresUrl(db)
      ? {
          level: "info",
          msg: `created feedgate's schema in the empty database at ${where}`,
          fields: { version: opened.version },
        }
      : { level: "info", msg: `created a new database at ${where}`, fields: { version: opened.version } };
  }
  if (opened.applied > 0) {
    return {
      level: "info",
      msg: `applied ${opened.applied} migrations to the database at ${where} (now at version ${opened.version})`,
    };
  }
  return undefined;
}

/** Milliseconds as an operator writes them: `15s`, `500ms`, `none` for 0. */
const shownMs = (ms: number) => (ms === 0 ? "none" : ms % 1000 === 0 ? `${ms / 1000}s` : `${ms}ms`);

/**
 * Behind a pooler (`--db-direct`; a standby's, postgres/standbys.ts), statements through it run under the pooler's
 * server connections' statement_timeout, which feedgate cannot set (store/postgres/direct.ts): said when it is not
 * `--db-statement-timeout`'s. `through` names the pooler.
 */
export function poolerNote(
  statementTimeoutMs: number,
  pooledMs: number | undefined,
  through = "the pooler (--db)",
): StartupNote | undefined {
  if (pooledMs === undefined || pooledMs === statementTimeoutMs) return undefined;
  return {
    level: "warn",
    msg:
      `statements through ${through} run with statement_timeout ${shownMs(pooledMs)}, not ` +
      `--db-statement-timeout's ${shownMs(statementTimeoutMs)}: a pooler in transaction mode takes it from its own ` +
      "configuration (PgBouncer: connect_query in the database's line; docs/scale-out.md#pgbouncer)",
    fields: { pooledMs, statementTimeoutMs },
  };
}

/** The notes of the standbys reached through a pooler (`--db-replica`), each named as /metrics names it. */
export function standbyPoolerNotes(statementTimeoutMs: number, standbys: readonly StandbyReport[]): StartupNote[] {
  return standbys.flatMap(
    (s) => poolerNote(statementTimeoutMs, s.pooledStatementTimeoutMs, `${s.name}'s pooler (--db-replica)`) ?? [],
  );
}
