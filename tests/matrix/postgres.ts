/**
 * The driver matrix: runs the HTTP suites (tests/server, its folders included) and the CLI commands that work on the
 * database directly while an app reads it (the administrators' commands; replay, whose batches go through the
 * driver's ingest transaction while feeds are read), again on PostgreSQL, through the same tests, with
 * FEEDGATE_TEST_STORE=postgres, as run-files.ts runs them. Outside CI an unreachable server skips the run, saying
 * so; under CI it fails.
 */
import { skipUnlessPostgres } from "../helpers/services.js";
import { runTestFiles, testFilesUnder } from "./run-files.js";

const skip = await skipUnlessPostgres();
if (skip) {
  process.stdout.write(`# SKIP PostgreSQL driver matrix: ${skip}\n`);
  process.exit(0);
}

process.exit(
  runTestFiles([...testFilesUnder("tests/server"), "tests/cli/admin-cli.test.ts", "tests/cli/replay.test.ts"], {
    FEEDGATE_TEST_STORE: "postgres",
  }),
);
