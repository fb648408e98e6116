/**
 * `feedgate replay <file|->... [--speed 60] [--restamp] [--new-ids] [--max-gap S]`: GH Archive events ingested at
 * their recorded pace divided by --speed, batch by batch through the normal ingest path, so that other instances,
 * feeds and streams watching the database see them arrive as they did on GitHub. Files, formats and malformed
 * lines are handled as by `feedgate import`; the pacing is services/event-replay.ts.
 */
import { createReadStream, type ReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { CommanderError, type Command } from "commander";
import { replayEvents, type ReplayProgress } from "../server/services/event-replay.js";
import { ndjsonFromStream, type NdjsonSource } from "../server/services/ndjson.js";
import { InvalidInputError } from "../server/failures.js";
import type { CliIo } from "./io.js";
import { storeOptions, fullQueuesNote, webhookOptions, withStore } from "./options.js";
import type { IngestOptions } from "../server/store/store.js";
import { checkImportFiles, GH_ARCHIVE_HINT } from "./import-files.js";
import { perSecond } from "./import-progress.js";
import { duration, events, replayProgress } from "./replay-progress.js";
import { seconds } from "./seconds.js";

/** A number above 0 (decimals allowed: 0.5 is half real time), or `max`. */
function speedOf(value: string): number {
  if (value.trim() === "max") return Infinity;
  const n = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value.trim()) || !(n > 0)) {
    throw new InvalidInputError(
      `--speed must be a number above 0 (60: an hour of events in a minute) or max, got "${value}"`,
    );
  }
  return n;
}

/** The exit status of a replay stopped by a signal: 128 + its number, as a shell reports a command it interrupted. */
const SIGNAL_STATUS: Partial<Record<NodeJS.Signals, number>> = { SIGINT: 130, SIGTERM: 143 };

function summary(p: ReplayProgress, speed: number, stoppedBy: NodeJS.Signals | null): string {
  const cut = p.cutMs > 0 ? `, ${duration(p.cutMs)} of pauses cut` : "";
  const kept = !Number.isFinite(speed)
    ? ""
    : p.maxLateMs > 1000
      ? `; fell behind by up to ${(p.maxLateMs / 1000).toFixed(1)} s (ingest was slower than --speed asks)`
      : "; kept pace";
  return (
    `${stoppedBy ? `stopped by ${stoppedBy}: ` : ""}replayed ${events(p)} events (${duration(p.replayedMs)} of recorded ` +
    `time${cut}) in ${duration(p.elapsedMs)} at --speed ${Number.isFinite(speed) ? speed : "max"} ` +
    `(${perSecond(events(p), p.elapsedMs)} events/s): ${p.eventsAdded} added, ${p.eventsSkipped} already present, ` +
    `${p.malformed} malformed lines skipped${kept}\n`
  );
}

