/**
 * Every test file, on the default driver (SQLite; the store contract suites on every driver), four files at a time,
 * those that wait longest first (run-order.ts). `npm run test:sqlite`.
 */
import { spawnSync } from "node:child_process";
import { inRunOrder, testFilesUnder } from "./run-order.js";

// Four at a time: each file has its own database, and Node's default of one file per spare core (one, on two cores)
// leaves the time a file spends waiting on timers, sockets and child processes unused.
const run = spawnSync(process.execPath, ["--import", "tsx", "--test", "--test-concurrency=4", ...inRunOrder(testFilesUnder("tests"))], {
  stdio: "inherit",
});
process.exit(run.status ?? 1);
