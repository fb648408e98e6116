/**
 * A `POST /admin/events` body turned into the batch its ingest applies: NDJSON, each complete event stored as its line
 * (as an import stores it), or a JSON array. Strict: any bad entry refuses the whole body, an entry that is not JSON
 * with UnparsableEntryError (the API's 400), a bad envelope with InvalidInputError (422). Every entry is parsed before
 * any envelope is checked, so a body with both is refused for the entry that is not JSON.
 *
 * This module is also the decoder SQLite's write worker runs (NDJSON_DECODER; store/encoded-batch.ts): an NDJSON body
 * whose first entry is an object is handed to the worker as its bytes, and only the worker parses it. On the event
 * loop (every other store) the same steps run a few milliseconds at a time (inSlices), and the polls that arrive
 * meanwhile are answered in between.
 */
import { performance } from "node:perf_hooks";
import { setImmediate as nextTurn } from "node:timers/promises";
import type { EventText, IngestBatch } from "../store/store.js";
import { addEvent, createdNowUnlessSaid, emptyBatch, parseEvent } from "./event-envelope.js";
import { parseJsonEntry } from "./input-checks.js";

/** This module, as the decoder an EncodedBatch names: it exports decodingBatch. */
export const NDJSON_DECODER = import.meta.url;

/** A body's entries, and for NDJSON each entry's line: its text, or its bytes when the body was split on them. */
export interface IngestBody {
  events: unknown;
  lines: EventText[] | null;
}

/**
 * How long the work on a body runs on the event loop before letting it answer what waits (polls, above all): parsing
 * a body of a hundred GH Archive events in one go would hold every poll arriving meanwhile for several times this.
 */
const PARSE_SLICE_MS = 2;

/** `steps` run to their end, the event loop let turn every PARSE_SLICE_MS. */
export async function inSlices<T>(steps: Generator<void, T, void>): Promise<T> {
  let sliceStart = performance.now();
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    if (performance.now() - sliceStart >= PARSE_SLICE_MS) {
      await nextTurn();
      sliceStart = performance.now();
    }
  }
}

/** A body's entries from its text, NDJSON or a JSON array (the events of a body isNdjsonOfObjects does not take). */
export async function eventsFromText(text: string): Promise<IngestBody> {
  const trimmed = text.trim();
  if (trimmed.startsWith("[")) return { events: parseJsonEntry(trimmed, "body"), lines: null };
  // Split the text as sent, not trimmed: leading blank lines still count, so `line N` is the line the client sent.
  return inSlices(parsingLines(text.split("\n").map((line) => ({ text: line, stored: line }))));
}

/**
 * The batch of parsed events: each complete event stored as its line, when there is one; an event without
 * `created_at` is stamped with `now`, one time for the whole body (and then stored normalized, not as its line).
 */
export function* batchOfEvents(
  events: readonly unknown[],
  lines: readonly EventText[] | undefined,
  now: Date,
): Generator<void, IngestBatch, void> {
  const batch = emptyBatch();
  for (const [i, event] of events.entries()) {
    const stamped = createdNowUnlessSaid(event, now);
    addEvent(batch, parseEvent(stamped, `events[${i}]`, stamped === event ? lines?.[i] : undefined));
    yield;
  }
  return batch;
}

const OPEN_BRACE = 0x7b;
const NEWLINE = 0x0a;
/** The whitespace JSON allows around a value (RFC 8259): space, tab, line feed, carriage return. */
const isJsonSpace = (byte: number) => byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d;

/**
 * Whether decodingBatch takes the body as it was received: NDJSON whose first entry is an object. Any other body (a
 * JSON array, a byte-order mark, blank, not JSON) is decoded to text and given to eventsFromText, which parses or
 * refuses it. The body must be valid UTF-8 (the route checks), as each line is decoded leniently.
 */
export function isNdjsonOfObjects(body: Uint8Array): boolean {
  let first = 0;
  while (first < body.length && isJsonSpace(body[first]!)) first++;
  return body[first] === OPEN_BRACE;
}

/**
 * The batch of an NDJSON body that isNdjsonOfObjects, its lines split on the bytes and each decoded alone: decoding a
 * whole body into one string makes a string of V8's large-object space, whose garbage only a full collection takes,
 * and costs far more than its lines one by one. A line feed byte is never part of another character.
 */
export function* decodingBatch(bytes: Uint8Array, now: Date): Generator<void, IngestBatch, void> {
  // A Buffer as received on the main thread; in the write worker, the Uint8Array a message makes of it.
  const body = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const { events, lines } = yield* parsingLines(linesOf(body));
  return yield* batchOfEvents(events, lines, now);
}

/** A line to parse (`text`), and what is stored of it when its event is complete. */
interface Line {
  text: string;
  stored: EventText;
}

/**
 * A body's lines, each stored as its bytes (a view of the body, JSON's whitespace around it left out), not as the
 * text decoded to parse it: the text is garbage at once, where a hundred lines of text kept until the batch was
 * written were copied by every young-generation collection meanwhile.
 */
function* linesOf(body: Buffer): Generator<Line> {
  for (let start = 0; start < body.length; ) {
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
function* parsingLines(all: Iterable<Line>): Generator<void, { events: unknown[]; lines: EventText[] }, void> {
  const events: unknown[] = [];
  const lines: EventText[] = [];
  let number = 0;
  for (const line of all) {
    number++;
    if (line.text.trim() === "") continue;
    events.push(parseJsonEntry(line.text, `line ${number}`));
    lines.push(line.stored);
    yield;
  }
  return { events, lines };
}
