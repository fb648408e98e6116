/**
 * Child processes the benchmark measures from the outside: the real `feedgate` CLI (import, seed, serve) and
 * the ceiling server. Linux-only by design: peak memory, CPU time and the listening port of `--port 0` are
 * read from /proc, so nothing inside the server has to cooperate with the benchmark.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { openSync, closeSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";

export const ROOT = new URL("..", import.meta.url).pathname;
export const CLI = `${ROOT}dist/cli/main.js`;

/** Kernel clock ticks per second, the unit of utime/stime in /proc/<pid>/stat (100 on every Linux we run on). */
const CLOCK_TICKS = 100;

/** Peak and current resident memory of a process, in bytes (VmHWM is the kernel's high-water mark). */
export function memoryOf(pid: number): { peak: number; current: number } | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? NaN) * 1024;
    return { peak: kb("VmHWM"), current: kb("VmRSS") };
  } catch {
    return null;
  }
}

/** CPU seconds (user + system, every thread) a process has used so far. */
export function cpuSecondsOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // The command name (field 2) may contain spaces; the fields after its closing parenthesis are fixed.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}

/** Busy CPU seconds of the whole machine, every core (to tell how much else was running during a measurement). */
export function machineBusySeconds(): number {
  const cpu = readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/).slice(1).map(Number);
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = cpu;
  return (user + nice + system + irq + softirq + steal) / CLOCK_TICKS;
}

/** The TCP ports a process listens on: its socket inodes (/proc/<pid>/fd) matched against /proc/net/tcp{,6}. */
function listeningPorts(pid: number): number[] {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const match = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (match) inodes.add(match[1]!);
    } catch {
      // the descriptor closed while we looked
    }
  }
  const ports: number[] = [];
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    for (const line of readFileSync(table, "utf8").split("\n").slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f[3] === "0A" && inodes.has(f[9] ?? "")) ports.push(parseInt(f[1]!.split(":")[1]!, 16)); // 0A: LISTEN
    }
  }
  return ports;
}

export interface Completed {
  code: number | null;
  stdout: string;
  stderr: string;
  seconds: number;
  /** Peak resident memory seen while it ran (sampled VmHWM, so within the last sampling interval). */
  peakRss: number;
  /** Stopped (SIGTERM) when its time ran out; `seconds` is then the time until it was stopped. */
  timedOut: boolean;
}

/** Runs a command to completion (or until `timeoutSeconds`), timing it and sampling its memory. */
export async function runToCompletion(command: string, args: string[], timeoutSeconds = Infinity): Promise<Completed> {
  const started = process.hrtime.bigint();
  const child = spawn(command, args, { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (d: string) => {
    stdout += d;
  });
  // The import's progress bar redraws on stderr; keep only the tail, for error messages.
  child.stderr.setEncoding("utf8").on("data", (d: string) => {
    stderr = (stderr + d).slice(-20_000);
  });
  let peakRss = 0;
  const sampler = setInterval(() => {
    // Before exec and after exit (a zombie) there is no VmHWM: those samples are NaN and skipped.
    const m = child.pid === undefined ? null : memoryOf(child.pid);
    if (m && Number.isFinite(m.peak)) peakRss = Math.max(peakRss, m.peak);
  }, 200);
  let stoppedAt: bigint | null = null;
  const timer = Number.isFinite(timeoutSeconds)
    ? setTimeout(() => {
        stoppedAt = process.hrtime.bigint();
        child.kill("SIGTERM");
      }, timeoutSeconds * 1000)
    : undefined;
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (c) => resolve(c));
  });
  clearInterval(sampler);
  clearTimeout(timer);
  const end = stoppedAt ?? process.hrtime.bigint();
  return { code, stdout, stderr, seconds: Number(end - started) / 1e9, peakRss, timedOut: stoppedAt !== null };
}

/** Runs `feedgate <args>` from dist/ and fails loudly when it does (unless it was stopped for time). */
export async function feedgate(args: string[], timeoutSeconds = Infinity): Promise<Completed> {
  const result = await runToCompletion(process.execPath, [CLI, ...args], timeoutSeconds);
  if (result.code !== 0 && !result.timedOut) {
    throw new Error(
      `feedgate ${args.join(" ")} exited with ${result.code}:\n${result.stderr.slice(-4000)}${result.stdout.slice(-2000)}`,
    );
  }
  return result;
}

export interface Listening {
  child: ChildProcess;
  pid: number;
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts a long-running server process (its output to `logFile`, so a chatty log level costs the server what it
 * would cost in production, not a pipe we must drain) and waits until it listens.
 */
export async function startListening(args: string[], logFile: string, timeoutMs = 120_000): Promise<Listening> {
  const log = openSync(logFile, "w");
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ["ignore", log, log] });
  closeSync(log);
  let exited: number | null | undefined;
  child.once("exit", (code) => {
    exited = code;
  });
  const pid = child.pid!;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (exited !== undefined)
      throw new Error(`${args.join(" ")} exited with ${exited} before listening; see ${logFile}`);
    const ports = listeningPorts(pid);
    if (ports.length > 0) {
      const url = `http://127.0.0.1:${ports[0]}`;
      return {
        child,
        pid,
        url,
        async stop() {
          if (exited !== undefined) return;
          const done = new Promise((resolve) => child.once("exit", resolve));
          child.kill("SIGTERM"); // feedgate drains and exits 0; --cpu-prof writes its profile on that exit
          await done;
        },
      };
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`${args.join(" ")} did not listen within ${timeoutMs / 1000} s; see ${logFile}`);
    }
    await sleep(50);
  }
}
