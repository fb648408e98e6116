/**
 * What starting the server did before its logger existed, said once it does: the database it opened (created, in
 * memory, migrated) and what `serve`'s own start-up work did (cli/serve-startup.ts).
 */
import { IN_MEMORY_DB } from "./config.js";
import { isPostgresUrl } from "./store/open-store.js";
import { shownDb } from "./store/open-failures.js";
import type { MigrationReport } from "./store/store.js";

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
