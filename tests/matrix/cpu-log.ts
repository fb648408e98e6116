/**
 * What a test process cost, for balancing run-files.ts by measurement: with FEEDGATE_TEST_CPU_LOG=<file>, each
 * process of a run appends one JSON line as it exits: its files, its wall time from its first import, and its CPU
 * time in ms, its own and its children's (the processes it spawned and waited for: feedgate, npm, a browser), read
 * from /proc (Linux). `node build/tests/matrix/cpu-log.js <file>` prints the lines as a table, costliest first.
 */
import { appendFileSync, readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

interface Line {
  files: string[];
  wallMs: number;
  cpuMs: number;
  childrenMs: number;
}

/** utime, stime, cutime and cstime of /proc/self/stat, in ms (clock ticks of 10 ms). */
function times(): number[] {
  const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1]!.split(" ");
  return fields.slice(11, 15).map((ticks) => Number(ticks) * 10);
}

export function logCpu(file: string, files: string[]): void {
  const started = Date.now();
  process.on("exit", () => {
    const [user = 0, system = 0, childUser = 0, childSystem = 0] = times();
    const line: Line = {
      files,
      wallMs: Date.now() - started,
      cpuMs: user + system,
      childrenMs: childUser + childSystem,
    };
    appendFileSync(file, `${JSON.stringify(line)}\n`);
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const lines = readFileSync(process.argv[2]!, "utf8")
    .trim()
    .split("\n")
    .map((text) => JSON.parse(text) as Line)
    .sort((a, b) => b.cpuMs + b.childrenMs - (a.cpuMs + a.childrenMs));
  const s = (ms: number) => (ms / 1000).toFixed(1).padStart(6);
  const total = (key: "cpuMs" | "childrenMs") => lines.reduce((sum, line) => sum + line[key], 0);
  process.stdout.write(
    `${lines.length} processes, CPU ${s(total("cpuMs"))} s own, ${s(total("childrenMs"))} s children\n`,
  );
  process.stdout.write("   all    own   wall  files\n");
  for (const line of lines)
    process.stdout.write(
      `${s(line.cpuMs + line.childrenMs)} ${s(line.cpuMs)} ${s(line.wallMs)}  ${line.files.map((f) => f.replace(/^tests\//, "")).join(" ")}\n`,
    );
}
