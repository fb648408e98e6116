/**
 * The executor (../executor.ts) over a pg pool: each call a query of the pool's, a transaction one client checked out
 * for its work (pool.ts `transaction`), `@name` parameters numbered by `named()`.
 */
import type pg from "pg";
import { mappedError, type Executor, type Parameters, type TransactionOptions } from "../executor.js";
import { POSTGRES_VALUES } from "../sql-values.js";
import { isPostgresOutage } from "./outage.js";
import { named, transaction } from "./pool.js";

const ERRORS = {
  isOutage: isPostgresOutage,
  // SQLSTATE 23505, unique_violation.
  isUniqueViolation: (error: unknown) => (error as { code?: unknown }).code === "23505",
};

/** The client a transaction's executor runs on: for the code that speaks to it directly (postgres/actions.ts). */
export function clientOf(tx: Executor): pg.PoolClient {
  if (!(tx instanceof PostgresExecutor) || !tx.client) throw new Error("not a PostgreSQL transaction's executor");
  return tx.client;
}

export class PostgresExecutor implements Executor {
  readonly dialect = "postgres";
  readonly values = POSTGRES_VALUES;

  /** @param client the client of the transaction this executor runs in; none for the pool's own calls. */
  constructor(
    private readonly pool: pg.Pool,
    readonly client?: pg.PoolClient,
  ) {}

  private async query<R extends pg.QueryResultRow>(sql: string, parameters: Parameters): Promise<pg.QueryResult<R>> {
    try {
      return await (this.client ?? this.pool).query<R>(named(sql, parameters));
    } catch (error) {
      throw mappedError(error, ERRORS);
    }
  }

  async all<R>(sql: string, parameters: Parameters = {}): Promise<R[]> {
    return (await this.query<R & pg.QueryResultRow>(sql, parameters)).rows;
  }

  async get<R>(sql: string, parameters: Parameters = {}): Promise<R | undefined> {
    return (await this.query<R & pg.QueryResultRow>(sql, parameters)).rows[0];
  }

  async run(sql: string, parameters: Parameters = {}): Promise<{ changes: number }> {
    return { changes: (await this.query(sql, parameters)).rowCount ?? 0 };
  }

  async transaction<T>(work: (tx: Executor) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
    if (this.client) return work(this);
    try {
      return await transaction(
        this.pool,
        (client) => work(new PostgresExecutor(this.pool, client)),
        options.consistentReads ? "REPEATABLE READ" : "READ COMMITTED",
      );
    } catch (error) {
      throw mappedError(error, ERRORS);
    }
  }
}
