/**
 * The driver matrix: runs the HTTP suites (tests/server) again on PostgreSQL, through the same tests, with
 * FEEDGATE_TEST_STORE=postgres. Outside CI an unreachable server skips the run, saying so; under CI it fails.
 */
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { skipUnlessPostgres } from "../helpers/services.js";

const skip = await skipUnlessPostgres();
if (skip) {
  process.stdout.write(`# SKIP PostgreSQL driver matrix: ${skip}\n`);
  process.exit(0);
}

const files = readdirSync("tests/server").filter((f) => f.endsWith(".test.ts")).sort().map((f) => `tests/server/${f}`);
const run = spawnSync(process.execPath, ["--import", "tsx", "--test", ...files], {
  stdio: "inherit",
  env: { ...process.env, FEEDGATE_TEST_STORE: "postgres" },
});
process.exit(run.status ?? 1);
