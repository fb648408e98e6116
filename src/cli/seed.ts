/** `feedgate seed <world.json>`: load a world file, idempotently and all or nothing, and say what it held and added. */
import { readFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import type { Command } from "commander";
import { IngestService, type SeedResult } from "../server/services/ingest.js";
import { InvalidInputError } from "../server/failures.js";
import type { CliIo } from "./io.js";
import { dbOption, passwordCostOption, withStore } from "./options.js";
import { count } from "./table.js";


/**
 * Two lines: what the file held, then what the database did not have yet. Accounts and repositories that only
 * events name are added too, so more may be added than the file lists.
 */
function report(file: string, r: SeedResult): string {
  const c = r.contents;
  return `seeded ${file}: ${count(c.users, "user")}, ${count(c.organizations, "organization")}, ` +
    `${count(c.repos, "repository", "repositories")}, ${count(c.tokens, "token")}, ${count(c.events, "event")}, ` +
    `${count(c.issueEvents, "issue event")}\n` +
    `added: ${count(r.usersAdded, "user")}, ${count(r.organizationsAdded, "organization")}, ` +
    `${count(r.reposAdded, "repository", "repositories")}, ${count(r.tokensAdded, "token")}, ` +
    `${count(r.eventsAdded, "event")} (${r.eventsSkipped} already present), ` +
    `${count(r.issueEventsAdded, "issue event")} (${r.issueEventsSkipped} already present)\n`;
}

/** Why a world file could not be read, said as the fix; `demo/world.json` is the example every clone has. */
function worldFileProblem(error: unknown): string {
  if (error instanceof SyntaxError) return "is not valid JSON";
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "ENOENT") return "does not exist; a world file is JSON such as demo/world.json";
  if (code === "EISDIR") return "is a directory; name the world file in it";
  return (error as Error).message;
}

export function seedCommand(program: Command, io: CliIo): void {
  const seed = program.command("seed <world>").description("load a world file (users, orgs, repos, tokens, events)");
  passwordCostOption(dbOption(seed, io.env), io.env)
    .action(async (file: string, options) => {
      let doc: unknown;
      try {
        doc = JSON.parse(await readFile(file, "utf8"));
      } catch (error) {
        throw new InvalidInputError(worldFileProblem(error), { field: file });
      }
      const result = await withStore(options, (store) =>
        new IngestService(store, () => new Date()).seedWorld(doc, { baseDir: dirname(resolve(file)) }));
      io.stdout.write(report(file, result));
    });
}
