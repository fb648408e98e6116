/**
 * Parsing a `POST /admin/events` body (services/ingest-body.ts eventsFromText): NDJSON keeps each event's line, and
 * a large body is parsed a few milliseconds at a time, so the polls that arrive meanwhile are answered in between.
 * decodingBatch, which splits NDJSON into lines before decoding them (in SQLite's write worker), gives the batch the
 * text's events give, or refuses the body as they do; isNdjsonOfObjects leaves every other body to eventsFromText.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import {
  batchOfEvents,
  decodingBatch,
  eventsFromText,
  inSlices,
  isNdjsonOfObjects,
} from "../../../src/server/services/ingest-body.js";
import { drained } from "../../../src/server/store/encoded-batch.js";
import type { IngestBatch } from "../../../src/server/store/store.js";
import { UnparsableEntryError } from "../../../src/server/failures.js";
import { sampleLines } from "../../helpers/ingest-fixtures.js";

test("an NDJSON body gives each event with its line, blank lines skipped; a JSON array gives no lines", async () => {
  const [a, b] = sampleLines();
  const parsed = await eventsFromText(`\n${a}\n\n${b}\n`);
  assert.deepEqual(parsed.events, [JSON.parse(a!), JSON.parse(b!)]);
  assert.deepEqual(parsed.lines, [a, b]);
  assert.deepEqual(await eventsFromText(`[${a}]`), { events: [JSON.parse(a!)], lines: null });
});

test("a bad line is refused by its number as sent, blank lines counted", async () => {
  await assert.rejects(eventsFromText(`\n${sampleLines()[0]}\n{not json`), { field: "line 3" });
});

test("a large body lets the event loop turn while it is parsed, as text or decoded from its bytes on the event loop", async () => {
  const lines = sampleLines();
  const body = Array.from({ length: 4 }, () => lines.join("\n")).join("\n"); // 3,200 GH Archive events
  const turnsWhile = async <T>(work: () => Promise<T>) => {
    let turned = false;
    setImmediate(() => {
      turned = true;
    });
    return { result: await work(), turned };
  };
  const text = await turnsWhile(() => eventsFromText(body));
  assert.equal((text.result.events as unknown[]).length, 3200);
  assert.ok(text.turned, "a callback waiting for the next turn ran before the parse ended");
  // What a store without a write worker (PostgreSQL) does with an NDJSON body.
  const bytes = await turnsWhile(() => inSlices(decodingBatch(Buffer.from(body), NOW)));
  assert.equal(bytes.result.events.length, 3200);
  assert.ok(bytes.turned, "a callback waiting for the next turn ran before the decoding ended");
});

const NOW = new Date("2026-11-29T06:00:00Z");

/** A batch with each event's body as the text stored: eventsFromText keeps a line's text, decodingBatch its bytes. */
function asStored(batch: IngestBatch) {
  return {
    ...batch,
    events: batch.events.map((e) => ({
      ...e,
      body: typeof e.body === "string" ? e.body : Buffer.from(e.body).toString("utf8"),
    })),
  };
}

/** How a refusal answers: the entry it names, and whether it was for JSON (400) or for the entry (422). */
const refusal = (error: unknown) => ({
  refused: (error as { field?: string }).field,
  unparsable: error instanceof UnparsableEntryError,
});

/** The batch the text's events make (eventsFromText, then the envelopes), as stored, or its refusal. */
async function fromText(text: string) {
  try {
    const { events, lines } = await eventsFromText(text);
    return Array.isArray(events)
      ? asStored(drained(batchOfEvents(events, lines ?? undefined, NOW)))
      : { notAnArray: true };
  } catch (error) {
    return refusal(error);
  }
}

/** What decodingBatch makes of the text's bytes: null for a body it does not take, its batch as stored, or its refusal. */
async function fromBytes(body: Buffer) {
  if (!isNdjsonOfObjects(body)) return null;
  return inSlices(decodingBatch(body, NOW)).then(asStored, refusal);
}

test("decodingBatch gives the batch of eventsFromText's events for NDJSON that starts with an object (each line's bytes, without the whitespace around them), refuses what it refuses, and leaves every other body to it", async () => {
  const [a, b] = sampleLines();
  const cases: [string, boolean][] = [
    [`${a}\n${b}`, true],
    [`\r\n \t${a}\r\n\r\n${b}\r\n`, true],
    [`${a}\n{not json\n${b}`, true],
    ['{}\n\u00a0\n{"é": "日本"}', true],
    [`{"id": "1"}\n${a}\n{not json`, true],
    [`${a}\n{"id": "2", "type": "WatchEvent", "actor": {"login": "x"}, "repo": {"name": "x/y"}}`, true],
    [`[${a}]`, false],
    [" \n[]", false],
    ["", false],
    ["\n \n", false],
    [`\ufeff${a}`, false],
    [`\u00a0${a}`, false],
    ["null", false],
  ];
  for (const [text, split] of cases) {
    const bytes = await fromBytes(Buffer.from(text));
    if (split) assert.deepEqual(bytes, await fromText(text), JSON.stringify(text));
    else assert.equal(bytes, null, JSON.stringify(text));
  }
  // A line that is not JSON is what refuses a body that has a bad envelope too, whichever comes first.
  assert.deepEqual(await fromBytes(Buffer.from(`{"id": "1"}\n${a}\n{not json`)), {
    refused: "line 3",
    unparsable: true,
  });
  // Any text: lines of objects, blank lines, broken lines and whitespace, in any order, with any characters.
  const line = fc.oneof(
    fc.constant(a!),
    fc.json().map((json) => `{"v":${json}}`),
    fc.string({ unit: "binary" }),
    fc.constantFrom("", " ", "\r", "\t"),
  );
  await fc.assert(
    fc.asyncProperty(fc.array(line, { maxLength: 8 }), async (lines) => {
      const body = Buffer.from(lines.join("\n"));
      const bytes = await fromBytes(body);
      // The text the bytes carry: a lone surrogate has no UTF-8 of its own, and went as U+FFFD.
      if (bytes !== null) assert.deepEqual(bytes, await fromText(body.toString("utf8")));
    }),
  );
});
