/**
 * What `feedgate backup` and `feedgate restore` can act on: a SQLite file. A PostgreSQL database is backed up and
 * restored with PostgreSQL's own tools, which these commands name with the URL (without its password: pg_dump reads
 * that from PGPASSWORD or ~/.pgpass) instead of doing anything.
 */
import { IN_MEMORY_DB } from "../server/config.js";
import { InvalidInputError } from "../server/failures.js";
import { isPostgresUrl } from "../server/store/open-store.js";
import { withoutPassword } from "../server/store/open-failures.js";

/** Single quotes for a POSIX shell, so the command shown can be pasted as it is. */
const quoted = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;

export const pgDumpCommand = (url: string, file: string) =>
  `pg_dump --format=custom --file=${quoted(file)} ${quoted(withoutPassword(url))}`;

export const pgRestoreCommand = (url: string, file: string) =>
  `pg_restore --clean --if-exists --no-owner --dbname=${quoted(withoutPassword(url))} ${quoted(file)}`;

/** `db` when it is a SQLite file; otherwise the one line saying what to do instead. */
export function sqliteFile(db: string, command: "backup" | "restore", file: string): string {
  if (isPostgresUrl(db)) {
    const tool = command === "backup" ? pgDumpCommand(db, file) : pgRestoreCommand(db, file);
    throw new InvalidInputError(
      `feedgate ${command} works on SQLite files; for PostgreSQL run ${tool} (nothing was written)`,
    );
  }
  if (db === IN_MEMORY_DB)
    throw new InvalidInputError(
      `an in-memory database (--db ${IN_MEMORY_DB}) lives in one process only: nothing to ${command}`,
    );
  return db;
}
