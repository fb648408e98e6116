/** What the numbers were measured on: a result without its machine and commit cannot be compared with anything. */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { availableParallelism, loadavg, release, totalmem } from "node:os";
import Database from "better-sqlite3";
import { ROOT } from "./processes.js";

export interface Machine {
  cpu: string;
  cores: number;
  memoryBytes: number;
  node: string;
  kernel: string;
  sqlite: string;
  autocannon: string;
  date: string;
  commit: string;
  /** Uncommitted changes in the tree measured (the commit alone does not describe the code). */
  dirty: boolean;
  /** 1-minute load average when the run started: other work on the machine skews every number. */
  loadAtStart: number;
}

function git(...args: string[]): string {
  try {
    return execFileSync("git", args, { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  } catch {
    return "";
  }
}

export function describeMachine(): Machine {
  const cpuinfo = readFileSync("/proc/cpuinfo", "utf8");
  const memory = new Database(":memory:");
  const sqlite = (memory.prepare("SELECT sqlite_version() AS v").get() as { v: string }).v;
  memory.close();
  const autocannon = (
    JSON.parse(readFileSync(`${ROOT}node_modules/autocannon/package.json`, "utf8")) as { version: string }
  ).version;
  return {
    cpu: /^model name\s*:\s*(.+)$/m.exec(cpuinfo)?.[1]?.trim() ?? "unknown",
    cores: availableParallelism(),
    memoryBytes: totalmem(),
    node: process.version,
    kernel: release(),
    sqlite,
    autocannon,
    date: new Date().toISOString(),
    commit: git("rev-parse", "--short", "HEAD") || "unknown",
    dirty: git("status", "--porcelain", "--untracked-files=no") !== "",
    loadAtStart: loadavg()[0]!,
  };
}
