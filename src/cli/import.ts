/**
 * `feedgate import <file|->...`: stream GH Archive NDJSON (plain or gzip) into the store with a progress bar.
 * With --strict, each source is checked in full before anything from it is written; standard input is
 * spooled to a temporary file for that, since it cannot be read twice.
 */
import { createReadStream, createWriteStream } from "node:fs";
import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pipeline } from "node:stream/promises";
import type { Command } from "commander";
import { SingleBar } from "cli-progress";
import { importEvents, validateEvents, type ImportSummary } from "../server/services/event-import.js";
import { ndjsonFromStream, type NdjsonSource } from "../server/services/ndjson.js";
import type { Store } from "../server/store/store.js";
import type { CliIo } from "./io.js";
import { dbOption, withStore } from "./options.js";
import { checkImportFiles } from "./import-files.js";

const megabytes = (bytes: number) => `${(bytes / 1048576).toFixed(1)} MB`;

async function importOne(store: Store, name: string, path: string | null, strict: boolean, io: CliIo)
  : Promise<ImportSummary> {
  // Sources are named as the operator typed them: a spooled stdin reports `-:2`, not its temporary file.
  const open = (): NdjsonSource => (path === null ? ndjsonFromStream("-", io.stdin) : ndjsonFromStream(name, createReadStream(path)));
  if (strict) await validateEvents(open());

  const size = path === null ? 0 : (await stat(path)).size;
  const bar = new SingleBar({
    format: `${name} [{bar}] {events} events | {rate} events/s | {read} of {size}`,
    hideCursor: true,
    stream: io.stderr,
  });
  const started = Date.now();
  bar.start(Math.max(size, 1), 0, { events: 0, rate: 0, read: megabytes(0), size: size ? megabytes(size) : "?" });
  try {
    return await importEvents(store, open(), {
      strict,
      onProgress: ({ events, bytes }) => {
        const seconds = Math.max((Date.now() - started) / 1000, 0.001);
        bar.update(size ? bytes : 0, { events, rate: Math.round(events / seconds), read: megabytes(bytes) });
      },
      // The message already starts with the place (`file:3: ...` or `file:3.repo.name: ...`): cutting a fixed
      // `where: ` off it mangled the second form into `file:3: epo.name: ...`.
      onMalformed: (_where, message) => io.stderr.write(`\nskipped ${message}\n`),
    }, () => new Date());
  } finally {
    bar.stop();
  }
}

/** Standard input, copied to a file so a strict import can read it twice. */
async function spoolStdin(stdin: CliIo["stdin"]): Promise<{ path: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), "feedgate-import-"));
  const path = join(dir, "stdin");
  await pipeline(stdin, createWriteStream(path));
  return { path, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

export function importCommand(program: Command, io: CliIo): void {
  const command = program.command("import <files...>")
    .description("import GH Archive NDJSON files (plain or .gz; - for stdin)");
  dbOption(command, io.env)
    .option("--strict", "abort a file at its first malformed line, writing nothing from it")
    .action(async (files: string[], options) => {
      await checkImportFiles(files);
      await withStore(options, async (store) => {
        const started = Date.now();
        let total = 0;
        // The time reported includes what bulkLoad does after the last file (SQLite: rebuilding feed indexes).
        await store.ingest.bulkLoad(async () => {
          for (const file of files) {
            const spooled = file === "-" && options.strict ? await spoolStdin(io.stdin) : null;
            try {
              const path = spooled?.path ?? (file === "-" ? null : file);
              const s = await importOne(store, file, path, Boolean(options.strict), io);
              total += s.eventsAdded;
              io.stdout.write(`${file}: ${s.lines} lines, ${s.eventsAdded} events added, ` +
                `${s.eventsSkipped} already present, ${s.malformed} malformed lines skipped\n`);
            } finally {
              await spooled?.cleanup();
            }
          }
        });
        const seconds = (Date.now() - started) / 1000;
        io.stdout.write(`imported ${total} events in ${seconds.toFixed(1)} s ` +
          `(${Math.round(total / Math.max(seconds, 0.001))} events/s)\n`);
      });
    });
}
