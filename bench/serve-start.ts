/**
 * `feedgate serve --ephemeral` as a person or a CI job starts it: the built CLI (`dist/cli/main.js`, so `npm run build`
 * first) spawned on any free port, timed from the spawn to the first 200 of `GET /`. Reported: the wall time and the
 * child's CPU (user + system of all its threads, from /proc/<pid>/stat, read as the 200 arrives), p50 of RUNS
 * starts. Issue 47's goal: a process ready to answer in <= 150 ms of CPU. `npm run bench:serve-start` runs it;
 * `--runs N` changes the count, `--cpu-prof DIR` writes one V8 CPU profile per start into DIR, `--cli FILE` starts
 * another build (an older commit's `dist/cli/main.js`, to compare under the same load).
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";
import { percentile } from "./percentile.js";

const CLI = fileURLToPath(new URL("../dist/cli/main.js", import.meta.url));
/** Linux's clock ticks per second for /proc/<pid>/stat (USER_HZ); 100 on every architecture Node runs on. */
const TICKS_PER_SECOND = 100;

interface Start {
  /** Spawn to the ready line on stdout. */
  readyMs: number;
  /** Spawn to the first 200 of `GET /`. */
  firstOkMs: number;
  /** The child's user + system CPU when the 200 arrived. */
  cpuMs: number;
}

/** utime + stime of a process, all its threads, in ms (fields 14 and 15 of /proc/<pid>/stat). */
function processCpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // The command name (field 2) is in parentheses and may hold spaces: count fields after its closing one.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

async function startOnce(cli: string, cpuProfDir: string | undefined): Promise<Start> {
  const nodeArgs = cpuProfDir ? ["--cpu-prof", "--cpu-prof-dir", cpuProfDir] : [];
  const began = performance.now();
  const child = spawn(
    process.execPath,
    [...nodeArgs, cli, "serve", "--ephemeral", "--port", "0", "--log-level", "warn"],
    {
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  try {
    const port = await new Promise<number>((resolve, reject) => {
      let out = "";
      child.stdout.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        const line = out.split("\n").find((l) => l.startsWith('{"feedgate":"ready"'));
        if (line) resolve((JSON.parse(line) as { port: number }).port);
      });
      child.once("exit", (code) => reject(new Error(`serve exited with ${code} before it was ready:\n${out}`)));
    });
    const readyMs = performance.now() - began;
    const response = await fetch(`http://127.0.0.1:${port}/`);
    await response.arrayBuffer();
    const firstOkMs = performance.now() - began;
    const cpuMs = processCpuMs(child.pid!);
    if (response.status !== 200) throw new Error(`GET / answered ${response.status}`);
    return { readyMs, firstOkMs, cpuMs };
  } finally {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
  }
}

function option(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at === -1 ? undefined : process.argv[at + 1];
}

export async function measureServeStart(runs: number, cpuProfDir?: string, cli = CLI) {
  const starts: Start[] = [];
  for (let i = 0; i < runs; i += 1) starts.push(await startOnce(cli, cpuProfDir));
  const p50 = (pick: (s: Start) => number) =>
    percentile(
      starts.map(pick).sort((a, b) => a - b),
      0.5,
    );
  return {
    runs,
    readyP50Ms: p50((s) => s.readyMs),
    firstOkP50Ms: p50((s) => s.firstOkMs),
    cpuP50Ms: p50((s) => s.cpuMs),
    starts,
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const result = await measureServeStart(Number(option("--runs") ?? 10), option("--cpu-prof"), option("--cli"));
  for (const s of result.starts) {
    console.log(
      `ready ${s.readyMs.toFixed(0)} ms, first 200 ${s.firstOkMs.toFixed(0)} ms, CPU ${s.cpuMs.toFixed(0)} ms`,
    );
  }
  console.log(
    `serve --ephemeral, p50 of ${result.runs}: first 200 after ${result.firstOkP50Ms.toFixed(0)} ms wall ` +
      `(ready line ${result.readyP50Ms.toFixed(0)} ms), ${result.cpuP50Ms.toFixed(0)} ms CPU`,
  );
}
