/**
 * A run whose attempts cannot be recorded (the database refused the write) gives its claims back: the deliveries are
 * sent again at the next claim, not when their 60 s lease runs out, which on a clock that stands still (a test's) is
 * never. Delivery stays at least once: the receiver sees the unrecorded attempt and the recorded one. On the test
 * double (a database in memory: no write worker, whose routing of the records would pass the refusal by).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { startFeedgate } from "../../src/testing/index.js";
import { StoreUnavailableError } from "../../src/server/failures.js";

test("a run not recorded is claimed and sent again at once, with the clock standing still", async () => {
  await using fg = await startFeedgate({
    world: { users: [{ login: "alice" }], repos: [{ full_name: "alice/hello" }] },
    now: "2026-01-15T10:00:00Z",
  });
  const receiver = await fg.receiver();
  const created = await fg.fetch(`${fg.url}/repos/alice/hello/hooks`, {
    method: "POST",
    headers: { authorization: `token ${await fg.token("alice")}` },
    body: JSON.stringify({ config: { url: receiver.url, content_type: "json" }, events: ["push"] }),
  });
  assert.equal(created.status, 201, await created.clone().text());
  await receiver.next({ event: "ping" });
  const hooks = fg.store.hooks;
  const finishAll = hooks.finishAll.bind(hooks);
  let refused = 0;
  hooks.finishAll = async (attempts, released) => {
    if (attempts.some((a) => a.attempt.event === "push") && refused === 0) {
      refused++;
      throw new StoreUnavailableError("the database", new Error("gone while recording"));
    }
    return finishAll(attempts, released);
  };
  await fg.ingest([
    {
      id: "80001",
      type: "PushEvent",
      actor: { login: "alice" },
      repo: { name: "alice/hello" },
      payload: { ref: "refs/heads/main", head: "head-80001", before: "000", commits: [] },
      created_at: "2026-01-15T10:00:00Z",
    },
  ]);
  const first = await receiver.next({ event: "push" });
  const again = await receiver.next({ event: "push" });
  assert.equal(refused, 1);
  assert.equal(first.guid, again.guid, "the same delivery again");
});
