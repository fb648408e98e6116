/**
 * How both runs of `npm test` run their files (sqlite.ts, postgres.ts): Node's test runner, four processes at a time,
 * most of them holding several files, in an order. Four, because each file has its own database, and Node's default of
 * one process per spare core (one, on two cores) leaves the time a file spends waiting on timers, sockets, child
 * processes and PostgreSQL unused. Six were tried: the machine was then so loaded that a spawned `feedgate` took over
 * 15 s to fail its start. The run's tail is a process that started late and waits long while the cores sit idle, so
 * those that wait longest start first: the files named in RUN_ALONE, then the folders whose files wait on processes
 * they spawn. The waits are in the files' own comments: SQLite's ten seconds of SQLITE_PROTOCOL retries per read of a
 * locked file, the examples of each test framework, the packed tarball's npm, the servers spawned and stopped, a
 * PostgreSQL database per case.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

/** Files that run in a process of their own, started first, in this order. */
const RUN_ALONE = [
  "tests/server/stale-if-error.test.ts",
  // On PostgreSQL: a database created (0.3 s) and migrated (0.2 s) for each of its ~50 cases, one after another.
  "tests/server/recorded-feeds.test.ts",
  "tests/examples/testing-frameworks.test.ts",
  "tests/server/hostile-input.test.ts",
  "tests/cli/serve-scripted.test.ts",
  "tests/client/packed.test.ts",
  "tests/console/tokens.browser.test.ts",
  // It checks the password cost a fresh process starts with, before anything sets it.
  "tests/server/services/credentials.test.ts",
];
const gone = RUN_ALONE.filter((file) => !existsSync(file));
if (gone.length > 0)
  throw new Error(`tests/matrix/run-files.ts names test files that are not there: ${gone.join(", ")}`);

/** Every `*.test.ts` file under `dir` (a path from the repository's root), its subfolders included. */
export function testFilesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".test.ts"))
    .map((file) => join(dir, file));
}

/**
 * Files that share a process, imported one after another, so that their tests are the process's tests in the order
 * of the files. A process's start is most of a short file's CPU: tsx's hooks answer every module load from their own
 * thread, and loading feedgate's server through them costs ~1.8 s of CPU (0.8 s compiled), paid here once per
 * process rather than once per file. The folders whose files mostly wait (on the processes they spawn: feedgate, the
 * GitHub clients, curl, a browser; on servers they stop and start) share four to a process and start first, so that
 * their waits overlap with the work of other processes; the rest share eight to a process.
 */
const WAITING_FOLDERS = [
  "tests/cli/",
  "tests/compat/",
  "tests/console/",
  "tests/examples/",
  "tests/readme/",
  "tests/scale/",
];
const FILES_PER_PROCESS = { waiting: 4, working: 8 };

/**
 * In a shared process a hook at a file's top level would be the process's: a beforeEach or afterEach would run around
 * the tests of the files after it. (A top-level before or after runs once, as it would alone.)
 */
function refuseSharedHooks(file: string): void {
  const hook = /^(beforeEach|afterEach)\(/m.exec(readFileSync(file, "utf8"));
  if (hook)
    throw new Error(`${file}: ${hook[1]} at the top level would run around other files' tests; put it in a describe`);
}

/** `files` in path order, `size` to a group. */
function groupsOf(files: string[], size: number): string[][] {
  const groups: string[][] = [];
  for (let start = 0; start < files.length; start += size) groups.push(files.slice(start, start + size));
  return groups;
}

/**
 * The runner's entries for `files`, written in `dir`, in the order they start: one for each file of RUN_ALONE, then
 * the files of WAITING_FOLDERS and then the rest, as FILES_PER_PROCESS says. Node's runner starts its files in the
 * order of their names, so the entries are numbered.
 */
function entriesInRunOrder(files: string[], dir: string): string[] {
  const alone = RUN_ALONE.filter((file) => files.includes(file));
  const shared = files.filter((file) => !alone.includes(file)).sort();
  shared.forEach(refuseSharedHooks);
  const waits = (file: string) => WAITING_FOLDERS.some((folder) => file.startsWith(folder));
  const processes = [
    ...alone.map((file) => [file]),
    ...groupsOf(shared.filter(waits), FILES_PER_PROCESS.waiting),
    ...groupsOf(
      shared.filter((file) => !waits(file)),
      FILES_PER_PROCESS.working,
    ),
  ];
  return processes.map((group, index) => {
    const entry = join(dir, `${String(index + 1).padStart(3, "0")}.test.mjs`);
    const imports = group.map((file) => `await import(${JSON.stringify(pathToFileURL(resolve(file)).href)});`);
    writeFileSync(entry, [...imports, ""].join("\n"));
    return entry;
  });
}

/** Runs `files` with `env` added to this process's environment, to their end; returns the runner's exit status. */
export function runTestFiles(files: string[], env: NodeJS.ProcessEnv = {}): number {
  const dir = mkdtempSync(join(tmpdir(), "feedgate-test-files-"));
  try {
    const run = spawnSync(
      process.execPath,
      ["--import", "tsx", "--test", "--test-concurrency=4", ...entriesInRunOrder(files, dir)],
      {
        stdio: "inherit",
        env: { ...process.env, ...env },
      },
    );
    return run.status ?? 1;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
