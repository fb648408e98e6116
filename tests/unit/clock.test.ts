/**
 * ManualClock (src/server/clock.ts): what waits for a time is told of every move, and of nothing else. A reset that
 * finds the clock where it began wakes nobody (issue 47: a test double's reset woke the webhook dispatcher to ask the
 * database for nothing new, five times the cost of putting its rows back).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ManualClock } from "../../src/server/clock.js";

describe("ManualClock", () => {
  const start = new Date("2026-02-01T00:00:00Z");

  it("tells its listeners of each move, and a reset back to the start is one", () => {
    const clock = new ManualClock(start);
    let moves = 0;
    clock.onMove(() => moves++);
    clock.advance("1h");
    assert.equal(moves, 1);
    assert.equal(clock.now().toISOString(), "2026-02-01T01:00:00.000Z");
    clock.reset();
    assert.equal(moves, 2);
    assert.equal(clock.now().getTime(), start.getTime());
  });

  it("tells nobody when a reset finds it at its start", () => {
    const clock = new ManualClock(start);
    let moves = 0;
    clock.onMove(() => moves++);
    clock.reset();
    clock.set(new Date(start));
    assert.equal(moves, 1, "set() is a move even to the same time: only reset() looks");
    clock.reset();
    assert.equal(moves, 1);
  });
});
