#!/usr/bin/env node
/** The `feedgate` command line on this process's arguments, streams and environment; commands are in program.ts. */
import { runCli } from "./program.js";

// A reader that stops early (`feedgate events get --all | head`) closes the pipe: that ends the command quietly,
// as it does `cat` and `grep`, instead of with an unhandled EPIPE and a stack.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code !== "EPIPE") throw error;
  process.exit(0);
});

void runCli(process.argv.slice(2), process).then((status) => {
  process.exitCode = status;
});
