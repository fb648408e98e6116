/** The ingest protocol (src/server/store/ingest-protocol.ts): how a program's operations reach a driver and back. */
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  ask,
  runProgram,
  runProgramAsync,
  type AsyncIngestDriver,
  type IngestDriver,
  type IngestProgram,
} from "../../../src/server/store/ingest-protocol.js";
import type { IngestResult } from "../../../src/server/store/ingest-store.js";
import { MemoryIngest } from "./memory-ingest-driver.js";

const RESULT: IngestResult = {
  eventsAdded: 0,
  eventsSkipped: 0,
  issueEventsAdded: 0,
  issueEventsSkipped: 0,
  usersAdded: 0,
  organizationsAdded: 0,
  reposAdded: 0,
  tokensAdded: 0,
};

/** A program that asks for two accounts, inserts the missing one, and reports the ids it got. */
function* program(seen: unknown[]): IngestProgram {
  const found = yield* ask({ op: "findAccounts", logins: ["alice", "bob"] });
  seen.push(found.map((a) => a?.id ?? null));
  const ids = yield* ask({
    op: "insertAccounts",
    rows: [{ login: "bob", type: "User", externalId: null }],
    now: new Date(0),
  });
  seen.push(ids);
  yield* ask({ op: "raiseGeneration", oldestEvent: null, oldestIssueEvent: null });
  return { ...RESULT, usersAdded: ids.length };
}

test("runProgram hands each operation to its handler and its answer back to the program, in order", () => {
  const memory = new MemoryIngest();
  const alice = memory.account("alice");
  const seen: unknown[] = [];
  const result = runProgram(program(seen), memory.driver);
  assert.deepEqual(
    memory.ops.map((o) => o.op),
    ["findAccounts", "insertAccounts", "raiseGeneration"],
  );
  assert.deepEqual(seen, [[alice, null], [memory.accounts.get("bob")!.id]]);
  assert.equal(result.usersAdded, 1);
});

test("runProgramAsync waits for each answer before the program goes on", async () => {
  const memory = new MemoryIngest();
  const alice = memory.account("alice");
  const order: string[] = [];
  // The memory driver's answers, each given a tick later.
  const later = Object.fromEntries(
    Object.entries(memory.driver).map(([name, handle]) => [
      name,
      async (op: never) => {
        await new Promise((resolve) => setImmediate(resolve));
        order.push(name);
        return (handle as (op: never) => unknown)(op);
      },
    ]),
  ) as unknown as AsyncIngestDriver;
  const seen: unknown[] = [];
  const result = await runProgramAsync(program(seen), later);
  assert.deepEqual(order, ["findAccounts", "insertAccounts", "raiseGeneration"]);
  assert.deepEqual(seen, [[alice, null], [memory.accounts.get("bob")!.id]]);
  assert.equal(result.usersAdded, 1);
});

test("an error a handler throws ends the program there, as the driver's transaction then rolls back", () => {
  const memory = new MemoryIngest();
  const failing: IngestDriver = {
    ...memory.driver,
    insertAccounts: () => {
      throw new Error("disk full");
    },
  };
  const seen: unknown[] = [];
  assert.throws(() => runProgram(program(seen), failing), /disk full/);
  assert.equal(seen.length, 1);
  assert.deepEqual(
    memory.ops.map((o) => o.op),
    ["findAccounts"],
  );
});
