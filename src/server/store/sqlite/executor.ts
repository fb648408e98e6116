/**
 * The executor (../executor.ts) over one better-sqlite3 connection: statements prepared once per SQL text and run
 * synchronously. A transaction's work is async and the connection is one, so while a transaction is open every other
 * call waits its turn in a queue (a statement run meanwhile would join the transaction, and see or lose its writes);
 * code that uses the connection directly (feeds' version, the on-thread ingest, images) goes through `exclusive()`.
 *
 * A test double's database may be held at an image (hold()): a savepoint left open on the connection, so that going
 * back to the image is one ROLLBACK TO (./state.ts). While it is held, a transaction is a savepoint inside it.
 */
import Database from "better-sqlite3";
import { mappedError, type Executor, type Parameters, type TransactionOptions } from "../executor.js";
import { SQLITE_VALUES } from "../sql-values.js";
import { isSqliteOutage } from "./outage.js";

const ERRORS = {
  isOutage: isSqliteOutage,
  isUniqueViolation: (error: unknown) =>
    error instanceof Database.SqliteError && error.code.startsWith("SQLITE_CONSTRAINT_UNIQUE"),
};

/** Runs `work` now: a rejected promise, never a throw, as the pg driver's calls do. */
function settled<T>(work: () => T): Promise<T> {
  try {
    return Promise.resolve(work());
  } catch (error) {
    return Promise.reject(error);
  }
}

/** `settled`, a driver's error mapped (../executor.ts). */
const mapped = <T>(work: () => T): Promise<T> =>
  settled(work).catch((error: unknown) => Promise.reject(mappedError(error, ERRORS)));

/** The savepoint an image is held at, and the one each transaction is while it is. */
const HELD = "feedgate_held_image";
const NESTED = "feedgate_transaction";

export class SqliteExecutor implements Executor {
  readonly dialect = "sqlite";
  readonly values = SQLITE_VALUES;
  private readonly statements = new Map<string, Database.Statement>();
  /** Transactions (and calls queued behind one) not yet finished: while any is, a new call takes its turn. */
  private pending = 0;
  private tail: Promise<unknown> = Promise.resolve();
  /** The connection's own `synchronous`, set back after a relaxed transaction. */
  private readonly strict: number;
  /** Whether hold() left the savepoint HELD open (SQLite ends it with the transaction when an error rolls back all). */
  private held = false;

  constructor(readonly db: Database.Database) {
    this.strict = Number(db.pragma("synchronous", { simple: true }));
  }

  /** The statement for `sql`, prepared on first use. */
  prepared(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (!statement) this.statements.set(sql, (statement = this.db.prepare(sql)));
    return statement;
  }

  /** True while a transaction holds the connection (or calls wait behind one): direct use must take its turn. */
  get busy(): boolean {
    return this.pending > 0;
  }

  all<R>(sql: string, parameters: Parameters = {}): Promise<R[]> {
    return this.whenFree(() => this.prepared(sql).all(parameters) as R[], mapped);
  }

  get<R>(sql: string, parameters: Parameters = {}): Promise<R | undefined> {
    return this.whenFree(() => this.prepared(sql).get(parameters) as R | undefined, mapped);
  }

  run(sql: string, parameters: Parameters = {}): Promise<{ changes: number }> {
    return this.whenFree(() => ({ changes: this.prepared(sql).run(parameters).changes }), mapped);
  }

  /**
   * Runs synchronous `work` on the connection when no transaction holds it (at once when none does), its errors as
   * SQLite threw them: for the code that uses the connection itself.
   */
  exclusive<T>(work: () => T): Promise<T> {
    return this.whenFree(work, settled);
  }

  /** Whether the database is held at an image: every write since is undone by rollbackToHeld(). */
  get holding(): boolean {
    return this.held && this.db.inTransaction;
  }

