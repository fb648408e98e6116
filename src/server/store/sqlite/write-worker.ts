/**
 * The write worker's thread (started by ingest-worker.ts): owns a second connection to the SQLite file and runs
 * each ingest sent to it in one transaction, as the main thread did, so that a large ingest does not hold the
 * event loop that serves polls. The main thread's connection reads meanwhile: WAL lets readers and one writer run
 * side by side. The file is open and migrated already (SqliteStore.open on the main thread).
 */
import { parentPort, workerData } from "node:worker_threads";
import Database from "better-sqlite3";
import { plainBatch } from "../encoded-batch.js";
import { applyingOn } from "./ingest.js";
import { carry } from "./worker-errors.js";
import type { IngestReply, IngestRequest, WriteWorkerData } from "./write-messages.js";

const { path, busyTimeoutMs } = workerData as WriteWorkerData;
const db = new Database(path);
// Waiting for the lock blocks this thread only: the main thread's short writes (tokens, hooks) finish first.
db.pragma(`busy_timeout = ${busyTimeoutMs}`);
db.pragma("journal_mode = WAL");
db.pragma("foreign_keys = ON");
const apply = applyingOn(db);
parentPort!.postMessage("open");

/** The ingests in arrival order: one still waiting for its decoder's module holds those behind it. */
let previous = Promise.resolve();

parentPort!.on("message", (request: IngestRequest) => {
  previous = previous.then(() => answer(request));
});

async function answer({ id, batch, now, options }: IngestRequest): Promise<void> {
  let reply: IngestReply;
  try {
    reply = { id, result: apply(await plainBatch(batch, now), now, options) };
  } catch (error) {
    reply = { id, error: carry(error) };
  }
  parentPort!.postMessage(reply);
}
