/** `feedgate migrate`: apply pending schema migrations, say what was done, and exit. */
import type { Command } from "commander";
import type { MigrationReport } from "../server/store/store.js";
import { shownDb } from "../server/store/open-failures.js";
import type { CliIo } from "./io.js";
import { storeOptions, dbPath, withStore } from "./options.js";
import { count } from "./table.js";

export function describeMigration(report: MigrationReport): string {
  if (report.created) return `created the schema (${count(report.applied, "migration")})`;
  if (report.applied > 0) return `applied ${count(report.applied, "migration")} (now at version ${report.version})`;
  return `already up to date (version ${report.version})`;
}

export function migrateCommand(program: Command, io: CliIo): void {
  storeOptions(
    program.command("migrate").description("apply pending database migrations and say what was done"),
    io.env,
  ).action(async (options) => {
    // Opening the store is what migrates (as for serve); what it applied is kept, and migrate() then finds nothing
    // left, unless another process added a migration in between, which is counted too.
    const report = await withStore(options, async (store) => {
      const opened = store.migratedAtOpen;
      const now = await store.migrate();
      return { applied: opened.applied + now.applied, version: now.version, created: opened.created };
    });
    io.stdout.write(`${shownDb(dbPath(options))}: ${describeMigration(report)}\n`);
  });
}