export function replayCommand(program: Command, io: CliIo): void {
  const command = program
    .command("replay <files...>")
    .description("ingest GH Archive NDJSON files (plain or .gz; - for stdin) at their recorded pace")
    .addHelpText(
      "after",
      `
Each event is due (its created_at - the first event's) / --speed after the start: --speed 60 brings an hour of
GitHub's activity in a minute. Events due at one moment go in one transaction; the files are one timeline, in the
order given. The pace is kept against the start: when ingest is slower than --speed asks, batches go in back to
back and the progress and summary say how far behind it fell.

Events already stored, by id, are skipped, as by import: replaying a file twice adds nothing the second time, and
does not wait out the recorded pace of what it skips (batches after them keep their spacing from them).
--new-ids gives each event a new id instead (16 digits, above GitHub's, rising in replay order), so the same hour
arrives again as new events; with --restamp as well, it arrives as today's traffic.

Malformed lines are reported (file:line) and skipped. Ctrl-C (SIGINT) or SIGTERM stops after the batch being
written, prints the summary, and exits with 130 (143 for SIGTERM); every batch is one transaction, so nothing is
half-written.
${GH_ARCHIVE_HINT}.`,
    );
  webhookOptions(storeOptions(command, io.env), io.env, false)
    .option(
      "--speed <factor|max>",
      "recorded time over wall time (60: an hour in a minute; 1: real time; max: as fast as ingest goes)",
      "60",
    )
    .option(
      "--restamp",
      "set each event's created_at to the moment it is ingested (feeds, age caps and bots see it as new)",
    )
    .option("--new-ids", "give each event a new id, so events already stored arrive again")
    .option(
      "--max-gap <seconds>",
      "cut pauses in the recorded events longer than this (recorded seconds) to it (default: keep them)",
    )
    .option("--progress-every <seconds>", "when stderr is not a terminal, print a progress line this often", "5")
    .action(
      async (
        files: string[],
        flags: {
          speed: string;
          restamp?: boolean;
          newIds?: boolean;
          maxGap?: string;
          progressEvery: string;
          db?: string;
          ingestOptions: IngestOptions;
        },
      ) => {
        const speed = speedOf(flags.speed);
        const maxGapMs = flags.maxGap === undefined ? Infinity : seconds(flags.maxGap, "--max-gap") * 1000;
        const progressEvery = seconds(flags.progressEvery, "--progress-every");
        await checkImportFiles(files);
        // Standard input's size is unknown: then the bar shows no fraction, as import's does.
        const size = files.includes("-")
          ? 0
          : (await Promise.all(files.map((f) => stat(f)))).reduce((sum, s) => sum + s.size, 0);

        const hooksFull = new Set<number>();
        const stop = new AbortController();
        let stoppedBy: NodeJS.Signals | null = null;
        const onSignal = (signal: NodeJS.Signals) => {
          stoppedBy = signal;
          stop.abort();
        };
        process.once("SIGINT", onSignal);
        process.once("SIGTERM", onSignal);
        const opened: ReadStream[] = [];
        let bytesBefore = 0;
        let current: NdjsonSource | null = null;
        // One file open at a time, as the timeline reaches it; the bytes read so far drive the bar.
        async function* sources(): AsyncIterable<NdjsonSource> {
          for (const file of files) {
            if (current) bytesBefore += current.bytesRead();
            const input = file === "-" ? io.stdin : createReadStream(file);
            if (file !== "-") opened.push(input as ReadStream);
            current = ndjsonFromStream(file, input);
            yield current;
          }
        }

        try {
          const result = await withStore(flags, async (store) => {
            const progress = replayProgress(size, speed, io, progressEvery * 1000);
            try {
              return await replayEvents(store, sources(), {
                speed,
                maxGapMs,
                restamp: Boolean(flags.restamp),
                newIds: Boolean(flags.newIds),
                signal: stop.signal,
                // The command line is the process's edge: its clock is the wall clock, as the server's is.
                clock: () => new Date(),
                onBatch: (p) => progress.update(p, bytesBefore + (current?.bytesRead() ?? 0)),
                onMalformed: (_where, message) => progress.note(`skipped ${message}`),
                ingest: flags.ingestOptions,
                onQueueFull: (hookId) => hooksFull.add(hookId),
              });
            } finally {
              progress.stop();
            }
          });
          io.stdout.write(summary(result, speed, stoppedBy));
          io.stderr.write(fullQueuesNote(hooksFull));
          if (result.eventsSkipped > 0 && !flags.newIds) {
            io.stderr.write(
              `${result.eventsSkipped} events were stored already (same id) and were skipped; ` +
                "--new-ids replays them as new events\n",
            );
          }
        } finally {
          process.off("SIGINT", onSignal);
          process.off("SIGTERM", onSignal);
          // A replay stopped early leaves its file part read: close it, or its descriptor keeps the process alive.
          for (const input of opened) input.destroy();
        }
        // runCli turns this into the exit status, having nothing to print: the summary above said what happened.
        const status = stoppedBy ? SIGNAL_STATUS[stoppedBy] : undefined;
        if (status) throw new CommanderError(status, "feedgate.replay.stopped", "");
      },
    );
}
