/**
 * An ingest's error, carried from the write worker to the caller as the error the caller would have got had the
 * ingest run on its own thread: a structured clone keeps an Error's message but not its class or fields, and the
 * API tells a conflict (422) from an outage (503) from a bug (500) by class and code (sqlite/outage.ts).
 *
 * Not shared: only SQLite has a write worker.
 */
import Database from "better-sqlite3";
import {
  StoreUnavailableError,
  carriedFailure,
  FeedgateFailure,
  uncarriedFailure,
  type CarriedFailure,
} from "../../failures.js";
import { IngestConflictError } from "../ingest-store.js";

export type CarriedError =
  | { kind: "sqlite"; message: string; code: string }
  | { kind: "conflict"; field: string; problem: string }
  // A batch decoded in the worker (encoded-batch.ts) refused for its input: an entry that is not JSON, a bad envelope.
  | { kind: "failure"; failure: CarriedFailure }
  | { kind: "other"; name: string; message: string; stack: string | undefined };

export function carry(error: unknown): CarriedError {
  // The executor's outage (sqlite/executor.ts) goes as SQLite's error: the caller's store maps it again.
  if (error instanceof StoreUnavailableError && error.cause instanceof Database.SqliteError) return carry(error.cause);
  if (error instanceof Database.SqliteError) return { kind: "sqlite", message: error.message, code: error.code };
  if (error instanceof IngestConflictError)
    return { kind: "conflict", field: error.field ?? "", problem: error.problem };
  if (error instanceof FeedgateFailure) return { kind: "failure", failure: carriedFailure(error) };
  const e = error instanceof Error ? error : new Error(String(error));
  return { kind: "other", name: e.name, message: e.message, stack: e.stack };
}

export function uncarry(carried: CarriedError): Error {
  switch (carried.kind) {
    case "sqlite":
      return new Database.SqliteError(carried.message, carried.code);
    case "conflict":
      return new IngestConflictError(carried.field, carried.problem);
    case "failure":
      return (
        uncarriedFailure(carried.failure) ??
        uncarry({ kind: "other", name: carried.failure.name, message: carried.failure.problem, stack: undefined })
      );
    case "other": {
      const error = new Error(carried.message);
      error.name = carried.name;
      if (carried.stack !== undefined) error.stack = carried.stack; // where it was thrown, in the worker
      return error;
    }
  }
}
