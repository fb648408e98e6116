/**
 * Replays GH Archive events at their recorded pace: each event is due `(created_at - first created_at) / speed`
 * after the start, and every batch is applied through the normal ingest path (one transaction each) when it is
 * due, so whatever watches ingests sees a live flow. Due times are reckoned from the start, never by sleeping a
 * fixed interval after each batch, so the pace does not drift; when ingest is slower than the speed asks, the
 * batches go in back to back and the lateness is reported, never hidden by slowing the clock. A batch of events all
 * stored already adds nothing to watch arrive: it goes in without waiting, and the reckoning starts again from it.
 */
import type { Store } from "../store/store.js";
import { addEvent, emptyBatch, type ParsedEvent } from "./event-envelope.js";
import { parsedEvents, type ImportOptions, type LineCounts } from "./event-import.js";
import type { NdjsonSource } from "./ndjson.js";

export interface ReplayOptions {
  /** Recorded time over wall time; Infinity: as fast as ingest goes. */
  speed: number;
  /** A pause in the recorded events longer than this (ms of recorded time) is cut to it; Infinity: kept. */
  maxGapMs: number;
  /** Stamp each event with the moment it is ingested instead of its recorded time. */
  restamp: boolean;
  /** Give each event a new id (see `freshIds`), so events already stored arrive again. */
  newIds: boolean;
  /** Aborted: stop after the batch being applied, writing nothing more. */
  signal?: AbortSignal;
  /** What "now" is for restamped events, fresh ids and the batches' ingest time; the pacing itself is monotonic. */
  clock: () => Date;
  onBatch?: (progress: ReplayProgress) => void;
  onMalformed?: ImportOptions["onMalformed"];
  ingest?: ImportOptions["ingest"];
  onQueueFull?: ImportOptions["onQueueFull"];
}

export interface ReplayProgress extends LineCounts {
  eventsAdded: number;
  eventsSkipped: number;
  /** Recorded time replayed so far: ms from the first event to the last batch's moment. */
  replayedMs: number;
  /** Of that, the recorded time cut out of pauses longer than maxGapMs. */
  cutMs: number;
  /** Wall time since the start. */
  elapsedMs: number;
  /** How late the last batch went in, and the most any batch was (ms after its due time; 0 when on time). */
  lateMs: number;
  maxLateMs: number;
  /** True when the replay ended early, on `signal`. */
  stopped: boolean;
}

/**
 * Events that are due at one moment go in one transaction, up to this many; a moment with more (GH Archive has
 * about a thousand events a second) is split, so that no one transaction holds a watcher up for long.
 */
const MAX_BATCH = 1000;

/**
 * New event ids for a replay started at `startMs`: the start in Unix milliseconds times a thousand, plus a count.
 * They are 16 digits, above every id GitHub has issued (11 digits in 2025), so a poller that keeps the highest id
 * it has seen takes them as new; they rise in replay order and from one replay to the next, and two replays share
 * none unless one started in the same millisecond or adds more than a million events a second. They stay below
 * 2^53, so JavaScript clients read them exactly.
 */
export function freshIds(startMs: number): () => string {
  let next = Math.floor(startMs) * 1000;
  return () => String(++next);
}

/** GitHub's time format: seconds, UTC, `Z` (`2021-07-21T06:00:00Z`). */
export const githubTime = (at: Date) => at.toISOString().replace(/\.\d{3}Z$/, "Z");

/** Index just past the JSON string that starts at `start` (its opening quote). */
function stringEnd(text: string, start: number): number {
  let i = start + 1;
  while (text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
  return i + 1;
}

/**
 * `json` (an object's text) with the values of some of its top-level keys replaced, every other character kept:
 * an event's body is stored verbatim (payload numbers beyond 2^53 included), which a JSON.parse and stringify
 * would not keep, and `created_at` also appears inside payloads (a comment's), which must stay as recorded.
 */
export function withTopLevelValues(json: string, values: Record<string, string>): string {
  let out = "";
  let copied = 0;
  let depth = 0;
  for (let i = 0; i < json.length; i++) {
    const c = json[i];
    if (c === "{" || c === "[") depth++;
    else if (c === "}" || c === "]") depth--;
    else if (c === '"') {
      const end = stringEnd(json, i);
      let colon = end;
      while (/\s/.test(json[colon] ?? "")) colon++;
      const key = depth === 1 && json[colon] === ":" ? (JSON.parse(json.slice(i, end)) as string) : null;
      if (key !== null && Object.hasOwn(values, key)) {
        let start = colon + 1;
        while (/\s/.test(json[start] ?? "")) start++;
        let stop = start;
        if (json[start] === '"') stop = stringEnd(json, start);
        else while (stop < json.length && !/[,}\s]/.test(json[stop]!)) stop++;
        out += json.slice(copied, start) + values[key];
        copied = stop;
        i = stop - 1;
      } else {
        i = end - 1;
      }
    }
  }
  return out + json.slice(copied);
}

