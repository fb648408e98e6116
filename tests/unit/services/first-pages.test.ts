/**
 * Merging a first page with the events that arrived since it was read (src/server/services/first-pages.ts): the
 * feeds' order (time, then id, newest first), and a page read late enough to hold some of those events already.
 * Whether the merged page is the feed's page is checked against the store in tests/server/services/feed-totals.test.ts.
 */
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { mergeArrivals } from "../../../src/server/services/first-pages.js";
import type { ArrivedEvent, StoredEvent } from "../../../src/server/store/store.js";

const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 0, minute));
const stored = (id: string, minute: number): StoredEvent => ({
  id,
  body: `{"id":"${id}"}`,
  complete: true,
  createdAt: at(minute),
  actorWireId: null,
  repoWireId: null,
  orgWireId: null,
});
const arrived = (id: string, minute: number, seq: number): ArrivedEvent => ({
  ...stored(id, minute),
  seq,
  type: "PushEvent",
});
const ids = (rows: StoredEvent[]) => rows.map((row) => row.id);

describe("a first page merged with the arrivals since", () => {
  test("newest first by time, then by id as a number (100 after 99), cut at the page size", () => {
    const page = { rows: [stored("100", 5), stored("7", 3)], newest: at(5) };
    const merged = mergeArrivals(page, [arrived("99", 5, 1), arrived("1000", 4, 2), arrived("2", 1, 3)], 3);
    assert.deepEqual(ids(merged.rows), ["100", "99", "1000"]);
    assert.deepEqual(merged.newest, at(5));
    assert.deepEqual(
      Object.keys(merged.rows[1]!).sort(),
      Object.keys(page.rows[0]!).sort(),
      "rows as a feed page has them",
    );
  });

  test("an arrival the page already holds (read after it arrived) is on it once; newest moves with newer arrivals", () => {
    const page = { rows: [stored("12", 9), stored("11", 8)], newest: at(9) };
    const merged = mergeArrivals(page, [arrived("12", 9, 4), arrived("13", 10, 5)], 5);
    assert.deepEqual(ids(merged.rows), ["13", "12", "11"]);
    assert.deepEqual(merged.newest, at(10));
  });
});
