/**
 * `feedgate restore FILE`: puts a backup made by `feedgate backup` back as the SQLite database. A database that is
 * there already is replaced only with --force; a file that is not a feedgate database, or one a newer feedgate wrote,
 * is refused. On PostgreSQL it says which pg_restore command to run instead.
 */
import type { Command } from "commander";
import { restoreSqlite } from "../server/store/sqlite/backup.js";
import { LATEST_SCHEMA_VERSION } from "../server/store/schema-version.js";
import type { CliIo } from "./io.js";
import { dbOption, dbPath } from "./options.js";
import { sqliteFile } from "./backup-target.js";

export function restoreCommand(program: Command, io: CliIo): void {
  const restore = program
    .command("restore <file>")
    .description(
      "replace the SQLite database with a backup made by `feedgate backup` (PostgreSQL: prints the pg_restore to run)",
    )
    .option("--force", "replace a database that exists (stop the server that uses it first)");
  dbOption(restore, io.env).action(async (file: string, options: { db?: string; force?: boolean }) => {
    const db = sqliteFile(dbPath(options), "restore", file);
    const { version, replaced } = await restoreSqlite(file, db, options.force === true);
    // An older backup is migrated by the next start (or `feedgate migrate`), as any older database is.
    const later =
      version < LATEST_SCHEMA_VERSION
        ? `; the next start or \`feedgate migrate\` migrates it to version ${LATEST_SCHEMA_VERSION}`
        : "";
    // A server that had the file open reads the restored rows but keeps what it remembered of the old ones (cached
    // pages, counts, stream positions): only a restart makes it forget.
    const restart = replaced ? "; restart any feedgate serving it" : "";
    io.stdout.write(
      `restored ${file} to ${db}${replaced ? " (replacing what was there)" : ""}: schema version ${version}${later}${restart}\n`,
    );
  });
}
