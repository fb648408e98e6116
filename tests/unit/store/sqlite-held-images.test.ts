/**
 * SQLite images held at a savepoint (src/server/store/sqlite/state.ts, executor.ts hold()) on shapes of table the real
 * schema has few of: a rowid table with no column of its own for it, a WITHOUT ROWID table, a key changed by an
 * update, cascading deletes, unique values swapped between rows, writes that fail midway. Random writes (fast-check),
 * then replace(): every table must hold what the image holds, rowids and id counters included, and the numbers that
 * are not state must have moved forward, not back.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import Database from "better-sqlite3";
import fc from "fast-check";
import { SqliteExecutor } from "../../../src/server/store/sqlite/executor.js";
import { SqliteState } from "../../../src/server/store/sqlite/state.js";

const SCHEMA = `
  CREATE TABLE ingest_state (id INTEGER PRIMARY KEY, generation, credentials, repos, access, received, hooks);
  INSERT INTO ingest_state VALUES (1, 0, 0, 0, 0, 0, 0);
  CREATE TABLE received_versions (user_id INTEGER PRIMARY KEY, version);
  INSERT INTO received_versions VALUES (7, 1);
  CREATE TABLE ingest_log (id INTEGER PRIMARY KEY);
  CREATE TABLE owners (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL UNIQUE);
  CREATE TABLE things (owner_id INTEGER NOT NULL REFERENCES owners(id) ON DELETE CASCADE, label TEXT, n INTEGER);
  CREATE TABLE tags (owner_id INTEGER NOT NULL REFERENCES owners(id) ON DELETE CASCADE, tag TEXT NOT NULL,
    note TEXT, PRIMARY KEY (owner_id, tag)) WITHOUT ROWID;
`;

function database() {
  const db = new Database(":memory:");
  db.pragma("foreign_keys = ON");
  db.exec(SCHEMA);
  const seed = db.transaction(() => {
    for (let i = 1; i <= 4; i++) {
      db.prepare("INSERT INTO owners (name) VALUES (?)").run(`owner${i}`);
      for (let j = 0; j < 3; j++) db.prepare("INSERT INTO things VALUES (?, ?, ?)").run(i, `thing${i}.${j}`, j);
      db.prepare("INSERT INTO tags VALUES (?, ?, ?)").run(i, `tag${i}`, "a note");
    }
  });
  seed();
  return db;
}

/** Every row of the state tables, rowids included, and the id counters. */
function dump(db: Database.Database) {
  return {
    owners: db.prepare("SELECT rowid, * FROM owners ORDER BY rowid").all(),
    things: db.prepare("SELECT rowid, * FROM things ORDER BY rowid").all(),
    tags: db.prepare("SELECT * FROM tags ORDER BY owner_id, tag").all(),
    sequence: db.prepare("SELECT * FROM sqlite_sequence ORDER BY name").all(),
  };
}

/** The numbers that are not state: ingest_state's row, and each user's received number. */
function versions(db: Database.Database) {
  return {
    state: db.prepare("SELECT generation, received FROM ingest_state").get() as {
      generation: number;
      received: number;
    },
    received: db.prepare("SELECT user_id, version FROM received_versions ORDER BY user_id").raw().all() as [
      number,
      number,
    ][],
  };
}

/** A write; each may fail on a constraint, as an application's write may, and then changes nothing. */
const write = fc.oneof(
  fc.record({ kind: fc.constant("addOwner" as const), n: fc.integer({ min: 1, max: 9 }) }),
  fc.record({
    kind: fc.constant("renameOwner" as const),
    id: fc.integer({ min: 1, max: 6 }),
    n: fc.integer({ min: 1, max: 9 }),
  }),
  fc.record({
    kind: fc.constant("swapNames" as const),
    a: fc.integer({ min: 1, max: 4 }),
    b: fc.integer({ min: 1, max: 4 }),
  }),
  fc.record({ kind: fc.constant("deleteOwner" as const), id: fc.integer({ min: 1, max: 6 }) }),
  fc.record({
    kind: fc.constant("moveOwnerId" as const),
    id: fc.integer({ min: 1, max: 6 }),
    to: fc.integer({ min: 7, max: 12 }),
  }),
  fc.record({ kind: fc.constant("addThing" as const), id: fc.integer({ min: 1, max: 6 }) }),
  fc.record({ kind: fc.constant("editThing" as const), rowid: fc.integer({ min: 1, max: 14 }), n: fc.integer() }),
  fc.record({ kind: fc.constant("deleteThing" as const), rowid: fc.integer({ min: 1, max: 14 }) }),
  fc.record({
    kind: fc.constant("retag" as const),
    id: fc.integer({ min: 1, max: 6 }),
    tag: fc.constantFrom("x", "y"),
  }),
  fc.record({ kind: fc.constant("deleteTags" as const), id: fc.integer({ min: 1, max: 6 }) }),
);
type Write = typeof write extends fc.Arbitrary<infer W> ? W : never;

