/**
 * The error a promise rejects with, for tests about failures: the test fails when the promise resolves instead.
 * Unlike `assert.rejects`, it hands the error back, so a test can check each of its fields in turn.
 */
import assert from "node:assert/strict";

export async function failure(work: Promise<unknown>): Promise<unknown>;
/** `is` says the error is of the kind the test expects, described by `what` when it is not. */
export async function failure<E>(work: Promise<unknown>, is: (error: unknown) => error is E, what: string): Promise<E>;
export async function failure<E>(
  work: Promise<unknown>,
  is?: (error: unknown) => error is E,
  what?: string,
): Promise<unknown> {
  const error = await work.then(
    () => assert.fail("expected a failure"),
    (e: unknown) => e,
  );
  if (is && !is(error)) assert.fail(`expected ${what}, got ${String(error)}`);
  return error;
}
