/**
 * How the runs of `npm test` run their files (sqlite.ts, postgres.ts, unit.ts): Node's test runner, a few processes
 * at a time, most of them holding several files, in an order. Compiled (`node build/tests/matrix/sqlite.js`, as the
 * npm scripts run it), each file runs as its JavaScript twin under build/, without tsx; run through tsx
 * (`node --import tsx tests/matrix/sqlite.ts`), as TypeScript.
 *
 * More processes than cores, because each file has its own database and much of a file's time is spent waiting on
 * timers, sockets, child processes and PostgreSQL; not many more, because the files that spawn processes (feedgate,
 * npm, the GitHub clients, a browser) would then wait on a machine too loaded to start them. The run's tail is a
 * process that started late and waits long while the cores sit idle, so those that wait longest start first: the
 * files named in RUN_ALONE, then the folders whose files wait on processes they spawn. The waits are in the files'
 * own comments: SQLite's ten seconds of SQLITE_PROTOCOL retries per read of a locked file, the examples of each test
 * framework, the packed tarball's npm, the servers spawned and stopped, a PostgreSQL database per case.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { BUILD, COMPILED, inRepository, NODE_LOADER } from "../helpers/repository.js";

/** How many processes run at a time (FEEDGATE_TEST_CONCURRENCY overrides it, to measure another). */
const CONCURRENCY = Number(process.env.FEEDGATE_TEST_CONCURRENCY ?? 5);

/**
 * How long a process may run before the runner stops it and fails it: far past the slowest (a few minutes), so that
 * only a hang reaches it, and the run then goes on and says which process it was instead of waiting for ever.
 */
const PROCESS_TIMEOUT_MS = 15 * 60_000;

/**
 * How long a process may stay alive after its tests ended before it names what kept it (a server, a socket, a timer
 * left open) and exits failing: otherwise it would hang until PROCESS_TIMEOUT_MS without saying why. Minutes, not
 * seconds: a file whose last sockets close on their own timers (a cut network's, a pool's) ends within a minute or two.
 */
const LINGER_MS = 5 * 60_000;

/** Files that run in a process of their own, started first, in this order. */
const RUN_ALONE = [
  "tests/server/stale-if-error.test.ts",
  // On PostgreSQL: a database created and migrated for each of its ~50 cases, one after another.
  "tests/server/recorded-feeds.test.ts",
  "tests/examples/testing-frameworks.test.ts",
  "tests/server/hostile-input.test.ts",
  "tests/cli/serve-scripted.test.ts",
  "tests/client/packed.test.ts",
  "tests/console/tokens.browser.test.ts",
  // It checks the password cost a fresh process starts with, before anything sets it.
  "tests/server/services/credentials.test.ts",
];

/**
 * Files about running from the TypeScript sources (how a thread or process started there finds the build), which
 * run from the sources through tsx in a compiled run too: compiled, there is nothing for them to find.
 */
const RUN_FROM_SOURCES = ["tests/unit/built-tree.test.ts"];

const gone = [...RUN_ALONE, ...RUN_FROM_SOURCES].filter((file) => !existsSync(inRepository(file)));
if (gone.length > 0)
  throw new Error(`tests/matrix/run-files.ts names test files that are not there: ${gone.join(", ")}`);

/** Every `*.test.ts` file under `dir` (a path from the repository's root), its subfolders included. */
export function testFilesUnder(dir: string): string[] {
  return readdirSync(inRepository(dir), { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".test.ts"))
    .map((file) => join(dir, file));
}

/**
 * Files that share a process, imported one after another, so that their tests are the process's tests in the order
 * of the files: a process's start (Node, the test runner, feedgate's modules) is much of a short file's CPU, paid
 * here once per process rather than once per file. The folders whose files mostly wait (on the processes they
 * spawn: feedgate, the GitHub clients, curl, a browser; on servers they stop and start) share fewer to a process
 * and start first, so that their waits overlap with the work of other processes.
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
  const hook = /^(beforeEach|afterEach)\(/m.exec(readFileSync(inRepository(file), "utf8"));
  if (hook)
    throw new Error(`${file}: ${hook[1]} at the top level would run around other files' tests; put it in a describe`);
}

/** `files` in path order, `size` to a group. */
function groupsOf(files: string[], size: number): string[][] {
  const groups: string[][] = [];
  for (let start = 0; start < files.length; start += size) groups.push(files.slice(start, start + size));
  return groups;
}

/** The module a test file (a path from the repository's root) is imported as: its compiled twin in a compiled run. */
function runnable(file: string): string {
  const compiled = COMPILED && !RUN_FROM_SOURCES.includes(file);
  return pathToFileURL(inRepository(compiled ? join(BUILD, file.replace(/\.ts$/, ".js")) : file)).href;
}

/** One run of files: all of them, or the driver matrix's on PostgreSQL (runs.ts). */
export interface Run {
  /** Named in its entries' file names, so that the runner's report says which run a file's tests are of. */
  name: string;
  files: string[];
  /** Set in the environment of the run's processes (and so of the processes they spawn). */
  env?: Record<string, string>;
  /**
   * Its files wait more than they work, whatever their folder (on PostgreSQL: a database created and migrated for
   * each app, queries answered by the server): its groups start with those of WAITING_FOLDERS, as large as the
   * working folders' (a process's start is CPU; the waits overlap with other processes' work).
   */
  waits?: boolean;
}

