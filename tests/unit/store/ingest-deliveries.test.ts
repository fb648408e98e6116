/** The webhook fan-out of an ingest (src/server/store/ingest-deliveries.ts), without a database. */
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { fanOut, queueDeliveries, type AddedEvent, type Queued } from "../../../src/server/store/ingest-deliveries.js";
import { runProgram, type HookTarget, type IngestProgram } from "../../../src/server/store/ingest-protocol.js";
import { MemoryIngest } from "./memory-ingest-driver.js";

const push = (id: string, repoId: number | null = 10): AddedEvent => ({ id, type: "PushEvent", repoId });
const hook = (hookId: number, events: string[], repoId = 10, queued = 0): HookTarget => ({
  repoId,
  hookId,
  events,
  queued,
  installationId: null,
});

/** GUIDs in the order asked: g1, g2, ... */
function guids() {
  let n = 0;
  return () => `g${++n}`;
}

describe("fanOut", () => {
  test("delivers an event to every hook of its repository that subscribes to its webhook name, with one GUID shared", () => {
    const { rows, full } = fanOut([push("1")], [hook(1, ["push"]), hook(2, ["*"]), hook(3, ["issues"])], 100, guids());
    assert.deepEqual(rows, [
      { hookId: 1, guid: "g1", event: "push", eventId: "1", installationId: null },
      { hookId: 2, guid: "g1", event: "push", eventId: "1", installationId: null },
    ]);
    assert.deepEqual(full, []);
  });

  test("a delivery to an app's hook names the installation it is for", () => {
    const installed = { ...hook(4, ["push"]), installationId: 77 };
    const { rows } = fanOut([push("1")], [hook(1, ["push"]), installed], 100, guids());
    assert.deepEqual(
      rows.map((r) => [r.hookId, r.installationId]),
      [
        [1, null],
        [4, 77],
      ],
    );
  });

  test("gives each event its own GUID, and keeps the events' order", () => {
    const { rows } = fanOut([push("1"), push("2")], [hook(1, ["push"])], 100, guids());
    assert.deepEqual(
      rows.map((r) => [r.eventId, r.guid]),
      [
        ["1", "g1"],
        ["2", "g2"],
      ],
    );
  });

  test("sends a star as GitHub's `watch` webhook", () => {
    const { rows } = fanOut([{ id: "1", type: "WatchEvent", repoId: 10 }], [hook(1, ["watch"])], 100, guids());
    assert.deepEqual(
      rows.map((r) => r.event),
      ["watch"],
    );
  });

  test("delivers nothing of an event type that has no webhook, even to a hook subscribed to everything", () => {
    assert.deepEqual(fanOut([{ id: "1", type: "GistEvent", repoId: 10 }], [hook(1, ["*"])], 100, guids()).rows, []);
  });

  test("delivers an event only to the hooks of its own repository, and nothing of an event without one", () => {
    const { rows } = fanOut(
      [push("1", 10), push("2", 20), push("3", null)],
      [hook(1, ["*"], 10), hook(2, ["*"], 30)],
      100,
      guids(),
    );
    assert.deepEqual(
      rows.map((r) => [r.hookId, r.eventId]),
      [[1, "1"]],
    );
  });

  test("a hook whose queue is full gets no more, counting what this batch queued, and is named once", () => {
    const { rows, full } = fanOut(
      [push("1"), push("2"), push("3")],
      [hook(1, ["push"], 10, 1), hook(2, ["push"], 10, 0)],
      2,
      guids(),
    );
    assert.deepEqual(
      rows.map((r) => [r.hookId, r.eventId]),
      [
        [1, "1"],
        [2, "1"],
        [2, "2"],
      ],
    );
    assert.deepEqual(full, [1, 2]);
  });
});

describe("queueDeliveries", () => {
  /** Runs the step as a whole program would, against a driver that knows `hooks`. */
  function run(events: AddedEvent[], added: string[], hooks: HookTarget[], maxQueue = 100) {
    const memory = new MemoryIngest();
    memory.hooks = hooks;
    let queued: Queued = { deliveries: -1, full: [] };
    const program = (function* () {
      queued = yield* queueDeliveries(events, added, maxQueue, new Date(0));
      return {
        eventsAdded: 0,
        eventsSkipped: 0,
        issueEventsAdded: 0,
        issueEventsSkipped: 0,
        usersAdded: 0,
        organizationsAdded: 0,
        reposAdded: 0,
        tokensAdded: 0,
      };
    })() satisfies IngestProgram;
    runProgram(program, memory.driver);
    return { memory, ...queued };
  }

  test("queues only the events the ingest added, asking once for the hooks of their repositories", () => {
    const { memory } = run(
      [push("1", 10), push("2", 10), push("3", 20)],
      ["1", "3"],
      [hook(1, ["push"], 10), hook(2, ["push"], 20)],
    );
    assert.deepEqual(
      memory.asked("findHookTargets").map((o) => o.repoIds),
      [[10, 20]],
    );
    assert.deepEqual(
      memory.queued.map((d) => [d.hookId, d.eventId]),
      [
        [1, "1"],
        [2, "3"],
      ],
    );
  });

  test("answers how many deliveries it queued, none when nothing was added or no hook subscribes", () => {
    assert.equal(
      run([push("1", 10), push("2", 10)], ["1", "2"], [hook(1, ["push"], 10), hook(2, ["*"], 10)]).deliveries,
      4,
    );
    assert.equal(run([push("1")], [], [hook(1, ["push"])]).deliveries, 0);
    assert.equal(run([push("1")], ["1"], [hook(1, ["issues"])]).deliveries, 0);
  });

  test("asks nothing when no event was added", () => {
    const { memory } = run([push("1")], [], [hook(1, ["push"])]);
    assert.deepEqual(memory.ops, []);
  });

  test("queues nothing when no hook subscribes, and answers the hooks found full", () => {
    const quiet = run([push("1")], ["1"], [hook(1, ["issues"])]);
    assert.deepEqual(quiet.memory.asked("queueDeliveries"), []);
    const full = run([push("1")], ["1"], [hook(1, ["push"], 10, 5)], 5);
    assert.deepEqual(full.memory.asked("queueDeliveries"), []);
    assert.deepEqual(full.full, [1]);
  });
});
