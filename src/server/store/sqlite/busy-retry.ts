/**
 * The main thread's connection waits for the write lock without holding the event loop. SQLite's busy timeout
 * waits by sleeping the thread, and the lock is now held by the write worker for each whole ingest (and by any
 * other process sharing the file): a webhook claim or a token written meanwhile would stall every request for as
 * long. So the main connection has no busy timeout, and a call that meets the lock (SQLITE_BUSY: it wrote nothing,
 * a transaction that met it is rolled back) is tried again after a timer, for up to the busy timeout in all; then
 * it fails as it did when SQLite waited itself.
 *
 * Not shared: SQLite's lock is the whole file's; PostgreSQL locks rows and waits in the server.
 */
import type Database from "better-sqlite3";
import { setTimeout as sleep } from "node:timers/promises";
import { SQLITE_BUSY_TIMEOUT_MS } from "./outage.js";
import { wrappingMethods } from "../method-proxy.js";
import { StoreUnavailableError } from "../../failures.js";

/**
 * SQLITE_BUSY and its extended codes (BUSY_SNAPSHOT: a read transaction that cannot become a write one), as SQLite
 * threw it or as the executor mapped it to an outage (its cause).
 */
const isBusy = (error: unknown): boolean =>
  (error as { code?: unknown }).code?.toString().startsWith("SQLITE_BUSY") === true ||
  (error instanceof StoreUnavailableError && isBusy(error.cause));

/** The longest pause between two tries: a short ingest's length, so the lock is taken soon after it is free. */
const MAX_PAUSE_MS = 20;

async function retried<T>(call: () => Promise<T>, first: unknown, budgetMs: number): Promise<T> {
  const started = performance.now();
  let error = first;
  for (
    let pause = 1;
    isBusy(error) && performance.now() - started + pause <= budgetMs;
    pause = Math.min(pause * 2, MAX_PAUSE_MS)
  ) {
    await sleep(pause);
    try {
      return await call();
    } catch (again) {
      error = again;
    }
  }
  throw error;
}

/** `part` (its methods all async) with each call that meets the lock tried again, off the event loop. */
export function retryingBusy<T extends object>(part: T, budgetMs = SQLITE_BUSY_TIMEOUT_MS): T {
  return wrappingMethods(part, (call) => (...args) => {
    const result = call(args);
    return result instanceof Promise
      ? result.catch((error: unknown) => retried(() => call(args) as Promise<unknown>, error, budgetMs))
      : result;
  });
}

/** Runs `work` on `db` with SQLite waiting for the lock itself: schema changes, made while nothing else is served. */
export function waitingForLock<T>(db: Database.Database, work: () => T): T {
  const before = db.pragma("busy_timeout", { simple: true }) as number;
  db.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
  try {
    return work();
  } finally {
    db.pragma(`busy_timeout = ${before}`);
  }
}
