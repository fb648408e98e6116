/**
 * Parsing a `POST /admin/events` body (services/event-import.ts eventsFromText): NDJSON keeps each event's line, and
 * a large body is parsed a few milliseconds at a time, so the polls that arrive meanwhile are answered in between.
 * eventsFromBytes, which splits NDJSON into lines before decoding them, gives what eventsFromText gives, or hands
 * the body to it.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { eventsFromBytes, eventsFromText, type IngestBody } from "../../../src/server/services/event-import.js";
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

test("a large body lets the event loop turn while it is parsed", async () => {
  const lines = sampleLines();
  const body = Array.from({ length: 4 }, () => lines.join("\n")).join("\n"); // 3,200 GH Archive events
  let turned = false;
  setImmediate(() => {
    turned = true;
  });
  const parsed = await eventsFromText(body);
  assert.equal((parsed.events as unknown[]).length, 3200);
  assert.ok(turned, "a callback waiting for the next turn ran before the parse ended");
});

/**
 * An answer as what is stored of each line: eventsFromText keeps a line's text, which the envelope trims, and
 * eventsFromBytes its bytes without JSON's whitespace around them.
 */
function asStored(body: IngestBody) {
  return { events: body.events, lines: body.lines?.map((line) => typeof line === "string" ? line.trim() : Buffer.from(line).toString("utf8")) ?? null };
}

/** What eventsFromText does with the text: its answer, as stored, or its refusal's field. */
async function fromText(text: string) {
  return eventsFromText(text).then(asStored, (error: { field?: string }) => ({ refused: error.field }));
}

/** What eventsFromBytes does with the text's bytes: null, its answer, as stored, or its refusal's field. */
async function fromBytes(body: Buffer) {
  return eventsFromBytes(body).then((answer) => answer && asStored(answer), (error: { field?: string }) => ({ refused: error.field }));
}

test("eventsFromBytes gives eventsFromText's answer for NDJSON that starts with an object (each line's bytes, without the whitespace around them), and leaves every other body to it", async () => {
  const [a, b] = sampleLines();
  const cases: [string, boolean][] = [
    [`${a}\n${b}`, true], [`\r\n \t${a}\r\n\r\n${b}\r\n`, true], [`${a}\n{not json\n${b}`, true], ["{}\n\u00a0\n{\"é\": \"日本\"}", true],
    [`[${a}]`, false], [" \n[]", false], ["", false], ["\n \n", false], [`\ufeff${a}`, false], [`\u00a0${a}`, false], ["null", false],
  ];
  for (const [text, split] of cases) {
    const bytes = await fromBytes(Buffer.from(text));
    if (split) assert.deepEqual(bytes, await fromText(text), JSON.stringify(text));
    else assert.equal(bytes, null, JSON.stringify(text));
  }
  // Any text: lines of objects, blank lines, broken lines and whitespace, in any order, with any characters.
  const line = fc.oneof(fc.constant(a!), fc.json().map((json) => `{"v":${json}}`), fc.string({ unit: "binary" }), fc.constantFrom("", " ", "\r", "\t"));
  await fc.assert(fc.asyncProperty(fc.array(line, { maxLength: 8 }), async (lines) => {
    const body = Buffer.from(lines.join("\n"));
    const bytes = await fromBytes(body);
    // The text the bytes carry: a lone surrogate has no UTF-8 of its own, and went as U+FFFD.
    if (bytes !== null) assert.deepEqual(bytes, await fromText(body.toString("utf8")));
  }));
});
