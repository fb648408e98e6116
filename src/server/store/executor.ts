/**
 * The one contract both drivers implement and every shared aggregate (users.ts, authorizations.ts, hooks.ts...) is
 * written over: SQL with `@name` parameters, typed rows, transactions, and driver errors mapped once, to
 * StoreUnavailableError for an outage and UniqueViolation for a duplicate key, so no aggregate reads a driver's codes.
 */
import { StoreUnavailableError } from "../failures.js";
import type { Dialect } from "./feed-sql.js";
import type { Bool, Time, ValueWriter } from "./sql-values.js";

export type Parameters = Record<string, unknown>;

export interface TransactionOptions {
  /**
   * Reads that must agree (a page and its total): REPEATABLE READ on PostgreSQL; SQLite's is one snapshot anyway. The
   * work only reads: with standbys it runs on one of them, in a transaction that refuses writes.
   */
  consistentReads?: boolean;
  /** Takes the write lock at BEGIN (SQLite's BEGIN IMMEDIATE), so a read-then-write cannot fail halfway. */
  write?: boolean;
  /** Commits without waiting for the disk (SQLite WAL's `synchronous = NORMAL`): the webhook outbox's writes only. */
  relaxed?: boolean;
  /**
   * Statements without parameters run first in the transaction. PostgreSQL sends them with its BEGIN, in one round
   * trip: an action's locks (postgres/actions.ts) would otherwise cost two of the few it makes.
   */
  opening?: string;
  /**
   * Given the rows the opening's last statement answered (an action's highest ids, read under its locks without a
   * round trip of their own). On SQLite, whose reads cost none, an opening read this way is one statement.
   */
  opened?: (rows: Record<string, unknown>[]) => void;
}

export interface Executor {
  readonly dialect: Dialect;
  /** How this driver binds booleans and times (sql-values.ts). */
  readonly values: ValueWriter<Bool, Time>;
  all<R>(sql: string, parameters?: Parameters): Promise<R[]>;
  get<R>(sql: string, parameters?: Parameters): Promise<R | undefined>;
  run(sql: string, parameters?: Parameters): Promise<{ changes: number }>;
  /**
   * Runs `work` in one transaction, on an executor bound to it: committed when `work` resolves, rolled back when it
   * throws. Called on a transaction's executor, `work` joins that transaction.
   */
  transaction<T>(work: (tx: Executor) => Promise<T>, options?: TransactionOptions): Promise<T>;
}

/** A write refused because a unique key holds the value already (a login, a token's hash). */
export class UniqueViolation extends Error {
  override name = "UniqueViolation";
  readonly kind = "unique";
  constructor(cause: unknown) {
    super(`a unique key already holds the value (${cause instanceof Error ? cause.message : String(cause)})`, {
      cause,
    });
  }
}

/** How a driver tells its errors apart: its sqlite/outage.ts or postgres/outage.ts, and its unique-key code. */
export interface DriverErrors {
  isOutage(error: unknown): boolean;
  isUniqueViolation(error: unknown): boolean;
}

/** The one mapping of a driver's error: an outage, a duplicate key, or the error unchanged (a bug). */
export function mappedError(error: unknown, driver: DriverErrors): unknown {
  if (error instanceof StoreUnavailableError || error instanceof UniqueViolation) return error;
  if (driver.isOutage(error)) return new StoreUnavailableError("the database", error);
  if (driver.isUniqueViolation(error)) return new UniqueViolation(error);
  return error;
}
