#!/usr/bin/env node
/** The `feedgate` command line on this process's arguments, streams and environment; commands are in program.ts. */
import { runCli } from "./program.js";

void runCli(process.argv.slice(2), process).then((status) => {
  process.exitCode = status;
});
