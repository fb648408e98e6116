/**
 * The store executor (src/server/store/executor.ts) on every driver: typed rows, the one mapping of driver errors
 * (an outage, a duplicate key), rollback on throw, and transactions that other async chains can neither join nor see
 * while they are open (SQLite's one connection queues them; PostgreSQL's have connections of their own).
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import Database from "better-sqlite3";
import { StoreUnavailableError } from "../../src/server/failures.js";
import { UniqueViolation, type Executor } from "../../src/server/store/executor.js";
import { SqliteExecutor } from "../../src/server/store/sqlite/executor.js";
import { PostgresExecutor } from "../../src/server/store/postgres/executor.js";
import { createPool } from "../../src/server/store/postgres/pool.js";
import { DRIVERS, type TestDatabase } from "../helpers/store-drivers.js";

interface Opened {
  db: Executor;
  /** Another client of the same database, outside the executor (another process). */
  other: Executor;
  close(): Promise<void>;
}

async function open(name: "sqlite" | "postgres", database: TestDatabase): Promise<Opened> {
  if (name === "sqlite") {
    const connections = [new Database(database.db), new Database(database.db)];
    for (const c of connections) c.pragma("journal_mode = WAL");
    return {
      db: new SqliteExecutor(connections[0]!),
      other: new SqliteExecutor(connections[1]!),
      close: async () => {
        for (const c of connections) c.close();
      },
    };
  }
  const pools = [createPool(database.db), createPool(database.db)];
  return {
    db: new PostgresExecutor(pools[0]!),
    other: new PostgresExecutor(pools[1]!),
    close: async () => void (await Promise.all(pools.map((p) => p.end()))),
  };
}

const count = async (db: Executor) => Number((await db.get<{ n: number }>("SELECT count(*) AS n FROM t"))!.n);

