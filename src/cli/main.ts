#!/usr/bin/env node
/** The `feedgate` command line: one file per command, wired here. */
import { Command } from "commander";
import { FeedgateFailure } from "../server/failures.js";
import { serveCommand } from "./serve.js";
import { migrateCommand } from "./migrate.js";
import { userCommand } from "./user.js";
import { tokenCommand } from "./token.js";
import { seedCommand } from "./seed.js";
import { importCommand } from "./import.js";
import { authCommand } from "./auth.js";
import { eventsCommand } from "./events.js";

const program = new Command("feedgate")
  .description("GitHub-style access authorizations and activity event feeds")
  .showHelpAfterError();

serveCommand(program);
migrateCommand(program);
userCommand(program);
tokenCommand(program);
seedCommand(program);
importCommand(program);
authCommand(program);
eventsCommand(program);

program.parseAsync().catch((error: unknown) => {
  // Mistakes of the operator get one clear line; anything else is a bug and keeps its stack.
  if (error instanceof FeedgateFailure) {
    process.stderr.write(`feedgate: ${error.message}\n`);
  } else {
    process.stderr.write(`feedgate: ${error instanceof Error ? error.stack : String(error)}\n`);
  }
  process.exitCode = 1;
});
