/**
 * Which SQLite errors mean "the database is unavailable right now" rather than a bug.
 *
 * Not shared: SQLite's result codes; the executor maps what this says (sqlite/executor.ts).
 */
import Database from "better-sqlite3";

/** How long a connection waits for another's lock before failing SQLITE_BUSY (a CLI next to a running server). */
export const SQLITE_BUSY_TIMEOUT_MS = 5000;

/** The file locked for longer than the busy timeout, or the disk failing, full or gone. */
const OUTAGE_CODES = /^SQLITE_(BUSY|LOCKED|IOERR|FULL|CANTOPEN|PROTOCOL)/;

export const isSqliteOutage = (error: unknown): boolean =>
  error instanceof Database.SqliteError && OUTAGE_CODES.test(error.code);