for (const driver of DRIVERS) {
  describe(`store executor: ${driver.name}`, { skip: driver.skip }, () => {
    let database: TestDatabase;
    let s: Opened;
    before(async () => {
      database = await driver.create();
      s = await open(driver.name, database);
      await s.db.run("CREATE TABLE t (id integer PRIMARY KEY, name text NOT NULL UNIQUE)");
    });
    after(async () => {
      await s?.close();
      await database?.drop();
    });

    test("a transaction's opening runs first in it, and `opened` is given its last statement's rows", async () => {
      await s.db.run("INSERT INTO t (id, name) VALUES (@id, @name)", { id: 7, name: "opening" });
      let rows: Record<string, unknown>[] | undefined;
      // PostgreSQL sends an opening of several statements with its BEGIN; SQLite's read this way is one statement.
      const opening =
        driver.name === "postgres" ? "SELECT 1; SELECT max(id) AS highest FROM t" : "SELECT max(id) AS highest FROM t";
      const seen = await s.db.transaction(
        async (tx) => {
          const at = rows;
          await tx.run("DELETE FROM t WHERE id = @id", { id: 7 });
          return at;
        },
        { write: true, opening, opened: (answered) => (rows = answered) },
      );
      assert.deepEqual(
        seen?.map((r) => Number(r.highest)),
        [7],
        "read before the work, in the transaction",
      );
      assert.equal(await count(s.db), 0);
    });

    test("runs @name statements: typed rows, and how many rows a write changed", async () => {
      assert.deepEqual(await s.db.run("INSERT INTO t (id, name) VALUES (@id, @name)", { id: 1, name: "a" }), {
        changes: 1,
      });
      await s.db.run("INSERT INTO t (id, name) VALUES (@id, @name)", { id: 2, name: "b" });
      assert.deepEqual(await s.db.all<{ id: number; name: string }>("SELECT id, name FROM t ORDER BY id"), [
        { id: 1, name: "a" },
        { id: 2, name: "b" },
      ]);
      assert.deepEqual(await s.db.get("SELECT name FROM t WHERE id = @id AND name <> @id || ''", { id: 2 }), {
        name: "b",
      });
      assert.equal(await s.db.get("SELECT name FROM t WHERE id = @id", { id: 9 }), undefined);
      assert.deepEqual(await s.db.run("DELETE FROM t WHERE id > @id", { id: 0 }), { changes: 2 });
    });

    test("a duplicate key is a UniqueViolation, its driver's error as the cause", async () => {
      await s.db.run("INSERT INTO t (id, name) VALUES (10, 'dup')");
      const error = await s.db.run("INSERT INTO t (id, name) VALUES (11, 'dup')").catch((e: unknown) => e);
      assert.ok(error instanceof UniqueViolation, String(error));
      assert.equal(error.kind, "unique");
      assert.ok(error.cause instanceof Error);
      // Inside a transaction too, which is rolled back.
      const inside = await s.db
        .transaction(async (tx) => {
          await tx.run("INSERT INTO t (id, name) VALUES (12, 'fresh')");
          await tx.run("INSERT INTO t (id, name) VALUES (13, 'dup')");
        })
        .catch((e: unknown) => e);
      assert.ok(inside instanceof UniqueViolation);
      assert.equal(await s.db.get("SELECT 1 AS ok FROM t WHERE id = 12"), undefined);
      await s.db.run("DELETE FROM t");
    });

    test("a transaction commits what its work wrote, and rolls all of it back when the work throws", async () => {
      assert.equal(
        await s.db.transaction(async (tx) => {
          await tx.run("INSERT INTO t (id, name) VALUES (20, 'kept')");
          // A transaction asked for inside one joins it.
          await tx.transaction(async (inner) => inner.run("INSERT INTO t (id, name) VALUES (21, 'kept too')"));
          return "done";
        }),
        "done",
      );
      const thrown = new Error("the work failed");
      await assert.rejects(
        s.db.transaction(async (tx) => {
          await tx.run("INSERT INTO t (id, name) VALUES (22, 'lost')");
          throw thrown;
        }),
        (error) => error === thrown,
      );
      assert.deepEqual(await s.db.all("SELECT id FROM t ORDER BY id"), [{ id: 20 }, { id: 21 }]);
      await s.db.run("DELETE FROM t");
    });

    test("a transaction's opening statements run inside it, before its work, and roll back with it", async () => {
      const opening =
        "INSERT INTO t (id, name) VALUES (30, 'opened'); INSERT INTO t (id, name) VALUES (31, 'opened too')";
      const seen = await s.db.transaction(async (tx) => tx.all("SELECT id FROM t ORDER BY id"), {
        write: true,
        opening,
      });
      assert.deepEqual(seen, [{ id: 30 }, { id: 31 }]);
      await s.db.run("DELETE FROM t");
      const thrown = new Error("the work failed");
      await assert.rejects(
        s.db.transaction(
          async () => {
            throw thrown;
          },
          { opening },
        ),
        (error) => error === thrown,
      );
      assert.equal(await count(s.db), 0, "what the opening wrote is rolled back with the work");
    });

    test("another chain's calls neither join an open transaction nor see its writes", async () => {
      let committed = false;
      let release!: () => void;
      const paused = new Promise<void>((resolve) => (release = resolve));
      const failing = s.db.transaction(async (tx) => {
        await tx.run("INSERT INTO t (id, name) VALUES (30, 'uncommitted')");
        await paused;
        throw new Error("rolled back");
      });
      const written = s.db.transaction(async (tx) => {
        await tx.run("INSERT INTO t (id, name) VALUES (31, 'second transaction')");
        committed = true;
      });
      // Both made while the first transaction is open: neither may see row 30, and the write must survive its rollback.
      const seen = s.db.all<{ id: number }>("SELECT id FROM t ORDER BY id");
      const outside = s.db.run("INSERT INTO t (id, name) VALUES (32, 'outside')");
      await sleep(20);
      release();
      await assert.rejects(failing, /rolled back/);
      await written;
      await outside;
      assert.ok(committed);
      assert.ok(!(await seen).some((r) => r.id === 30), "a read made meanwhile saw the open transaction's row");
      assert.deepEqual(await s.db.all("SELECT id FROM t ORDER BY id"), [{ id: 31 }, { id: 32 }]);
      assert.equal(await count(s.other), 2);
      await s.db.run("DELETE FROM t");
    });

    test("concurrent transactions are serialized where they share a connection: each sees the one before", async () => {
      const add = (id: number) =>
        s.db.transaction(
          async (tx) => {
            const n = await count(tx);
            await sleep(5);
            await tx.run("INSERT INTO t (id, name) VALUES (@id, @name)", { id, name: `${id} after ${n}` });
            return n;
          },
          { write: true },
        );
      const seen = await Promise.all([add(40), add(41), add(42)]);
      if (driver.name === "sqlite") assert.deepEqual(seen, [0, 1, 2]);
      assert.equal(await count(s.db), 3);
      await s.db.run("DELETE FROM t");
    });

    test("a database that cannot be reached is StoreUnavailableError, the driver's error as the cause", async () => {
      let unreachable: Executor;
      let close: () => Promise<void>;
      if (driver.name === "sqlite") {
        // Another connection holds the write lock and this one does not wait (busy_timeout 0): SQLITE_BUSY.
        const holder = new Database(database.db);
        holder.exec("BEGIN IMMEDIATE");
        const waiting = new Database(database.db);
        waiting.pragma("busy_timeout = 0");
        unreachable = new SqliteExecutor(waiting);
        close = async () => {
          holder.exec("ROLLBACK");
          holder.close();
          waiting.close();
        };
      } else {
        const pool = createPool("postgres://127.0.0.1:1/feedgate");
        unreachable = new PostgresExecutor(pool);
        close = () => pool.end();
      }
      try {
        for (const call of [
          () => unreachable.run("INSERT INTO t (id, name) VALUES (50, 'x')"),
          () => unreachable.transaction((tx) => tx.run("INSERT INTO t (id, name) VALUES (51, 'y')"), { write: true }),
        ]) {
          const error = await call().catch((e: unknown) => e);
          assert.ok(error instanceof StoreUnavailableError, String(error));
          assert.ok(error.cause instanceof Error);
        }
      } finally {
        await close();
      }
    });
  });
}

describe("store executor: SQLite's direct use of the connection", () => {
  test("exclusive() work waits for an open transaction, and runs at once when none is", async () => {
    const executor = new SqliteExecutor(new Database(":memory:"));
    await executor.run("CREATE TABLE t (id integer PRIMARY KEY, name text NOT NULL UNIQUE)");
    let inTransaction: boolean | undefined;
    const open = executor.transaction(async (tx) => {
      await tx.run("INSERT INTO t (id, name) VALUES (1, 'a')");
      await sleep(10);
    });
    assert.ok(executor.busy);
    await executor.exclusive(() => (inTransaction = executor.db.inTransaction));
    await open;
    assert.equal(inTransaction, false);
    assert.ok(!executor.busy);
    let ranAt: "now" | "later" = "later";
    const direct = executor.exclusive(() => (ranAt = "now"));
    assert.equal(ranAt, "now");
    await direct;
    await assert.rejects(
      executor.exclusive(() => {
        throw new Database.SqliteError("as thrown", "SQLITE_ERROR");
      }),
      (error) => error instanceof Database.SqliteError,
    );
    executor.db.close();
  });
});
