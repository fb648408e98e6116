/**
 * Imports GH Archive NDJSON (the shape of `GET /events`): streamed in batches, each applied in one
 * transaction, so memory stays constant whatever the file's size. Event ids are the key: re-importing adds
 * nothing. Malformed lines are reported and skipped, or, when strict, abort the file with nothing written.
 */
import { performance } from "node:perf_hooks";
import { setImmediate as nextTurn } from "node:timers/promises";
import type { EventCounts, EventText, IngestBatch, IngestOptions, Store } from "../store/store.js";
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
export async function* parsedEvents(source: NdjsonSource, options: Pick<ImportOptions, "strict" | "onMalformed">,
  counts: LineCounts): AsyncIterable<ParsedEvent<string>> {
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
export async function* parsedBatches(source: NdjsonSource, options: Pick<ImportOptions, "strict" | "onMalformed" | "batchSize">)
  : AsyncIterable<ParsedBatch> {
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
export async function applyBatches(store: Store, batches: AsyncIterable<ParsedBatch>,
  options: Pick<ImportOptions, "onProgress" | "ingest" | "onQueueFull">, clock: () => Date): Promise<ImportSummary> {
  const summary: ImportSummary = { lines: 0, malformed: 0, eventsAdded: 0, eventsSkipped: 0, issueEventsAdded: 0, issueEventsSkipped: 0 };
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
export function importEvents(store: Store, source: NdjsonSource, options: ImportOptions, clock: () => Date): Promise<ImportSummary> {
  return applyBatches(store, parsedBatches(source, options), options, clock);
}

/**
 * An HTTP ingest body's entries, and for NDJSON each entry's line: a complete event is stored as its line, as an
 * import stores it. A line is its text, or its bytes when the body was split on them (eventsFromBytes).
 */
export interface IngestBody {
  events: unknown;
  lines: EventText[] | null;
}

/**
 * How long an NDJSON body's parse runs before letting the event loop answer what waits (polls, above all): a body of
 * a hundred GH Archive events took 5-10 ms to parse in one go, which every poll arriving meanwhile waited for.
 */
const PARSE_SLICE_MS = 2;

/** Parses an HTTP ingest body, NDJSON or a JSON array, strictly: any bad entry refuses the whole body. */
export async function eventsFromText(text: string): Promise<IngestBody> {
  const trimmed = text.trim();
  if (trimmed.startsWith("[")) return { events: parseJsonEntry(trimmed, "body"), lines: null };
  // Split the text as sent, not trimmed: leading blank lines still count, so `line N` is the line the client sent.
  return eventsFromLines(text.split("\n").map((line) => ({ text: line, stored: line })));
}

const OPEN_BRACE = 0x7b;
const NEWLINE = 0x0a;
/** The whitespace JSON allows around a value (RFC 8259): space, tab, line feed, carriage return. */
const isJsonSpace = (byte: number) => byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d;

/**
 * eventsFromText for a body as received, when it is NDJSON whose first entry is an object: the lines are split on
 * the bytes and each decoded alone. Decoding a body of a hundred GH Archive events (370 KB) into one string took 3 ms,
 * most of it V8's handling of a string that large (an object of its large-object space, whose garbage only a full
 * collection takes), where its lines one by one took 0.1 ms. Null for any other body (a JSON array, a byte-order mark,
 * blank, not JSON), which eventsFromText of its text parses or refuses. The body must be valid UTF-8 (the caller
 * checks), as a line is decoded leniently; a line feed byte is never part of another character.
 */
export async function eventsFromBytes(body: Buffer): Promise<IngestBody | null> {
  let first = 0;
  while (first < body.length && isJsonSpace(body[first]!)) first++;
  return body[first] === OPEN_BRACE ? eventsFromLines(linesOf(body)) : null;
}

/** A line to parse (`text`), and what is stored of it when its event is complete. */
interface Line {
  text: string;
  stored: EventText;
}

/**
 * A body's lines, each stored as its bytes (a view of the body, JSON's whitespace around it left out), not as the
 * text decoded to parse it: the text is garbage at once, where a hundred lines of text kept until the write worker
 * took the batch were copied by every young-generation collection meanwhile, and copied again (as two-byte strings,
 * twice their size) into the message to the worker, where the views cost one copy of the body.
 */
function* linesOf(body: Buffer): Generator<Line> {
  for (let start = 0; start < body.length;) {
    const feed = body.indexOf(NEWLINE, start);
    const end = feed < 0 ? body.length : feed;
    let first = start;
    let last = end;
    while (first < last && isJsonSpace(body[first]!)) first++;
    while (last > first && isJsonSpace(body[last - 1]!)) last--;
    yield { text: body.toString("utf8", start, end), stored: body.subarray(first, last) };
    start = end + 1;
  }
}

/** NDJSON lines as sent, blank ones skipped but counted, so that `line N` is the line the client sent. */
async function eventsFromLines(all: Iterable<Line>): Promise<IngestBody> {
  const events: unknown[] = [];
  const lines: EventText[] = [];
  let number = 0;
  let sliceStart = performance.now();
  for (const line of all) {
    number++;
    if (line.text.trim() === "") continue;
    events.push(parseJsonEntry(line.text, `line ${number}`));
    lines.push(line.stored);
    if (performance.now() - sliceStart >= PARSE_SLICE_MS) {
      await nextTurn();
      sliceStart = performance.now();
    }
  }
  return { events, lines };
}