  /**
   * Holds the database as it is now: a savepoint left open, outside any transaction. Only for a database no other
   * connection uses (a held write lock would shut it out), and only by images' code, which runs in `exclusive()`.
   */
  hold(): void {
    if (this.db.inTransaction) throw new Error("a database is held only between transactions");
    this.db.exec(`SAVEPOINT ${HELD}`);
    this.held = true;
  }

  /** Undoes every write since hold(); the database stays held. */
  rollbackToHeld(): void {
    if (!this.holding) throw new Error("the database is not held");
    this.db.exec(`ROLLBACK TO ${HELD}`);
  }

  /** Commits what was written since hold(), and holds no more. */
  release(): void {
    if (this.holding) this.db.exec(`RELEASE ${HELD}`);
    this.held = false;
  }

  private whenFree<T>(work: () => T, run: (work: () => T) => Promise<T>): Promise<T> {
    return this.pending === 0 ? run(work) : this.inTurn(() => run(work));
  }

  transaction<T>(work: (tx: Executor) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
    return this.inTurn(async () => {
      // Held, the write lock is this connection's already: a savepoint is the transaction. SQLite refuses to change
      // `synchronous` inside one; a held database is in memory, where it means nothing.
      const nested = this.holding;
      const relaxed = options.relaxed && !nested;
      if (relaxed) this.db.pragma("synchronous = NORMAL");
      const tx = new SqliteTransaction(this);
      try {
        this.db.exec(nested ? `SAVEPOINT ${NESTED}` : options.write ? "BEGIN IMMEDIATE" : "BEGIN");
        if (options.opening && options.opened)
          options.opened(this.prepared(options.opening).all() as Record<string, unknown>[]);
        else if (options.opening) this.db.exec(options.opening);
        const result = await work(tx);
        this.db.exec(nested ? `RELEASE ${NESTED}` : "COMMIT");
        return result;
      } catch (error) {
        // A rollback that fails too (the disk gone) must not hide why the transaction failed.
        if (this.db.inTransaction) settled(() => this.rollback(nested)).catch(() => undefined);
        throw mappedError(error, ERRORS);
      } finally {
        tx.ended = true;
        if (relaxed) this.db.pragma(`synchronous = ${this.strict}`);
      }
    });
  }

  /** Ends a failed transaction; a savepoint's ROLLBACK TO leaves it open, so it is released too. */
  private rollback(nested: boolean): void {
    if (!nested) this.db.exec("ROLLBACK");
    else if (this.holding) this.db.exec(`ROLLBACK TO ${NESTED}; RELEASE ${NESTED}`);
  }

  /** Runs `work` after every transaction and call queued before it, and holds the queue until it settles. */
  private inTurn<T>(work: () => Promise<T>): Promise<T> {
    const run = this.pending++ === 0 ? work() : this.tail.then(work);
    const done = run.finally(() => this.pending--);
    this.tail = done.catch(() => undefined);
    return done;
  }
}

/** The executor a transaction's work runs on: straight to the connection, which the transaction holds. */
class SqliteTransaction implements Executor {
  readonly dialect = "sqlite";
  readonly values = SQLITE_VALUES;
  ended = false;

  constructor(private readonly owner: SqliteExecutor) {}

  private now<T>(work: (statement: Database.Statement) => T, sql: string): Promise<T> {
    if (this.ended) return Promise.reject(new Error("the transaction has ended"));
    return mapped(() => work(this.owner.prepared(sql)));
  }

  all<R>(sql: string, parameters: Parameters = {}): Promise<R[]> {
    return this.now((s) => s.all(parameters) as R[], sql);
  }

  get<R>(sql: string, parameters: Parameters = {}): Promise<R | undefined> {
    return this.now((s) => s.get(parameters) as R | undefined, sql);
  }

  run(sql: string, parameters: Parameters = {}): Promise<{ changes: number }> {
    return this.now((s) => ({ changes: s.run(parameters).changes }), sql);
  }

  transaction<T>(work: (tx: Executor) => Promise<T>): Promise<T> {
    return work(this);
  }
}
