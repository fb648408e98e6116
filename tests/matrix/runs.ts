/**
 * The runs `npm test` makes (run-files.ts runs them): every test file on the default driver (SQLite; the store
 * contract suites on every driver), and the driver matrix: the HTTP suites (tests/server, its folders included) and
 * the CLI commands that work on the database directly while an app reads it (the administrators' commands; replay,
 * whose batches go through the driver's ingest transaction while feeds are read), again on PostgreSQL, through the
 * same tests, with FEEDGATE_TEST_STORE=postgres.
 */
import { skipUnlessPostgres } from "../helpers/services.js";
import type { Run } from "./run-files.js";
import { testFilesUnder } from "./run-files.js";

export const SQLITE: Run = { name: "sqlite", files: testFilesUnder("tests") };

export const POSTGRES: Run = {
  name: "postgres",
  files: [...testFilesUnder("tests/server"), "tests/cli/admin-cli.test.ts", "tests/cli/replay.test.ts"],
  env: { FEEDGATE_TEST_STORE: "postgres" },
  waits: true,
};

export const UNIT: Run = { name: "unit", files: [...testFilesUnder("tests/unit"), ...testFilesUnder("tests/api")] };

/**
 * The driver matrix's run, or none when PostgreSQL cannot be reached outside CI, saying so (under CI,
 * skipUnlessPostgres fails instead).
 */
export async function postgresUnlessSkipped(): Promise<Run[]> {
  const skip = await skipUnlessPostgres();
  if (!skip) return [POSTGRES];
  process.stdout.write(`# SKIP PostgreSQL driver matrix: ${skip}\n`);
  return [];
}
