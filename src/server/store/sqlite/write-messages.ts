/**
 * What the main thread and the write worker (write-worker.ts) send each other: structured clones, Dates kept.
 *
 * Not shared: only SQLite has a write worker.
 */
import type { HookStore } from "../hook-store.js";
import type { EncodedBatch, IngestBatch, IngestOptions } from "../ingest-store.js";
import type { CarriedError } from "./worker-errors.js";

export interface WriteWorkerData {
  path: string;
  busyTimeoutMs: number;
}

export interface IngestRequest {
  id: number;
  /** Decoded here, or in the worker (an NDJSON body as received). */
  batch: IngestBatch | EncodedBatch;
  now: Date;
  options: IngestOptions | undefined;
}

/** The webhook outbox's writes that the dispatcher makes all the time: its claims, and each run's attempts recorded. */
export type OutboxOp = "claim" | "finishAll";

/** One of them, run on the worker's connection (../hooks.ts) as it would have run on the main thread's. */
export type OutboxCall = { [Op in OutboxOp]: { op: Op; args: Parameters<HookStore[Op]> } }[OutboxOp];

export interface OutboxRequest {
  id: number;
  outbox: OutboxCall;
}

export type WriteRequest = IngestRequest | OutboxRequest;

/** The answer to a request of that id: its result (an IngestResult, or the outbox call's), or its error. */
export type WriteReply = { id: number; result: unknown; error?: undefined } | { id: number; error: CarriedError };
