/**
 * A decoder of encoded batches (store/encoded-batch.ts) for tests of where decoding runs: the bytes are one event's
 * id, and the event's body says whether the main thread decoded it.
 */
import { isMainThread } from "node:worker_threads";
import type { IngestBatch } from "../../src/server/store/store.js";
import { emptyBatch } from "../../src/server/services/event-envelope.js";

export const THREAD_NAMING_DECODER = import.meta.url;

export function* decodingBatch(bytes: Uint8Array, now: Date): Generator<void, IngestBatch, void> {
  yield;
  const id = Buffer.from(bytes).toString("utf8");
  const batch = emptyBatch();
  batch.events.push({
    source: "events[0]",
    id,
    type: "WatchEvent",
    actorLogin: "alice",
    repoName: "alice/tools",
    orgLogin: null,
    public: true,
    createdAt: now,
    complete: true,
    body: JSON.stringify({ id, decodedOnMainThread: isMainThread }),
  });
  return batch;
}
