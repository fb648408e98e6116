/** `feedgate seed <world.json>`: load a world file, idempotently and all or nothing, and say what it held and added. */
import type { Command } from "commander";
import { IngestService } from "../server/services/ingest.js";
import type { CliIo } from "./io.js";
import { dbOption, passwordCostOption, withStore } from "./options.js";
import { readWorldFile, seedReport } from "./world-file.js";

export function seedCommand(program: Command, io: CliIo): void {
  const seed = program.command("seed <world>").description("load a world file (users, orgs, repos, tokens, events)");
  passwordCostOption(dbOption(seed, io.env), io.env).action(async (file: string, options) => {
    const { doc, baseDir } = await readWorldFile(file);
    const result = await withStore(options, (store) =>
      new IngestService(store, () => new Date()).seedWorld(doc, { baseDir }),
    );
    io.stdout.write(seedReport(file, result));
  });
}
