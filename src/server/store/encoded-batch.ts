/**
 * Running an EncodedBatch's decoder (ingest-store.ts) on this thread: in SQLite's write worker, and where a batch
 * must be decoded before the worker takes ingests.
 */
import type { BatchDecoding, EncodedBatch, IngestBatch } from "./ingest-store.js";

/** A generator run to its end at once: on a thread that serves nothing else, or where a turn cannot be let go. */
export function drained<T>(steps: Generator<void, T, void>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** The batch `encoded` holds, decoded on this thread in one go; an input that cannot be decoded throws its failure. */
export async function decoded(encoded: EncodedBatch, now: Date): Promise<IngestBatch> {
  const { decodingBatch } = await import(encoded.decoder) as { decodingBatch: BatchDecoding };
  return drained(decodingBatch(encoded.bytes, now));
}
