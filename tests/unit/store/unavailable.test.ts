/**
 * Outages as one typed error: each driver says which of its errors mean the store is away (postgres/outage.ts,
 * sqlite/outage.ts, the Redis counters), and the store's parts raise StoreUnavailableError for those, with the
 * driver's error as the cause, and let every other error through unchanged.
 */
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import Database from "better-sqlite3";
import { StoreUnavailableError } from "../../../src/server/failures.js";
import { raisingUnavailable } from "../../../src/server/store/unavailable.js";
import { isPostgresOutage } from "../../../src/server/store/postgres/outage.js";
import { isSqliteOutage } from "../../../src/server/store/sqlite/outage.js";
import { RedisWindowCounters } from "../../../src/server/counters/redis-counters.js";

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe("which driver errors are outages", () => {
  test("PostgreSQL: connection, resource and shutdown states, timeouts, sockets and pg's lost connections", () => {
    for (const code of ["08006", "53300", "57P01", "57014", "ECONNREFUSED", "ECONNRESET"]) {
      assert.ok(isPostgresOutage(withCode("x", code)), code);
    }
    assert.ok(isPostgresOutage(new Error("Connection terminated unexpectedly")));
    assert.ok(isPostgresOutage(new Error("timeout exceeded when trying to connect")));
  });

  test("PostgreSQL: a unique violation, a syntax error, a missing database are not", () => {
    for (const code of ["23505", "42601", "3D000", "57P06"]) assert.ok(!isPostgresOutage(withCode("x", code)), code);
    assert.ok(!isPostgresOutage("Connection terminated"), "only errors");
  });

  test("SQLite: a lock held past the busy timeout and a failing disk are; a constraint is not", () => {
    assert.ok(isSqliteOutage(new Database.SqliteError("database is locked", "SQLITE_BUSY")));
    assert.ok(isSqliteOutage(new Database.SqliteError("disk I/O error", "SQLITE_IOERR_WRITE")));
    assert.ok(!isSqliteOutage(new Database.SqliteError("UNIQUE constraint failed", "SQLITE_CONSTRAINT_UNIQUE")));
    assert.ok(!isSqliteOutage(withCode("database is locked", "SQLITE_BUSY")), "only SQLite's own errors");
  });
});

describe("raisingUnavailable", () => {
  const busy = new Database.SqliteError("database is locked", "SQLITE_BUSY");
  const part = raisingUnavailable(
    {
      rejects: async (error: unknown) => {
        throw error;
      },
      throws: (error: unknown) => {
        throw error;
      },
      answers: async (n: number) => n + 1,
    },
    isSqliteOutage,
  );

  test("raises StoreUnavailableError for an outage, rejected or thrown, with the driver's error as the cause", async () => {
    const rejected = await part.rejects(busy).catch((error: unknown) => error);
    assert.ok(rejected instanceof StoreUnavailableError);
    assert.equal(rejected.store, "the database");
    assert.equal(rejected.cause, busy);
    const thrown = (() => {
      try {
        part.throws(busy);
      } catch (error) {
        return error;
      }
    })();
    assert.ok(thrown instanceof StoreUnavailableError);
    assert.equal(thrown.cause, busy);
  });

  test("lets every other error through unchanged, and answers as the part does", async () => {
    const bug = new TypeError("a bug");
    assert.equal(await part.rejects(bug).catch((error: unknown) => error), bug);
    assert.equal(await part.answers(1), 2);
  });

  test("calls a method replaced on the part after it was read, as tests that watch a store's calls do", async () => {
    const watched = raisingUnavailable({ answers: async (n: number) => n + 1 }, isSqliteOutage);
    const original = watched.answers;
    watched.answers = async (n: number) => (await original(n)) * 10;
    assert.equal(await watched.answers(1), 20);
  });

  test("does not wrap an outage twice", async () => {
    const inner = new StoreUnavailableError("the database", busy);
    assert.equal(await part.rejects(inner).catch((error: unknown) => error), inner);
  });
});

test("the Redis counters raise StoreUnavailableError naming the rate-limit store when Redis cannot be reached", async () => {
  // Nothing listens on port 1.
  const counters = new RedisWindowCounters("redis://127.0.0.1:1");
  await counters.connect().catch(() => undefined);
  try {
    const error = await counters.hit("k", 60, new Date()).catch((e: unknown) => e);
    assert.ok(error instanceof StoreUnavailableError, String(error));
    assert.equal(error.store, "the rate-limit store");
    assert.ok(error.cause instanceof Error);
  } finally {
    await counters.close();
  }
});
