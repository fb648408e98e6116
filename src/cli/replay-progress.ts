/**
 * How a replay shows its pace: recorded time replayed against wall time, events, rate, and whether ingest keeps
 * up. A bar on a terminal; elsewhere a plain line every few seconds, as `import` does (import-progress.ts says why).
 */
import { createRequire } from "node:module";
import { LATE_AFTER_MS, type ReplayProgress } from "../server/services/event-replay.js";
import type { CliIo } from "./io.js";
import { perSecond } from "./import-progress.js";

export interface ReplayBar {
  update(progress: ReplayProgress, bytes: number): void;
  note(line: string): void;
  stop(): void;
}

/** `4.2 s`, `12 min 5 s`, `3 h 0 min 4 s`: recorded spans run from seconds to days. */
export function duration(ms: number): string {
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const s = Math.round(ms / 1000);
  const [h, m, rest] = [Math.floor(s / 3600), Math.floor((s % 3600) / 60), s % 60];
  return h > 0 ? `${h} h ${m} min ${rest} s` : `${m} min ${rest} s`;
}

export const events = (p: ReplayProgress) => p.eventsAdded + p.eventsSkipped;

/** `on time`, or how far behind its schedule the replay is; nothing at `--speed max`, which has none. */
export function pace(p: ReplayProgress, speed: number): string {
  if (!Number.isFinite(speed)) return "as fast as ingest goes";
  return p.lateMs > LATE_AFTER_MS ? `behind by ${(p.lateMs / 1000).toFixed(1)} s` : "on time";
}

/** @param size the sources' bytes, 0 when unknown (standard input); @param everyMs plain lines' interval */
export function replayProgress(size: number, speed: number, io: CliIo, everyMs: number): ReplayBar {
  let warned = false;
  /** Said once: the bar or the lines then show by how much, batch by batch. */
  const warnOnce = (p: ReplayProgress, write: (line: string) => void) => {
    if (warned || p.lateMs <= LATE_AFTER_MS || !Number.isFinite(speed)) return;
    warned = true;
    write(
      `behind schedule by ${(p.lateMs / 1000).toFixed(1)} s: ingest is slower than --speed ${speed} asks; ` +
        "batches go in back to back until it catches up",
    );
  };
  if (!io.stderr.isTTY) {
    let lastLine = 0;
    const write = (line: string) => io.stderr.write(`${line}\n`);
    return {
      update(p) {
        warnOnce(p, write);
        if (p.elapsedMs - lastLine < everyMs) return;
        lastLine = p.elapsedMs;
        write(
          `replayed ${duration(p.replayedMs)} of recorded time in ${duration(p.elapsedMs)}: ${events(p)} events, ` +
            `${perSecond(events(p), p.elapsedMs)} events/s, ${pace(p, speed)}`,
        );
      },
      note: write,
      stop: () => undefined,
    };
  }
  // Required only for a bar: every other command, serve above all, loads the CLI without it.
  const { SingleBar } = createRequire(import.meta.url)("cli-progress") as typeof import("cli-progress");
  const bar = new SingleBar({
    format: "replay [{bar}] {replayed} recorded in {elapsed} | {events} events | {rate} events/s | {pace}",
    hideCursor: true,
    stream: io.stderr,
  });
  bar.start(Math.max(size, 1), 0, { replayed: duration(0), elapsed: duration(0), events: 0, rate: 0, pace: "" });
  const note = (line: string) => io.stderr.write(`\n${line}\n`);
  return {
    update(p, bytes) {
      warnOnce(p, note);
      bar.update(size ? bytes : 0, {
        replayed: duration(p.replayedMs),
        elapsed: duration(p.elapsedMs),
        events: events(p),
        rate: perSecond(events(p), p.elapsedMs),
        pace: pace(p, speed),
      });
    },
    note,
    stop: () => bar.stop(),
  };
}
