/** What the main thread and the write worker (write-worker.ts) send each other: structured clones, Dates kept. */
import type { EncodedBatch, IngestBatch, IngestOptions, IngestResult } from "../ingest-store.js";
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

export type IngestReply = { id: number; result: IngestResult; error?: undefined } | { id: number; error: CarriedError };
