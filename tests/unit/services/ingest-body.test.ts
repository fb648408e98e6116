/**
 * Parsing a `POST /admin/events` body (services/event-import.ts eventsFromText): NDJSON keeps each event's line, and
 * a large body is parsed a few milliseconds at a time, so the polls that arrive meanwhile are answered in between.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { eventsFromText } from "../../../src/server/services/event-import.js";
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
