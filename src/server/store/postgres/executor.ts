/**
 * The executor (../executor.ts) over a pg pool: each call a query of the pool's, a transaction one client checked out
 * for its work (pool.ts `transaction`), `@name` parameters numbered by `named()`.
 */
import type pg from "pg";
import { mappedError, type Executor, type Parameters, type TransactionOptions } from "../executor.js";
import { POSTGRES_VALUES } from "../sql-values.js";
import { isPostgresOutage } from "./outage.js";
import { named, transaction } from "./pool.js";
import { readScopes, type LsnFloors, type ReadScope } from "./read-scope.js";
import { lsnOf, type Standbys } from "./standbys.js";

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

/** Hot standbys for a request's reads, and where its callers' write positions are kept (read-scope.ts). */
export interface ReadRouting {
  standbys: Standbys;
  floors: LsnFloors;
}

/** A statement that only reads, which a standby may answer; anything else (and anything unsure) goes to the primary. */
const READ_ONLY = /^\s*SELECT\b/i;
/** SQLSTATE 25006: a standby refused a write (a SELECT calling a function that writes): the primary runs it. */
const isReadOnlyRefusal = (error: unknown) => (error as { code?: unknown }).code === "25006";

export class PostgresExecutor implements Executor {
  readonly dialect = "postgres";
  readonly values = POSTGRES_VALUES;

  /**
   * @param client the client of the transaction this executor runs in; none for the pool's own calls.
   * @param routing standbys that serve the reads of requests; none: the primary serves all.
   */
  constructor(
    private readonly pool: pg.Pool,
    readonly client?: pg.PoolClient,
    private readonly routing?: ReadRouting,
  ) {}

  private async query<R extends pg.QueryResultRow>(sql: string, parameters: Parameters): Promise<pg.QueryResult<R>> {
    try {
      const statement = named(sql, parameters);
      if (this.client || !this.routing) return await (this.client ?? this.pool).query<R>(statement);
      if (READ_ONLY.test(sql)) return await this.onReadServer((pool) => pool.query<R>(statement));
      const result = await this.pool.query<R>(statement);
      await this.wrote();
      return result;
    } catch (error) {
      throw mappedError(error, ERRORS);
    }
  }

  /**
   * Runs a read on the server the request reads from (chosen by its first read): a standby that has replayed the
   * request's floor, or the primary. A standby that fails as an outage does is left out and the read runs on the
   * primary instead, so a standby going away costs a request nothing.
   */
  private async onReadServer<T>(read: (pool: pg.Pool) => Promise<T>): Promise<T> {
    const scope = readScopes.getStore();
    const standby = scope ? this.readServer(scope) : null;
    if (!standby) {
      if (scope) this.routing!.standbys.primaryReads++;
      return read(this.pool);
    }
    try {
      standby.reads++;
      return await read(standby.pool);
    } catch (error) {
      if (isReadOnlyRefusal(error)) {
        // a write in a SELECT: the primary's to run
      } else if (isPostgresOutage(error)) {
        this.routing!.standbys.failed(standby);
        scope!.server = null;
      } else throw error;
      return read(this.pool);
    }
  }

  /** The request's read server, chosen once: a standby that has replayed the floor, else the primary (null). */
  readServer(scope: ReadScope) {
    if (scope.server === undefined) scope.server = this.routing?.standbys.choose(scope.floor) ?? null;
    return scope.server;
  }

  /**
   * After a write committed in a request: the request reads the primary from now on, and its callers' floors rise to
   * the primary's position, which is past the commit, before the answer goes out.
   */
  private async wrote(): Promise<void> {
    const scope = readScopes.getStore();
    if (!scope || !this.routing) return;
    scope.server = null;
    const { rows } = await this.pool.query<{ lsn: string }>("SELECT pg_current_wal_insert_lsn()::text AS lsn");
    const lsn = lsnOf(rows[0]!.lsn);
    if (lsn > scope.floor) scope.floor = lsn;
    // Shared floors unreachable: the write stands; the caller's next read may come from a standby behind it.
    await this.routing.floors.raise(scope.keys, lsn).catch(() => undefined);
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
      if (options.consistentReads && this.routing) {
        // Reads only (the option's contract): on the request's read server, in a snapshot that refuses writes.
        return await this.onReadServer((pool) =>
          transaction(pool, (client) => work(new PostgresExecutor(pool, client)), "REPEATABLE READ READ ONLY"),
        );
      }
      const result = await transaction(
        this.pool,
        (client) => work(new PostgresExecutor(this.pool, client)),
        options.consistentReads ? "REPEATABLE READ" : "READ COMMITTED",
        options.opening,
        options.opened,
      );
      await this.wrote();
      return result;
    } catch (error) {
      throw mappedError(error, ERRORS);
    }
  }
}