/**
 * An entry's text: `env` set, then `group` imported in order; with FEEDGATE_TEST_CPU_LOG set to a file, the process
 * adds a line there as it exits (cpu-log.ts). A compiled run registers tsx's hooks only in the process of a file that
 * runs from the sources (RUN_FROM_SOURCES): Node's runner gives every process the same options.
 */
function entryText(group: string[], env: Record<string, string>): string {
  const fromSources = COMPILED && group.some((file) => RUN_FROM_SOURCES.includes(file));
  const tsx = fromSources ? [`(await import(${JSON.stringify(import.meta.resolve("tsx/esm/api"))})).register();`] : [];
  const log = process.env.FEEDGATE_TEST_CPU_LOG;
  const cpu = log
    ? [
        `import { logCpu } from ${JSON.stringify(new URL("./cpu-log.js", import.meta.url).href)};`,
        `logCpu(${JSON.stringify(log)}, ${JSON.stringify(group)});`,
      ]
    : [];
  // An unref'd timer fires only if something else keeps the process alive once its tests are over.
  const lingering = [
    `(await import("node:test")).after(() => setTimeout(() => {`,
    `  const kept = JSON.stringify(process.getActiveResourcesInfo());`,
    `  process.stderr.write(\`the tests ended, but ${LINGER_MS} ms later the process still kept \${kept} open\\n\`);`,
    `  process.exit(1);`,
    `}, ${LINGER_MS}).unref());`,
  ];
  return [
    ...cpu,
    `Object.assign(process.env, ${JSON.stringify(env)});`,
    ...tsx,
    ...lingering,
    ...group.map((file) => `await import(${JSON.stringify(runnable(file))});`),
    "",
  ].join("\n");
}

/** A process of a run: its files, and when it starts among the others (lower first). */
interface Process {
  run: Run;
  group: string[];
  rank: number;
}

/**
 * A run's processes: one for each file of RUN_ALONE (rank 0, in that order), the files of WAITING_FOLDERS (rank 1)
 * and then the rest (rank 2; rank 1 in a run that waits), as FILES_PER_PROCESS says, and one for each file of
 * RUN_FROM_SOURCES (rank 3).
 */
function processesOf(run: Run): Process[] {
  const { files } = run;
  const alone = RUN_ALONE.filter((file) => files.includes(file));
  const fromSources = COMPILED ? RUN_FROM_SOURCES.filter((file) => files.includes(file)) : [];
  const shared = files.filter((file) => !alone.includes(file) && !fromSources.includes(file)).sort();
  shared.forEach(refuseSharedHooks);
  const waits = (file: string) => WAITING_FOLDERS.some((folder) => file.startsWith(folder));
  const ranked = (rank: number, groups: string[][]) => groups.map((group) => ({ run, group, rank }));
  return [
    ...ranked(
      0,
      alone.map((file) => [file]),
    ),
    ...ranked(1, groupsOf(shared.filter(waits), FILES_PER_PROCESS.waiting)),
    ...ranked(
      run.waits ? 1 : 2,
      groupsOf(
        shared.filter((file) => !waits(file)),
        FILES_PER_PROCESS.working,
      ),
    ),
    ...ranked(
      3,
      fromSources.map((file) => [file]),
    ),
  ];
}

/**
 * The runner's entries for `runs`, written in `dir`, in the order they start: by rank (processesOf), the runs' in
 * turn within a rank. Node's runner starts its files in the order of their names, so the entries are numbered.
 */
function entriesInRunOrder(runs: Run[], dir: string): string[] {
  const processes = runs.flatMap(processesOf);
  const ranks = [...new Set(processes.map((process) => process.rank))].sort();
  const ordered = ranks.flatMap((rank) => {
    const byRun = runs.map((run) => processes.filter((process) => process.run === run && process.rank === rank));
    const longest = Math.max(...byRun.map((list) => list.length));
    return Array.from({ length: longest }, (_, i) => byRun.flatMap((list) => (list[i] ? [list[i]] : [])));
  });
  return ordered.flat().map(({ run, group }, index) => {
    const entry = join(dir, `${String(index + 1).padStart(3, "0")}-${run.name}.test.mjs`);
    writeFileSync(entry, entryText(group, run.env ?? {}));
    return entry;
  });
}

/** Runs `runs` in one runner, to their end; returns the runner's exit status. */
export function runTests(runs: Run[]): number {
  const dir = mkdtempSync(join(tmpdir(), "feedgate-test-files-"));
  try {
    const run = spawnSync(
      process.execPath,
      [
        ...NODE_LOADER,
        "--test",
        `--test-concurrency=${CONCURRENCY}`,
        `--test-timeout=${PROCESS_TIMEOUT_MS}`,
        ...entriesInRunOrder(runs, dir),
      ],
      { stdio: "inherit", cwd: inRepository(".") },
    );
    return run.status ?? 1;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
