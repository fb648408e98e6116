/**
 * How an import shows that it is alive: a progress bar on a terminal, and where stderr is not one (CI logs, `2>
 * log`, a pipe) a plain line every few seconds, since a bar's carriage returns make one unreadable line of a log
 * and cli-progress prints nothing at all off a terminal, which looks like a hang on an hour-long import.
 */
import { createRequire } from "node:module";
import type { CliIo } from "./io.js";

export interface ImportProgress {
  update(events: number, bytes: number): void;
  /** Writes `line` (a skipped line's report) without breaking the bar. */
  note(line: string): void;
  stop(): void;
}

export const megabytes = (bytes: number) => `${(bytes / 1048576).toFixed(1)} MB`;
export const perSecond = (count: number, ms: number) => Math.round(count / Math.max(ms / 1000, 0.001));

/** @param size the source's size in bytes, 0 when unknown (standard input); @param everyMs plain lines' interval */
export function importProgress(name: string, size: number, io: CliIo, everyMs: number): ImportProgress {
  const started = Date.now();
  const sizeText = size ? megabytes(size) : "?";
  if (!io.stderr.isTTY) {
    let lastLine = started;
    return {
      update(events, bytes) {
        const now = Date.now();
        if (now - lastLine < everyMs) return;
        lastLine = now;
        io.stderr.write(
          `${name}: ${events} events so far, ${perSecond(events, now - started)} events/s, ` +
            `${megabytes(bytes)} of ${sizeText} read\n`,
        );
      },
      note: (line) => io.stderr.write(`${line}\n`),
      stop: () => undefined,
    };
  }
  // Required only for a bar: every other command, serve above all, loads the CLI without it.
  const { SingleBar } = createRequire(import.meta.url)("cli-progress") as typeof import("cli-progress");
  const bar = new SingleBar({
    format: `${name} [{bar}] {events} events | {rate} events/s | {read} of {size}`,
    hideCursor: true,
    stream: io.stderr,
  });
  bar.start(Math.max(size, 1), 0, { events: 0, rate: 0, read: megabytes(0), size: sizeText });
  return {
    update: (events, bytes) =>
      bar.update(size ? bytes : 0, { events, rate: perSecond(events, Date.now() - started), read: megabytes(bytes) }),
    note: (line) => io.stderr.write(`\n${line}\n`),
    stop: () => bar.stop(),
  };
}
