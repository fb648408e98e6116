/**
 * `feedgate backup FILE`: a consistent copy of the SQLite database, made while a server goes on serving and writing
 * from it (store/sqlite/backup.ts). On PostgreSQL it says which pg_dump command to run instead.
 */
import type { Command } from "commander";
import { backupSqlite } from "../server/store/sqlite/backup.js";
import type { CliIo } from "./io.js";
import { dbOption, dbPath } from "./options.js";
import { megabytes } from "./import-progress.js";
import { sqliteFile } from "./backup-target.js";

export function backupCommand(program: Command, io: CliIo): void {
  const backup = program
    .command("backup <file>")
    .description(
      "copy the SQLite database to FILE, a new file, while it serves (PostgreSQL: prints the pg_dump to run)",
    );
  dbOption(backup, io.env).action(async (file: string, options) => {
    const db = sqliteFile(dbPath(options), "backup", file);
    const { version, bytes } = await backupSqlite(db, file);
    io.stdout.write(`backed up ${db} to ${file} (schema version ${version}, ${megabytes(bytes)})\n`);
  });
}
