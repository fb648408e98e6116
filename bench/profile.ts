/**
 * Reads a V8 .cpuprofile (from `--cpu-prof`) and lists where the time went: self time per function and per
 * module (a package in node_modules, a file of feedgate, or V8's own buckets such as the garbage collector),
 * so a missed target comes with evidence instead of a guess. Run alone: `node --import tsx bench/profile.ts <file>`.
 */
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** `node_modules/fastify/lib/x.js` -> `fastify`; `dist/server/app.js` -> `dist/server/app.js`; node:* as is. */
function moduleOf(url: string): string {
  if (url === "") return "(native / V8)";
  const path = url.replace(/^file:\/\//, "");
  const inModules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
  if (inModules) return inModules[1]!;
  const inProject = /\/(dist|src|bench)\/(.+)$/.exec(path);
  return inProject ? `${inProject[1]}/${inProject[2]}` : path;
}

function top(totals: Map<string, number>, all: number, count: number): string[] {
  return [...totals]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(
      ([name, t]) => `| ${name.replace(/\|/g, "\\|")} | ${((100 * t) / all).toFixed(1)}% | ${(t / 1000).toFixed(0)} |`,
    );
}

/** Markdown: the busiest functions and modules by self time, idle time left out. */
export function summarizeProfile(file: string, count = 20): string {
  const profile = JSON.parse(readFileSync(file, "utf8")) as CpuProfile;
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const byFunction = new Map<string, number>();
  const byModule = new Map<string, number>();
  let busy = 0;
  let idle = 0;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    const frame = nodes.get(id)!.callFrame;
    if (frame.functionName === "(idle)") {
      idle += delta;
      return;
    }
    busy += delta;
    const module = moduleOf(frame.url);
    const fn = `${frame.functionName || "(anonymous)"} ${module}${frame.url ? `:${frame.lineNumber + 1}` : ""}`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + delta);
    byModule.set(module, (byModule.get(module) ?? 0) + delta);
  });
  return [
    `Busy ${(busy / 1e6).toFixed(1)} s, idle ${(idle / 1e6).toFixed(1)} s (\`${file}\`). Self time:`,
    "",
    "| function | share of busy | ms |",
    "|---|---:|---:|",
    ...top(byFunction, busy, count),
    "",
    "| module | share of busy | ms |",
    "|---|---:|---:|",
    ...top(byModule, busy, 12),
  ].join("\n");
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const file = process.argv[2];
  if (!file) throw new Error("usage: profile.ts <file.cpuprofile> [rows]");
  process.stdout.write(`${summarizeProfile(file, Number(process.argv[3] ?? 25))}\n`);
}
