/**
 * The driver matrix: runs the HTTP suites (tests/server, its folders included) and the CLI commands that work on the
 * database directly while an app reads it (the administrators' commands; replay, whose batches go through the
 * driver's ingest transaction while feeds are read), again on PostgreSQL, through the same tests, with
 * FEEDGATE_TEST_STORE=postgres. Outside CI an unreachable server skips the run, saying so; under CI it fails.
 */
import { spawnSync } from "node:child_process";
import { skipUnlessPostgres } from "../helpers/services.js";
import { inRunOrder, testFilesUnder } from "./run-order.js";

const skip = await skipUnlessPostgres();
if (skip) {
  process.stdout.write(`# SKIP PostgreSQL driver matrix: ${skip}\n`);
  process.exit(0);
}

const files = inRunOrder([...testFilesUnder("tests/server"), "tests/cli/admin-cli.test.ts", "tests/cli/replay.test.ts"]);
// Four files at a time, as `npm run test:sqlite` runs them: each has its own database, and Node's default of one
// file per spare core (one, on two cores) leaves the time a file spends waiting on timers, sockets and PostgreSQL unused.
const run = spawnSync(process.execPath, ["--import", "tsx", "--test", "--test-concurrency=4", ...files], {
  stdio: "inherit",
  env: { ...process.env, FEEDGATE_TEST_STORE: "postgres" },
});
process.exit(run.status ?? 1);