function apply(db: Database.Database, w: Write): void {
  const run = (sql: string, ...values: unknown[]) => {
    try {
      db.prepare(sql).run(...values);
    } catch (error) {
      if (!String((error as { code?: string }).code).startsWith("SQLITE_CONSTRAINT")) throw error;
    }
  };
  switch (w.kind) {
    case "addOwner":
      run("INSERT INTO owners (name) VALUES (?)", `new${w.n}`);
      return;
    case "renameOwner":
      run("UPDATE owners SET name = ? WHERE id = ?", `renamed${w.n}`, w.id);
      return;
    case "swapNames":
      // Three updates, so that the two names pass through a third: the put back meets the unique name midway.
      run("UPDATE owners SET name = 'swapping' WHERE id = ?", w.a);
      run("UPDATE owners SET name = ? WHERE id = ?", `owner${w.a}`, w.b);
      run("UPDATE owners SET name = ? WHERE id = ?", `owner${w.b}`, w.a);
      return;
    case "deleteOwner":
      run("DELETE FROM owners WHERE id = ?", w.id);
      return;
    case "moveOwnerId":
      run("UPDATE owners SET id = ? WHERE id = ?", w.to, w.id);
      return;
    case "addThing":
      run("INSERT INTO things VALUES (?, 'added', 0)", w.id);
      return;
    case "editThing":
      run("UPDATE things SET n = ?, label = 'edited' WHERE rowid = ?", w.n, w.rowid);
      return;
    case "deleteThing":
      run("DELETE FROM things WHERE rowid = ?", w.rowid);
      return;
    case "retag":
      run("INSERT INTO tags VALUES (?, ?, 'new') ON CONFLICT DO UPDATE SET note = 'changed'", w.id, w.tag);
      return;
    case "deleteTags":
      run("DELETE FROM tags WHERE owner_id = ?", w.id);
      return;
  }
}

describe("SQLite images held at a savepoint", () => {
  it("put back every row written since the image, whatever the writes", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(write, { maxLength: 12 }), { minLength: 1, maxLength: 4 }), async (rounds) => {
        const db = database();
        const state = new SqliteState(new SqliteExecutor(db), true);
        await state.capture("start");
        const start = dump(db);
        try {
          // Each round is a test between resets.
          for (const [round, writes] of rounds.entries()) {
            for (const w of writes) apply(db, w);
            // What requests remember answers by moves on with the writes (triggers do this in the real schema).
            db.prepare("UPDATE ingest_state SET generation = generation + 3, received = received + 2").run();
            db.prepare(
              "INSERT INTO received_versions VALUES (?, 1) ON CONFLICT DO UPDATE SET version = version + 5",
            ).run(round % 2);
            const numbers = versions(db);
            await state.replace("start");
            assert.deepEqual(dump(db), start);
            // Kept and raised by one, never put back: an answer remembered since must not be given again.
            assert.deepEqual(versions(db), {
              state: {
                ...numbers.state,
                generation: numbers.state.generation + 1,
                received: numbers.state.received + 1,
              },
              received: numbers.received.map(([user, version]) => [user, version + 1]),
            });
            assert.deepEqual(db.pragma("foreign_key_check"), []);
            assert.equal(db.pragma("foreign_keys", { simple: true }), 1);
          }
        } finally {
          db.close();
        }
      }),
      { numRuns: 150 },
    );
  });

  it("put back a snapshot taken after the start, then the start", async () => {
    const db = database();
    const state = new SqliteState(new SqliteExecutor(db), true);
    await state.capture("start");
    const start = dump(db);
    apply(db, { kind: "addOwner", n: 1 });
    apply(db, { kind: "swapNames", a: 1, b: 2 });
    await state.capture("later");
    const later = dump(db);
    apply(db, { kind: "deleteOwner", id: 5 });
    apply(db, { kind: "moveOwnerId", id: 2, to: 9 });
    await state.replace("later");
    assert.deepEqual(dump(db), later);
    await state.replace("start");
    assert.deepEqual(dump(db), start);
    assert.equal(await state.has("later"), true);
    await state.discard("later");
    assert.equal(await state.has("later"), false);
    await assert.rejects(state.replace("later"), RangeError);
    db.close();
  });
});