/** The event with a new id and/or creation time, in its stored body as in its columns. */
function reissued(parsed: ParsedEvent<string>, id: string | null, at: Date | null): ParsedEvent<string> {
  const values: Record<string, string> = {};
  if (id !== null) values.id = JSON.stringify(id);
  if (at !== null) values.created_at = JSON.stringify(githubTime(at));
  const insert = parsed.insert;
  return {
    relations: parsed.relations,
    insert: {
      ...insert,
      id: id ?? insert.id,
      createdAt: at ?? insert.createdAt,
      body: withTopLevelValues(insert.body, values),
    },
  };
}

/** Resolves after `ms`, or at once when `signal` aborts. */
function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (ms <= 0 || signal?.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}

/**
 * Whether every event of `events` is stored already (by id), so that applying them adds nothing; stops at the first
 * that is not, so a replay of new events pays one index lookup a batch.
 */
async function allStored(store: Store, events: ParsedEvent[]): Promise<boolean> {
  for (const { insert } of events) if ((await store.events.arrivalOf("events", insert.id)) === null) return false;
  return true;
}

/** How late a batch may go in before it counts as behind: a timer's and a transaction's ordinary jitter is less. */
export const LATE_AFTER_MS = 1000;

/**
 * Replays `sources` in order, as one timeline (hourly files follow one another). Resolves with the final
 * progress once the last batch has committed, or, when `options.signal` aborts, once the batch being applied has.
 */
export async function replayEvents(
  store: Store,
  sources: AsyncIterable<NdjsonSource> | Iterable<NdjsonSource>,
  options: ReplayOptions,
): Promise<ReplayProgress> {
  const started = performance.now();
  const nextId = options.newIds ? freshIds(options.clock().getTime()) : null;
  const progress: ReplayProgress = {
    lines: 0,
    malformed: 0,
    eventsAdded: 0,
    eventsSkipped: 0,
    replayedMs: 0,
    cutMs: 0,
    elapsedMs: 0,
    lateMs: 0,
    maxLateMs: 0,
    stopped: false,
  };
  // The recorded clock: the latest created_at seen. An event earlier than it (GH Archive's files are only roughly
  // in order) is due at once, with the batch pending; a later one starts the next moment.
  let first: number | null = null;
  let clock = 0;
  /** Recorded time cut out of long pauses (maxGapMs). */
  let cut = 0;
  let pending: ParsedEvent<string>[] = [];
  // Due times are reckoned from an anchor: the start and recorded time 0, moved to the end of each batch that added
  // nothing (see flush).
  let anchorWall = started;
  let anchorMs = 0;

  const stopped = () => options.signal?.aborted === true;
  const flush = async () => {
    if (pending.length === 0 || stopped()) return;
    const replayedMs = clock - (first ?? clock);
    // A batch whose every event is stored already adds nothing that anyone watching could see arrive: it goes in at
    // once instead of waiting for its moment (a second replay of a file goes straight through), and the batches after
    // it keep their recorded spacing from it. Fresh ids are always new: no lookup then.
    const addsNothing = nextId === null && (await allStored(store, pending));
    const dueAt = addsNothing ? performance.now() : anchorWall + (replayedMs - cut - anchorMs) / options.speed;
    await sleep(dueAt - performance.now(), options.signal);
    if (stopped()) return;
    const now = options.clock();
    const batch = emptyBatch();
    for (const parsed of pending) {
      addEvent(
        batch,
        nextId || options.restamp ? reissued(parsed, nextId?.() ?? null, options.restamp ? now : null) : parsed,
      );
    }
    pending = [];
    const late = Number.isFinite(options.speed) ? Math.max(0, performance.now() - dueAt) : 0;
    const result = await store.ingest.apply(batch, now, options.ingest);
    for (const hookId of result.hooksFull ?? []) options.onQueueFull?.(hookId);
    progress.eventsAdded += result.eventsAdded;
    progress.eventsSkipped += result.eventsSkipped;
    progress.replayedMs = replayedMs;
    progress.cutMs = cut;
    progress.elapsedMs = performance.now() - started;
    progress.lateMs = late;
    progress.maxLateMs = Math.max(progress.maxLateMs, late);
    if (addsNothing) [anchorWall, anchorMs] = [performance.now(), replayedMs - cut];
    options.onBatch?.({ ...progress });
  };

  replay: for await (const source of sources) {
    for await (const parsed of parsedEvents(source, { strict: false, onMalformed: options.onMalformed }, progress)) {
      const at = parsed.insert.createdAt.getTime();
      if (first === null) first = clock = at;
      if (at > clock) {
        await flush();
        if (stopped()) break replay;
        cut += Math.max(0, at - clock - options.maxGapMs);
        clock = at;
      }
      pending.push(parsed);
      if (pending.length >= MAX_BATCH) await flush();
      if (stopped()) break replay;
    }
  }
  await flush();
  progress.stopped = stopped();
  progress.elapsedMs = performance.now() - started;
  return progress;
}
