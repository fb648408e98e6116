/**
 * The write worker's thread (started by write-worker-client.ts): owns a second connection to the SQLite file and
 * runs on it each ingest sent to it, in one transaction, as the main thread did, so that a large ingest does not hold
 * the event loop that serves polls; and the webhook dispatcher's writes (its claims, its runs' attempts recorded,
 * their bodies compressed), which in a flood held the loop some 12 ms per run. The main thread's connection reads
 * meanwhile: WAL lets readers and one writer run side by side. The file is open and migrated already
 * (SqliteStore.open on the main thread).
 *
 * Not shared: only SQLite has a write worker.
 */
import { parentPort, workerData } from "node:worker_threads";
import Database from "better-sqlite3";
import { plainBatch } from "../encoded-batch.js";
import { Hooks } from "../hooks.js";
import { SqliteExecutor } from "./executor.js";
import { applyingOn } from "./ingest.js";
import { carry } from "./worker-errors.js";
import type { OutboxCall, WriteReply, WriteRequest, WriteWorkerData } from "./write-messages.js";

const { path, busyTimeoutMs } = workerData as WriteWorkerData;
const db = new Database(path);
// Waiting for the lock blocks this thread only: the main thread's short writes (tokens, hooks) finish first.
db.pragma(`busy_timeout = ${busyTimeoutMs}`);
db.pragma("journal_mode = WAL");
db.pragma("foreign_keys = ON");
const apply = applyingOn(db);
const hooks = new Hooks(new SqliteExecutor(db));
parentPort!.postMessage("open");

/** The requests in arrival order: an ingest still waiting for its decoder's module holds those behind it. */
let previous = Promise.resolve();

parentPort!.on("message", (request: WriteRequest) => {
  previous = previous.then(() => answer(request));
});

/** Each outbox operation by name: another added to OutboxOp does not compile until it is here. */
function run(call: OutboxCall): Promise<unknown> {
  switch (call.op) {
    case "claim":
      return hooks.claim(...call.args);
    case "finishAll":
      return hooks.finishAll(...call.args);
  }
}

async function answer(request: WriteRequest): Promise<void> {
  let reply: WriteReply;
  try {
    const result =
      "outbox" in request
        ? await run(request.outbox)
        : apply(await plainBatch(request.batch, request.now), request.now, request.options);
    reply = { id: request.id, result };
  } catch (error) {
    reply = { id: request.id, error: carry(error) };
  }
  parentPort!.postMessage(reply);
}
