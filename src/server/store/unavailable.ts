/**
 * The drivers' boundary for outages: every call into a store part (users, events, hooks...) that fails because the
 * database is away or too slow right now fails with StoreUnavailableError, its driver's own error as the cause.
 * Each driver says which of its errors those are (postgres/outage.ts, sqlite/outage.ts); code above the store then
 * tells an outage from a bug by its type, never by a message (the API answers it 503 with Retry-After).
 */
import { StoreUnavailableError } from "../failures.js";
import { wrappingMethods } from "./method-proxy.js";

export type IsOutage = (error: unknown) => boolean;

/** `error` as StoreUnavailableError when the driver's `isOutage` says so; anything else unchanged. */
export function asUnavailable(error: unknown, isOutage: IsOutage): unknown {
  return !(error instanceof StoreUnavailableError) && isOutage(error)
    ? new StoreUnavailableError("the database", error)
    : error;
}

/**
 * `part` with each of its methods raising StoreUnavailableError for an outage, thrown (SQLite answers synchronously
 * inside an async method, and a method may throw before its first await) or rejected.
 */
export function raisingUnavailable<T extends object>(part: T, isOutage: IsOutage): T {
  const fail = (error: unknown): never => {
    throw asUnavailable(error, isOutage);
  };
  return wrappingMethods(part, (call) => (...args) => {
    try {
      const result = call(args);
      return result instanceof Promise ? result.catch(fail) : result;
    } catch (error) {
      return fail(error);
    }
  });
}
