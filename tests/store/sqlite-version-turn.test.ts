/**
 * A request's read of SQLite's `PRAGMA data_version` (three system calls) is kept for the requests handled in the
 * rest of that turn of the event loop (store/sqlite/events.ts): another connection's commit shows from the next turn
 * on, or at once to a read that is not a request's; the write worker's commits show before their ingest is
 * acknowledged; this connection's own writes show at once.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setImmediate as nextTurn } from "node:timers/promises";
import Database from "better-sqlite3";
import { RAISE_GENERATION } from "../../src/server/store/feed-sql.js";
import { SqliteEvents } from "../../src/server/store/sqlite/events.js";
import { SqliteStore } from "../../src/server/store/sqlite/sqlite-store.js";
import type { StoreVersion } from "../../src/server/store/store.js";
import { emptyBatch } from "../../src/server/services/event-envelope.js";

const NOW = new Date("2026-11-28T12:00:00Z");

describe("SQLite: a request's version read, kept for its turn", () => {
  let dir: string;
  let store: SqliteStore;
  /** Another process's connection to the same file. */
  let other: Database.Database;
  const generation = (shareTurn: boolean) => (store.events.version(shareTurn) as StoreVersion).generation;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "feedgate-version-turn-"));
    const file = join(dir, "feedgate.db");
    store = await SqliteStore.open(file);
    other = new Database(file);
  });

  after(async () => {
    other?.close();
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test("another connection's commit shows to requests from the next turn on, and at once to other reads", async () => {
    await nextTurn();
    const before = generation(true);
    other.prepare(RAISE_GENERATION).run();
    assert.equal(generation(true), before, "a request in the same turn shares the read");
    await nextTurn();
    assert.equal(generation(true), before + 1, "the next turn reads again");

    other.prepare(RAISE_GENERATION).run();
    assert.equal(generation(false), before + 2, "a read that is not a request's is made afresh");
    assert.equal(generation(true), before + 2, "and replaces the kept one");
  });

  test("this connection's own write shows at once", async () => {
    const user = await store.users.create({
      login: "turn-writer",
      passwordHash: "x",
      otpSecret: null,
      siteAdmin: false,
    });
    await nextTurn();
    const credentials = () => (store.events.version(true) as StoreVersion).credentials;
    const before = credentials();
    await store.users.setPassword(user.id, "y"); // SQLite's write is done before its promise settles: the same turn
    assert.equal(credentials(), before + 1);
  });

  test("the write worker's commit forgets the kept read before its ingest is acknowledged", async () => {
    await store.writeWorkerReady();
    const order: string[] = [];
    const committed = SqliteEvents.prototype.committed;
    SqliteEvents.prototype.committed = function (this: SqliteEvents) {
      order.push("forgotten");
      committed.call(this);
    };
    try {
      const batch = emptyBatch();
      batch.accounts.push({ source: "accounts[0]", login: "turn-ingest", type: "User" });
      await store.ingest.apply(batch, NOW);
      order.push("acknowledged");
    } finally {
      SqliteEvents.prototype.committed = committed;
    }
    assert.deepEqual(order, ["forgotten", "acknowledged"]);
  });
});
