/**
 * `feedgate import <file|->...`: stream GH Archive NDJSON (plain or gzip) into the store, showing progress (a bar
 * on a terminal, plain lines in a log: import-progress.ts).
 * With --strict, each source is checked in full before anything from it is written; standard input is
 * spooled to a temporary file for that, since it cannot be read twice.
 */
import { createWriteStream } from "node:fs";
import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pipeline } from "node:stream/promises";
import type { Command } from "commander";
import { applyBatches, type ImportSummary } from "../server/services/event-import.js";
import type { BulkLoadProgress, IngestOptions, Store } from "../server/store/store.js";
import type { CliIo } from "./io.js";
import { storeOptions, fullQueuesNote, webhookOptions, withStore } from "./options.js";
import { checkImportFiles, GH_ARCHIVE_HINT } from "./import-files.js";
import { importProgress, perSecond, type ImportProgress } from "./import-progress.js";
import { parseInWorker } from "./import-parsing.js";
import { seconds } from "./seconds.js";

interface ImportOptions {
  strict: boolean;
  /** Seconds between plain progress lines when stderr is not a terminal. */
  progressEvery: number;
  ingest: IngestOptions;
  /** Hooks whose queue was full, gathered over every file. */
  hooksFull: Set<number>;
}

async function importOne(
  store: Store,
  name: string,
  path: string | null,
  options: ImportOptions,
  io: CliIo,
): Promise<ImportSummary> {
  const size = path === null ? 0 : (await stat(path)).size;
  let progress: ImportProgress | null = null;
  // Skipped lines reported before the progress display exists wait for it.
  const early: string[] = [];
  // The message already starts with the place (`file:3: ...` or `file:3.repo.name: ...`): cutting a fixed
  // `where: ` off it mangled the second form into `file:3: epo.name: ...`.
  const note = (line: string) => (progress ? progress.note(line) : early.push(line));
  const parse = parseInWorker({ name, path, strict: options.strict }, io.stdin, (_where, message) =>
    note(`skipped ${message}`),
  );
  try {
    // A strict source is checked in full before anything is shown or written.
    await parse.checked;
    const shown = importProgress(name, size, io, options.progressEvery * 1000);
    progress = shown;
    for (const line of early.splice(0)) shown.note(line);
    return await applyBatches(
      store,
      parse.batches,
      {
        onProgress: ({ events, bytes }) => shown.update(events, bytes),
        ingest: options.ingest,
        onQueueFull: (hookId) => options.hooksFull.add(hookId),
      },
      () => new Date(),
    );
  } finally {
    progress?.stop();
    await parse.close();
  }
}

/** Standard input, copied to a file so a strict import can read it twice. */
async function spoolStdin(stdin: CliIo["stdin"]): Promise<{ path: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), "feedgate-import-"));
  const path = join(dir, "stdin");
  await pipeline(stdin, createWriteStream(path));
  return { path, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** Says what a long step after the import is doing, and how long it took. */
const stepProgress =
  (io: CliIo): BulkLoadProgress =>
  (what) => {
    const started = Date.now();
    io.stderr.write(`${what}…\n`);
    return () => io.stderr.write(`${what}: done in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  };

export function importCommand(program: Command, io: CliIo): void {
  const command = program
    .command("import <files...>")
    .description("import GH Archive NDJSON files (plain or .gz; - for stdin)")
    .addHelpText(
      "after",
      `
Malformed lines are reported (file:line) and skipped, and the rest of the file is imported; with --strict a
file with one is not imported at all. (POST /admin/events differs on purpose: it refuses a whole body with a bad
line, writing nothing.) Events already stored, by id, are skipped, so importing a file again adds nothing.
${GH_ARCHIVE_HINT}.`,
    );
  webhookOptions(storeOptions(command, io.env), io.env, true)
    .option("--strict", "abort a file at its first malformed line, writing nothing from it")
    .option("--progress-every <seconds>", "when stderr is not a terminal, print a progress line this often", "5")
    .action(
      async (
        files: string[],
        flags: {
          strict?: boolean;
          progressEvery: string;
          db?: string;
          dbDirect?: string;
          ingestOptions: IngestOptions;
        },
      ) => {
        const options: ImportOptions = {
          strict: Boolean(flags.strict),
          progressEvery: seconds(flags.progressEvery, "--progress-every"),
          ingest: flags.ingestOptions,
          hooksFull: new Set(),
        };
        await checkImportFiles(files);
        await withStore(flags, async (store) => {
          const started = Date.now();
          let total = 0;
          // The time reported includes what bulkLoad does after the last file (building the feed indexes; PostgreSQL: its
          // foreign keys too, and VACUUM ANALYZE).
          await store.ingest.bulkLoad(async () => {
            for (const file of files) {
              const spooled = file === "-" && options.strict ? await spoolStdin(io.stdin) : null;
              try {
                const path = spooled?.path ?? (file === "-" ? null : file);
                const s = await importOne(store, file, path, options, io);
                total += s.eventsAdded;
                io.stdout.write(
                  `${file}: ${s.lines} lines, ${s.eventsAdded} events added, ` +
                    `${s.eventsSkipped} already present, ${s.malformed} malformed lines skipped\n`,
                );
              } finally {
                await spooled?.cleanup();
              }
            }
          }, stepProgress(io));
          const ms = Date.now() - started;
          io.stdout.write(
            `imported ${total} events in ${(ms / 1000).toFixed(1)} s (${perSecond(total, ms)} events/s)\n`,
          );
          io.stderr.write(fullQueuesNote(options.hooksFull));
        });
      },
    );
}
