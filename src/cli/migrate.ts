/** `feedgate migrate`: apply pending schema migrations and exit. */
import type { Command } from "commander";
import { dbOption, dbPath, withStore } from "./options.js";

export function migrateCommand(program: Command): void {
  dbOption(program.command("migrate").description("apply pending database migrations"))
    .action(async (options) => {
      await withStore(options, (store) => store.migrate());
      process.stdout.write(`database ${dbPath(options)} is up to date\n`);
    });
}
