/** `--webhook-rate`'s pacing of one hook, on a clock the test sets: slots at the rate, each hook its own. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { HookThrottle } from "../../src/server/webhooks/throttle.js";

test("a hook is sent to at most at the rate; a hook held back waits for its slot; other hooks are not held back", () => {
  const throttle = new HookThrottle(4); // 250 ms apart
  assert.equal(throttle.take(1, 1000), 0);
  assert.equal(throttle.take(1, 1000), 250, "the next slot is 250 ms on");
  assert.equal(throttle.take(2, 1000), 0, "another hook has its own slots");
  assert.equal(throttle.take(1, 1100), 150);
  assert.equal(throttle.take(1, 1250), 0);
  assert.equal(throttle.take(1, 5000), 0, "a quiet hook's next delivery goes at once");
  assert.equal(throttle.take(1, 5000), 250, "but does not bank the slots it did not use");
});

test("no limit (0) never holds a delivery back; fractions of one a second are allowed", () => {
  const open = new HookThrottle(0);
  for (let i = 0; i < 5; i++) assert.equal(open.take(1, 1000), 0);
  const slow = new HookThrottle(0.5);
  assert.equal(slow.take(1, 0), 0);
  assert.equal(slow.take(1, 1), 1999);
});
