/**
 * Running an EncodedBatch's decoder (ingest-store.ts) on the thread that writes: SQLite's write worker, or the calling
 * thread while the worker starts and during a bulk load.
 */
import type { BatchDecoding, EncodedBatch, IngestBatch } from "./ingest-store.js";
import { importModule } from "../built-tree.js";

/** A generator run to its end at once: on a thread that serves nothing else, or where a turn cannot be let go. */
export function drained<T>(steps: Generator<void, T, void>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** Decoders by module URL, imported once: each import() of a loaded module still resolves its URL again. */
const decoders = new Map<string, Promise<BatchDecoding>>();

/**
 * The batch to write: `batch` itself, or the one an encoded batch holds, decoded on this thread in one go (an input
 * that cannot be decoded throws its failure).
 */
export async function plainBatch(batch: IngestBatch | EncodedBatch, now: Date): Promise<IngestBatch> {
  if (!("decoder" in batch)) return batch;
  let decoder = decoders.get(batch.decoder);
  if (!decoder) {
    decoder = importModule(batch.decoder).then((module) => (module as { decodingBatch: BatchDecoding }).decodingBatch);
    decoders.set(batch.decoder, decoder);
  }
  return drained((await decoder)(batch.bytes, now));
}
