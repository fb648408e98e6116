/** StalePages alone: a page is answered within the window after its last confirmation, with its age, and never after. */
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { ManualClock } from "../../../src/server/clock.js";
import { StalePages, type StalePage } from "../../../src/server/services/stale-pages.js";

const page = (text: string): StalePage => ({
  body: Buffer.from(text),
  contentType: "application/json; charset=utf-8",
  etag: `"${text}"`,
  link: undefined,
  pollInterval: "60",
  lastModified: null,
});

describe("stale pages", () => {
  test("answers a page with its age in whole seconds until the window has passed, then forgets it", () => {
    const clock = new ManualClock(new Date("2026-01-15T10:00:00Z"));
    const pages = new StalePages(60_000, 1024 * 1024, clock.now);
    pages.record("a", page("[1]"));
    clock.advance(59_999);
    assert.equal(pages.answer("a")?.ageSeconds, 59);
    assert.equal(pages.answer("a")?.body.toString(), "[1]");
    clock.advance(2);
    assert.equal(pages.answer("a"), null);
    clock.set(new Date("2026-01-15T10:00:00Z"));
    assert.equal(pages.answer("a"), null, "an expired page is gone, not hidden");
  });

  test("a page recorded again (the database confirmed it) starts its window again", () => {
    const clock = new ManualClock(new Date("2026-01-15T10:00:00Z"));
    const pages = new StalePages(60_000, 1024 * 1024, clock.now);
    pages.record("a", page("[1]"));
    clock.advance(50_000);
    pages.record("a", page("[2]"));
    clock.advance(50_000);
    assert.deepEqual([pages.answer("a")?.etag, pages.answer("a")?.ageSeconds], ['"[2]"', 50]);
    assert.equal(pages.answer("b"), null, "a key never recorded");
  });

  test("confirm restarts the window of an unchanged page and refuses a changed or missing one", () => {
    const clock = new ManualClock(new Date("2026-01-15T10:00:00Z"));
    const pages = new StalePages(60_000, 1024 * 1024, clock.now);
    assert.equal(pages.confirm("a", '"[1]"'), false, "nothing kept yet");
    pages.record("a", page("[1]"));
    clock.advance(50_000);
    assert.equal(pages.confirm("a", '"[2]"'), false, "another ETag is a new page, for record");
    assert.equal(pages.confirm("a", '"[1]"'), true);
    clock.advance(50_000);
    assert.deepEqual([pages.answer("a")?.etag, pages.answer("a")?.ageSeconds], ['"[1]"', 50]);
  });

  test("a window of 0, or no memory for pages, keeps nothing", () => {
    const clock = new ManualClock();
    for (const pages of [new StalePages(0, 1024, clock.now), new StalePages(60_000, 0, clock.now)]) {
      pages.record("a", page("[1]"));
      assert.equal(pages.enabled, false);
      assert.equal(pages.answer("a"), null);
    }
  });
});
