/**
 * What the import's parsing worker (import-worker.ts) and the writer (import-parsing.ts) say to each other. An
 * error crosses as its fields and is raised again on the writer's side as the same kind, with the same message:
 * a bad envelope must still read `file:3.repo.name: must be "owner/name"`.
 */
import type { ParsedBatch } from "../server/services/event-import.js";
import { carriedFailure, FeedgateFailure, uncarriedFailure, type CarriedFailure } from "../server/failures.js";
import { namedIn } from "../server/store/ingest-names.js";

export interface ParserTask {
  /** The source as the operator typed it, for messages. */
  name: string;
  /** The file to read; null for the worker's standard input (the command's, piped to it). */
  path: string | null;
  strict: boolean;
  batchSize?: number;
}

export type ParserMessage =
  | { kind: "checked" } // the strict pass found nothing wrong (sent at once when not strict)
  | { kind: "malformed"; where: string; message: string }
  | { kind: "batch"; parsed: ParsedBatch }
  | { kind: "done" }
  | { kind: "failed"; name: string; message: string; failure?: CarriedFailure; code?: string; stack?: string };

/**
 * A batch as posted: its events' bodies (text in the parser) written as UTF-8 into one buffer, each event keeping a
 * view of its own bytes, and the buffer moved to the writer with the message rather than copied. A structured clone
 * of five thousand strings of a few kilobytes was a fifth of the parser's time, and as much again for the writer to
 * receive and collect; the writer stores the bytes as they are (EventText).
 */
export function batchMessage(parsed: ParsedBatch): { message: ParserMessage; transfer: ArrayBuffer[] } {
  const events = parsed.batch.events;
  let size = 0;
  for (const event of events)
    size += typeof event.body === "string" ? Buffer.byteLength(event.body) : event.body.byteLength;
  const buffer = new ArrayBuffer(size);
  const bytes = Buffer.from(buffer);
  let at = 0;
  for (const event of events) {
    let written = 0;
    if (typeof event.body === "string") {
      written = bytes.write(event.body, at);
    } else {
      bytes.set(event.body, at);
      written = event.body.byteLength;
    }
    event.body = new Uint8Array(buffer, at, written);
    at += written;
  }
  parsed.batch.names = namedIn(parsed.batch);
  return { message: { kind: "batch", parsed }, transfer: [buffer] };
}

export function toParserMessage(error: unknown): ParserMessage {
  if (error instanceof FeedgateFailure)
    return { kind: "failed", name: error.name, message: error.message, failure: carriedFailure(error) };
  const e = error instanceof Error ? error : new Error(String(error));
  return { kind: "failed", name: e.name, message: e.message, code: (e as NodeJS.ErrnoException).code, stack: e.stack };
}

export function fromParserMessage(failed: Extract<ParserMessage, { kind: "failed" }>): Error {
  const failure = failed.failure && uncarriedFailure(failed.failure);
  if (failure) return failure;
  const error = Object.assign(new Error(failed.message), failed.code === undefined ? {} : { code: failed.code });
  error.name = failed.name;
  if (failed.stack) error.stack = failed.stack;
  return error;
}
