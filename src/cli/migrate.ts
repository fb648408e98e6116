/** `feedgate migrate`: apply pending schema migrations and exit. */
import type { Command } from "commander";
import type { CliIo } from "./io.js";
import { dbOption, dbPath, withStore } from "./options.js";

export function migrateCommand(program: Command, io: CliIo): void {
  dbOption(program.command("migrate").description("apply pending database migrations"), io.env)
    .action(async (options) => {
      await withStore(options, (store) => store.migrate());
      io.stdout.write(`database ${dbPath(options)} is up to date\n`);
    });
}
