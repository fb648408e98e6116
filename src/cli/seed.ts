/** `feedgate seed <world.json>`: load a world file, idempotently and all or nothing. */
import { readFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import type { Command } from "commander";
import { IngestService } from "../server/services/ingest.js";
import { InvalidInputError } from "../server/failures.js";
import type { CliIo } from "./io.js";
import { dbOption, passwordCostOption, withStore } from "./options.js";

export function seedCommand(program: Command, io: CliIo): void {
  const seed = program.command("seed <world>").description("load a world file (users, orgs, repos, tokens, events)");
  passwordCostOption(dbOption(seed, io.env), io.env)
    .action(async (file: string, options) => {
      let doc: unknown;
      try {
        doc = JSON.parse(await readFile(file, "utf8"));
      } catch (error) {
        throw new InvalidInputError(error instanceof SyntaxError ? "is not valid JSON" : (error as Error).message, { field: file });
      }
      const result = await withStore(options, (store) =>
        new IngestService(store, () => new Date()).seedWorld(doc, { baseDir: dirname(resolve(file)) }));
      io.stdout.write(`seeded ${file}: ${result.eventsAdded} events added (${result.eventsSkipped} already present), ` +
        `${result.issueEventsAdded} issue events added (${result.issueEventsSkipped} already present)\n`);
    });
}
