/**
 * Imports GH Archive NDJSON (the shape of `GET /events`): streamed in batches, each applied in one
 * transaction, so memory stays constant whatever the file's size. Event ids are the key: re-importing adds
 * nothing. Malformed lines are reported and skipped, or, when strict, abort the file with nothing written.
 */
import type { EventCounts, IngestBatch, IngestOptions, Store } from "../store/store.js";
import { addEvent, emptyBatch, parseEvent, type ParsedEvent } from "./event-envelope.js";
import { InvalidInputError } from "../failures.js";
import { parseJsonEntry } from "./input-checks.js";
import type { NdjsonLine, NdjsonSource } from "./ndjson.js";

export interface ImportProgress {
  events: number;
  bytes: number;
}

export interface ImportOptions {
  /** Abort at the first malformed line, writing nothing from this source. */
  strict: boolean;
  /** Events per transaction. */
  batchSize?: number;
  onProgress?: (progress: ImportProgress) => void;
  /** Called for each malformed line skipped (never when strict: that throws). */
  onMalformed?: (where: string, message: string) => void;
  /** What the ingests queue for webhooks; the store's default when absent. */
  ingest?: IngestOptions;
  /** Told of each hook whose queue was full (`--webhook-max-queue`). */
  onQueueFull?: (hookId: number) => void;
}

export type ImportSummary = EventCounts & LineCounts;

const DEFAULT_BATCH = 5_000;

/** One NDJSON line as an event, named `source:line` in errors (import files, world `events_files`). */
export function parseLine(source: string, line: NdjsonLine) {
  const where = `${source}:${line.number}`;
  return parseEvent(parseJsonEntry(line.text, where), where, line.text);
}

/** Checks every line of a source without writing: the first pass of a strict import. */
export async function validateEvents(source: NdjsonSource): Promise<void> {
  for await (const line of source.lines) if (line.text.trim() !== "") parseLine(source.name, line);
}

/** Lines read and malformed lines skipped, counted as `parsedEvents` goes. */
export interface LineCounts {
  lines: number;
  malformed: number;
}

/**
 * A source's events, parsed, in the file's order: the line loop `feedgate import` and `feedgate replay` share.
 * Malformed lines are counted and reported and skipped, or, when strict, thrown.
 */
export async function* parsedEvents(
  source: NdjsonSource,
  options: Pick<ImportOptions, "strict" | "onMalformed">,
  counts: LineCounts,
): AsyncIterable<ParsedEvent<string>> {
  for await (const line of source.lines) {
    if (line.text.trim() === "") continue;
    counts.lines += 1;
    let parsed: ParsedEvent<string>;
    try {
      parsed = parseLine(source.name, line);
    } catch (error) {
      if (options.strict || !(error instanceof InvalidInputError)) throw error;
      counts.malformed += 1;
      options.onMalformed?.(`${source.name}:${line.number}`, error.message);
      continue;
    }
    yield parsed;
  }
}

/** One transaction's worth of a source's events, with how far into the source it reaches. */
export interface ParsedBatch {
  batch: IngestBatch;
  /** Bytes of the source read when the batch was cut (compressed bytes for gzip). */
  bytes: number;
  /** Lines read and malformed lines skipped, from the source's start to the batch's last line. */
  counts: LineCounts;
}

/**
 * A source's events in batches of `batchSize`, in the file's order; the last one may hold no event (only the final
 * counts). The parsing half of an import: `feedgate import` runs it in a worker thread (cli/import-worker.ts).
 */
export async function* parsedBatches(
  source: NdjsonSource,
  options: Pick<ImportOptions, "strict" | "onMalformed" | "batchSize">,
): AsyncIterable<ParsedBatch> {
  const counts: LineCounts = { lines: 0, malformed: 0 };
  const batchSize = options.batchSize ?? DEFAULT_BATCH;
  let batch = emptyBatch();
  for await (const parsed of parsedEvents(source, options, counts)) {
    addEvent(batch, parsed);
    if (batch.events.length >= batchSize) {
      yield { batch, bytes: source.bytesRead(), counts: { ...counts } };
      batch = emptyBatch();
    }
  }
  yield { batch, bytes: source.bytesRead(), counts: { ...counts } };
}

/**
 * Applies parsed batches, each in one transaction, in their order: the writing half of an import. A batch is
 * applied while the next is parsed: a database server, or a parsing worker thread, works meanwhile.
 */
export async function applyBatches(
  store: Store,
  batches: AsyncIterable<ParsedBatch>,
  options: Pick<ImportOptions, "onProgress" | "ingest" | "onQueueFull">,
  clock: () => Date,
): Promise<ImportSummary> {
  const summary: ImportSummary = {
    lines: 0,
    malformed: 0,
    eventsAdded: 0,
    eventsSkipped: 0,
    issueEventsAdded: 0,
    issueEventsSkipped: 0,
  };
  // Batches still apply one at a time, in the file's order.
  let applying: Promise<void> = Promise.resolve();
  const apply = async ({ batch, bytes, counts }: ParsedBatch) => {
    await applying;
    Object.assign(summary, counts);
    if (batch.events.length === 0) return;
    applying = store.ingest.apply(batch, clock(), options.ingest).then((result) => {
      for (const hookId of result.hooksFull ?? []) options.onQueueFull?.(hookId);
      summary.eventsAdded += result.eventsAdded;
      summary.eventsSkipped += result.eventsSkipped;
      options.onProgress?.({ events: summary.eventsAdded + summary.eventsSkipped, bytes });
    });
    // Its failure is seen at the next batch; until then, it must not count as unhandled.
    applying.catch(() => {});
  };

  try {
    for await (const parsed of batches) await apply(parsed);
  } finally {
    // Whatever happened, return only once the batch in flight has committed or rolled back.
    await applying.catch(() => {});
  }
  await applying;
  return summary;
}

/** Imports a source parsing it in this thread (what the import's worker thread does, in one thread). */
export function importEvents(
  store: Store,
  source: NdjsonSource,
  options: ImportOptions,
  clock: () => Date,
): Promise<ImportSummary> {
  return applyBatches(store, parsedBatches(source, options), options, clock);
}
