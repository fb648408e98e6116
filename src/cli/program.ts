/** The `feedgate` command line: one file per command, wired here; main.ts runs it on the process. */
import { Command, CommanderError } from "commander";
import type { CliIo } from "./io.js";
import { reportFailure, wantsDetails } from "./failure-report.js";
import { packageVersion } from "./version.js";
import { serveCommand } from "./serve.js";
import { migrateCommand } from "./migrate.js";
import { userCommand } from "./user.js";
import { tokenCommand } from "./token.js";
import { seedCommand } from "./seed.js";
import { importCommand } from "./import.js";
import { replayCommand } from "./replay.js";
import { authCommand } from "./auth.js";
import { eventsCommand } from "./events.js";
import { hooksCommand } from "./hooks.js";
import { keysCommand } from "./keys.js";
import { orgCommand } from "./org.js";
import { oauthAppCommand } from "./oauth-app.js";
import { appCommand } from "./app.js";
import { backupCommand } from "./backup.js";
import { restoreCommand } from "./restore.js";

export function buildProgram(io: CliIo): Command {
  const program = new Command("feedgate")
    .description("GitHub-style access authorizations and activity event feeds")
    .version(packageVersion(), "-V, --version", "print feedgate's version")
    .option("--verbose", "on failure, print the stack trace too (as does DEBUG=1)")
    .showHelpAfterError()
    // Set before the commands are added, which inherit both: commander's own messages (usage errors, help) go
    // to `io`, and it throws instead of ending the process, so that runCli returns the status.
    .configureOutput({ writeOut: (text) => io.stdout.write(text), writeErr: (text) => io.stderr.write(text) })
    .exitOverride();
  serveCommand(program, io);
  migrateCommand(program, io);
  backupCommand(program, io);
  restoreCommand(program, io);
  userCommand(program, io);
  tokenCommand(program, io);
  seedCommand(program, io);
  importCommand(program, io);
  replayCommand(program, io);
  authCommand(program, io);
  eventsCommand(program, io);
  hooksCommand(program, io);
  keysCommand(program, io);
  orgCommand(program, io);
  oauthAppCommand(program, io);
  appCommand(program, io);
  return program;
}

/**
 * Runs `feedgate <args>` and resolves with its exit status once the command's action has returned (`serve` and
 * `events --follow` go on running after that, until a signal).
 */
export async function runCli(args: string[], io: CliIo): Promise<number> {
  const program = buildProgram(io);
  try {
    await program.parseAsync(args, { from: "user" });
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode; // commander has said why, or shown the help asked for
    reportFailure(error, io, wantsDetails(program.opts().verbose, io.env));
    return 1;
  }
}
