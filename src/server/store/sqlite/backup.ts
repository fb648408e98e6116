/**
 * Backups of the SQLite file through SQLite's online backup API (better-sqlite3's `db.backup()`), and restores the same
 * way back. The API copies pages under SQLite's own locks, so a server may go on serving, and writing, from the file
 * meanwhile: a copy made with `cp` of a WAL database in use can miss the writes still in `-wal`, or catch a page half
 * written.
 *
 * Not shared: SQLite's online backup API copies a file; PostgreSQL's backups are pg_dump's.
 */
import { existsSync, linkSync, mkdirSync, renameSync, rmSync, statSync } from "node:fs";
import { dirname } from "node:path";
import Database from "better-sqlite3";
import { InvalidInputError } from "../../failures.js";
import { LATEST_SCHEMA_VERSION } from "../schema-version.js";
import { sqliteSchemaVersion } from "./sqlite-store.js";
import { SQLITE_BUSY_TIMEOUT_MS } from "./outage.js";

/**
 * Pages per step of the copy: all of them. A write by another process between two steps makes SQLite start the copy
 * again from the first page, so under a steady write load a copy in small steps may never end; one step reads one
 * snapshot (under WAL, without holding writers up) and always ends.
 */
const ALL_PAGES = 0x7fffffff;

/** A path the copy may be written to: nothing there, in a directory that exists. */
function refuseExisting(path: string, what: string): void {
  if (existsSync(path)) {
    const kind = statSync(path).isDirectory() ? "is a directory" : "exists";
    throw new InvalidInputError(`${path} ${kind}: name a new file for the ${what} (nothing was written)`);
  }
  if (!existsSync(dirname(path)))
    throw new InvalidInputError(`${dirname(path)} does not exist: create it, or name a file in a directory that does`);
}

/** Opens `path` only if it is a SQLite file with a feedgate schema; `role` names it in the refusal. */
function openFeedgateFile(path: string, role: string): { db: Database.Database; version: number } {
  if (!existsSync(path)) throw new InvalidInputError(`${role} ${path} does not exist`);
  if (statSync(path).isDirectory())
    throw new InvalidInputError(`${role} ${path} is a directory, not a feedgate database`);
  const refusal = () => new InvalidInputError(`${role} ${path} is not a feedgate database`);
  let db: Database.Database;
  try {
    db = new Database(path, { fileMustExist: true });
  } catch {
    throw refusal();
  }
  try {
    db.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`); // a server writing the file holds its lock for a moment at a time
    const version = sqliteSchemaVersion(db); // SQLITE_NOTADB is thrown here, at the first read
    if (version === null) throw refusal();
    return { db, version };
  } catch (error) {
    db.close();
    throw (error as { code?: string }).code === "SQLITE_NOTADB" ? refusal() : error;
  }
}

/** Copies `from` into the database file `to` in one step, under SQLite's locks on both. */
async function copy(from: Database.Database, to: string): Promise<void> {
  await from.backup(to, { progress: () => ALL_PAGES });
}

/** Puts the finished copy at `target` without replacing a file made there meanwhile. */
function publish(partial: string, target: string): void {
  try {
    linkSync(partial, target);
  } catch (error) {
    // A filesystem without hard links (FAT, some network mounts): a rename, after one more look.
    if (!["EPERM", "ENOTSUP", "EOPNOTSUPP"].includes((error as { code?: string }).code ?? "")) throw error;
    refuseExisting(target, "backup");
    renameSync(partial, target);
  }
}

export interface BackupResult {
  /** The schema version the backup is at. */
  version: number;
  bytes: number;
}

/**
 * Writes a backup of the feedgate database `source` to `target`, which must not exist. The copy is made beside
 * `target` and linked into place when complete (a link, unlike a rename, never replaces a file made meanwhile), so
 * `target` is never half a backup. The backup is one self-contained file (rollback journal, not WAL).
 */
export async function backupSqlite(source: string, target: string): Promise<BackupResult> {
  refuseExisting(target, "backup");
  const { db, version } = openFeedgateFile(source, "the database");
  const partial = `${target}.partial-${process.pid}`;
  try {
    await copy(db, partial);
    const copied = new Database(partial);
    copied.pragma("journal_mode = DELETE");
    copied.close();
    publish(partial, target);
  } catch (error) {
    if ((error as { code?: string }).code === "EEXIST") refuseExisting(target, "backup");
    throw error;
  } finally {
    db.close();
    rmSync(partial, { force: true });
  }
  return { version, bytes: statSync(target).size };
}

export interface RestoreResult {
  /** The schema version of the backup, which is now the database's (the next open migrates it to the latest). */
  version: number;
  /** True when a database was there and has been replaced. */
  replaced: boolean;
}

/**
 * Restores the backup `source` into the database file `target`: refused unless `source` is a feedgate database at a
 * schema version this code knows, and, when `target` holds a database already, unless `force`. The copy goes through
 * SQLite's locks on `target`, so a process that has it open sees the restored database, never half of it.
 */
export async function restoreSqlite(source: string, target: string, force: boolean): Promise<RestoreResult> {
  const { db, version } = openFeedgateFile(source, "the backup");
  try {
    if (version > LATEST_SCHEMA_VERSION) {
      throw new InvalidInputError(
        `the backup ${source} is at schema version ${version}, newer than this feedgate's ` +
          `(${LATEST_SCHEMA_VERSION}): restore it with a feedgate that knows version ${version} (nothing was written)`,
      );
    }
    const integrity = db.pragma("quick_check", { simple: true });
    if (integrity !== "ok")
      throw new InvalidInputError(`the backup ${source} is damaged (${String(integrity)}); nothing was written`);
    const replaced = existsSync(target);
    if (replaced && statSync(target).isDirectory())
      throw new InvalidInputError(`${target} is a directory, not a database file`);
    if (replaced && !force) {
      const live = existsSync(`${target}-wal`) ? " and may be in use (stop the server first)" : "";
      throw new InvalidInputError(
        `${target} exists${live}: restoring replaces everything in it; ` +
          "give --force to do so (nothing was written)",
      );
    }
    mkdirSync(dirname(target), { recursive: true });
    await copy(db, target);
    return { version, replaced };
  } finally {
    db.close();
  }
}
