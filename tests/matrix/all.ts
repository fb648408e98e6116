/**
 * `npm test`: the type check, the linter with the import rules, every test file on SQLite, and the driver matrix
 * (tests/matrix/postgres.ts) on PostgreSQL, side by side. Run one after another they left a core idle for minutes:
 * most test files spend their time waiting on timers, sockets, child processes and the database, and the slowest
 * file of one run (a browser, a packed tarball) held the next run back.
 *
 * The SQLite run writes to this terminal as it goes; the others are held until they end, then written whole under
 * a header, so their lines never interleave. The exit status is 1 when any part failed, and the last lines say
 * which part, with its time.
 */
import { spawn } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";

interface Part {
  name: string;
  command: string;
  args: string[];
  /** Written as it comes (one part only), else held until the part ends. */
  live?: boolean;
  env?: NodeJS.ProcessEnv;
}

/** Test files run at once by each runner: the SQLite run and the PostgreSQL run together keep two cores busy. */
export const SQLITE_CONCURRENCY = 4;
export const POSTGRES_CONCURRENCY = 3;

const testFiles = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((file) => file.endsWith(".test.ts")).map((file) => join(dir, file)).sort();

const node = process.execPath;
const bin = (name: string) => join("node_modules", ".bin", name);

const parts: Part[] = [
  { name: "SQLite: every test file", command: node, live: true,
    args: ["--import", "tsx", "--test", `--test-concurrency=${SQLITE_CONCURRENCY}`, ...testFiles("tests")] },
  { name: "PostgreSQL: the driver matrix", command: node, args: ["--import", "tsx", "tests/matrix/postgres.ts"],
    env: { FEEDGATE_MATRIX_CONCURRENCY: String(POSTGRES_CONCURRENCY) } },
  { name: "typecheck", command: bin("tsc"), args: ["-p", "tsconfig.json", "--noEmit"] },
  { name: "lint and import rules", command: "npm", args: ["run", "--silent", "lint"] },
];

interface Outcome {
  part: Part;
  status: number | null;
  seconds: number;
  /** What a held part wrote. */
  held: Buffer[];
}

function run(part: Part): Promise<Outcome> {
  const started = performance.now();
  const child = spawn(part.command, part.args, {
    env: { ...process.env, ...part.env },
    stdio: ["ignore", part.live ? "inherit" : "pipe", part.live ? "inherit" : "pipe"],
  });
  const held: Buffer[] = [];
  child.stdout?.on("data", (chunk: Buffer) => held.push(chunk));
  child.stderr?.on("data", (chunk: Buffer) => held.push(chunk));
  return new Promise((resolve) => {
    child.on("close", (status) => resolve({ part, status, seconds: (performance.now() - started) / 1000, held }));
  });
}

const running = parts.map(run);
const outcomes: Outcome[] = [];
// The live part first, then each held part whole, in the table's order: no part's lines land inside another's.
for (const outcome of running) {
  const done = await outcome;
  if (!done.part.live) process.stdout.write(`\n# ==== ${done.part.name} ====\n${Buffer.concat(done.held).toString()}`);
  outcomes.push(done);
}
process.stdout.write("\n# ==== npm test ====\n");
for (const { part, status, seconds } of outcomes) {
  process.stdout.write(`# ${status === 0 ? "ok  " : "FAIL"} ${part.name} (${seconds.toFixed(0)} s)\n`);
}
process.exit(outcomes.every((outcome) => outcome.status === 0) ? 0 : 1);
