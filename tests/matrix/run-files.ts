/**
 * How both runs of `npm test` run their files (sqlite.ts, postgres.ts): Node's test runner, four files at a time, and
 * in which order. Four, because each file has its own database, and Node's default of one file per spare core (one,
 * on two cores) leaves the time a file spends waiting on timers, sockets, child processes and PostgreSQL unused.
 * Files start in the order given, so a file that spends most of its time waiting, started last, is the run's tail
 * while the cores sit idle: those named here start first, the rest in path order. The waits are in the files' own
 * comments: SQLite's ten seconds of SQLITE_PROTOCOL retries per read of a locked file, the examples of each test
 * framework, the packed tarball's npm, the servers spawned and stopped, a PostgreSQL database per case.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";

const WAIT_LONGEST = [
  "tests/server/stale-if-error.test.ts",
  // On PostgreSQL: a database created (0.3 s) and migrated (0.2 s) for each of its ~50 cases, one after another.
  "tests/server/recorded-feeds.test.ts",
  "tests/examples/testing-frameworks.test.ts",
  "tests/server/hostile-input.test.ts",
  "tests/cli/serve-scripted.test.ts",
  "tests/client/packed.test.ts",
  "tests/console/tokens.browser.test.ts",
];
const gone = WAIT_LONGEST.filter((file) => !existsSync(file));
if (gone.length > 0) throw new Error(`tests/matrix/run-files.ts names test files that are not there: ${gone.join(", ")}`);

/** Every `*.test.ts` file under `dir` (a path from the repository's root), its subfolders included. */
export function testFilesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((file) => file.endsWith(".test.ts"))
    .map((file) => join(dir, file));
}

/** `files` in path order, those that wait longest first. */
function inRunOrder(files: string[]): string[] {
  const rank = (file: string) => {
    const at = WAIT_LONGEST.indexOf(file);
    return at === -1 ? WAIT_LONGEST.length : at;
  };
  return [...files].sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
}

/** Runs `files` with `env` added to this process's environment, to their end; returns the runner's exit status. */
export function runTestFiles(files: string[], env: NodeJS.ProcessEnv = {}): number {
  const run = spawnSync(process.execPath, ["--import", "tsx", "--test", "--test-concurrency=4", ...inRunOrder(files)], {
    stdio: "inherit", env: { ...process.env, ...env },
  });
  return run.status ?? 1;
}
