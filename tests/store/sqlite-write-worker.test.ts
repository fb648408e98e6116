/**
 * SQLite ingests of a file run in the write worker (store/sqlite/write-worker-client.ts): the event loop stays free
 * while a batch is written, the worker's errors reach the caller as their own classes, a worker that dies fails
 * its ingest cleanly and is replaced, the main thread's own writes wait for the worker's lock without holding the
 * event loop, and closing the store leaves nothing running. A batch still encoded (an NDJSON body) is decoded there.
 * Once the worker runs, the webhook dispatcher's claims and records are written there too.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { SqliteStore } from "../../src/server/store/sqlite/sqlite-store.js";
import { isSqliteOutage } from "../../src/server/store/sqlite/outage.js";
import { retryingBusy } from "../../src/server/store/sqlite/busy-retry.js";
import { WriteWorker } from "../../src/server/store/sqlite/write-worker-client.js";
import { outboxInWorker } from "../../src/server/store/sqlite/outbox-in-worker.js";
import type { HookStore } from "../../src/server/store/hook-store.js";
import { IngestConflictError, type IngestBatch } from "../../src/server/store/store.js";
import { InvalidInputError, StoreUnavailableError, UnparsableEntryError } from "../../src/server/failures.js";
import { emptyBatch } from "../../src/server/services/event-envelope.js";
import { NDJSON_DECODER } from "../../src/server/services/ingest-body.js";
import { THREAD_NAMING_DECODER } from "../helpers/thread-naming-decoder.js";
import { sampleLines } from "../helpers/ingest-fixtures.js";
import { moduleOfThisTree, NODE_LOADER } from "../helpers/repository.js";

const NOW = new Date("2026-11-27T12:00:00Z");

/** `count` events by one actor on one repository, ids from `first`. */
function eventsBatch(count: number, first = 1): IngestBatch {
  const batch = emptyBatch();
  for (let i = first; i < first + count; i++) {
    batch.events.push({
      source: `events[${i}]`,
      id: String(i),
      type: "WatchEvent",
      actorLogin: "alice",
      repoName: "alice/tools",
      orgLogin: null,
      public: true,
      createdAt: new Date(NOW.getTime() - i * 1000),
      complete: true,
      body: JSON.stringify({ id: String(i), pad: "x".repeat(200) }),
    });
  }
  return batch;
}

/** The writer of ingests sent while the worker starts: these tests wait for it, so none is. */
const notOnThisThread = () => Promise.reject(new Error("the ingest ran on the calling thread"));

describe("SQLite write worker", () => {
  let dir: string;
  let file: string;
  let store: SqliteStore;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "feedgate-writer-"));
    file = join(dir, "feedgate.db");
    store = await SqliteStore.open(file);
  });

  after(async () => {
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  function stored(): number {
    const reader = new Database(file, { readonly: true });
    try {
      return reader.prepare<[], number>("SELECT count(*) FROM events").pluck().get()!;
    } finally {
      reader.close();
    }
  }

  function storedBody(id: string, path = file): unknown {
    const reader = new Database(path, { readonly: true });
    try {
      return JSON.parse(reader.prepare<[string], string>("SELECT body FROM events WHERE id = ?").pluck().get(id)!);
    } finally {
      reader.close();
    }
  }

  test("the event loop turns while a large ingest is written", async () => {
    await store.writeWorkerReady(); // the turns counted are the batch's, not the worker's start
    let turns = 0;
    const ingest = store.ingest.apply(eventsBatch(20_000), NOW);
    // On the main thread, the whole transaction ran before apply returned: no turn of the loop could come first.
    const turning = setInterval(() => turns++, 0);
    const result = await ingest;
    clearInterval(turning);
    assert.equal(result.eventsAdded, 20_000);
    assert.ok(turns > 0, "no timer fired while the batch was written");
  });

  test("while the worker starts, ingests run on the calling thread, at once", async () => {
    const other = await SqliteStore.open(join(dir, "starting.db"));
    try {
      const batch = emptyBatch();
      batch.accounts.push({ source: "accounts[0]", login: "carol", type: "User" });
      const ingest = other.ingest.apply(batch, NOW);
      // An encoded batch too, decoded here (its decoder's module is imported first: not at once).
      const encoded = other.ingest.applyEncoded!({ bytes: Buffer.from("900002"), decoder: THREAD_NAMING_DECODER }, NOW);
      let turned = false;
      setImmediate(() => (turned = true));
      assert.equal((await ingest).usersAdded, 1);
      assert.equal(turned, false, "the first ingest waited for the worker to start");
      await encoded;
      assert.deepEqual(storedBody("900002", join(dir, "starting.db")), { id: "900002", decodedOnMainThread: true });
    } finally {
      await other.close();
    }
  });

  test("an encoded batch is decoded in the worker and written as its batch", async () => {
    await store.writeWorkerReady();
    const result = await store.ingest.applyEncoded!(
      { bytes: Buffer.from("900001"), decoder: THREAD_NAMING_DECODER },
      NOW,
    );
    assert.equal(result.eventsAdded, 1);
    assert.deepEqual(storedBody("900001"), { id: "900001", decodedOnMainThread: false });
    // An NDJSON body, as POST /admin/events hands it on: each complete event stored as its line.
    const [line] = sampleLines();
    assert.equal(
      (await store.ingest.applyEncoded!({ bytes: Buffer.from(`\n${line}\n`), decoder: NDJSON_DECODER }, NOW))
        .eventsAdded,
      1,
    );
    assert.equal(JSON.stringify(storedBody((JSON.parse(line!) as { id: string }).id)), line);
    // A body of a buffer of its own is moved to the worker, not copied: the caller's view of it is emptied.
    const lines = sampleLines().slice(1, 21);
    const body = Buffer.from(lines.join("\n"));
    assert.equal(body.byteLength, body.buffer.byteLength, "the body is a whole buffer, not a slice of the pool");
    assert.equal((await store.ingest.applyEncoded!({ bytes: body, decoder: NDJSON_DECODER }, NOW)).eventsAdded, 20);
    assert.equal(body.byteLength, 0);
  });

  test("a body its decoder refuses fails with the decoder's own class, naming the entry, and nothing is written", async () => {
    const before = stored();
    const [line] = sampleLines();
    const refused = async (body: string) =>
      store.ingest.applyEncoded!({ bytes: Buffer.from(body), decoder: NDJSON_DECODER }, NOW).then(
        () => assert.fail(`${body} was ingested`),
        (error: unknown) => error,
      );
    const notJson = await refused(`${line}\n{not json`);
    assert.ok(notJson instanceof UnparsableEntryError, String(notJson));
    assert.equal(notJson.field, "line 2");
    const badEnvelope = await refused(`${line}\n{"id": "1", "type": "WatchEvent"}`);
    assert.ok(
      badEnvelope instanceof InvalidInputError && !(badEnvelope instanceof UnparsableEntryError),
      String(badEnvelope),
    );
    assert.equal(badEnvelope.message, "events[1].actor: must be an object with a login");
    assert.equal(stored(), before);
  });

  test("a refused entry is the same IngestConflictError, naming the entry, and nothing is written", async () => {
    const before = stored();
    const batch = eventsBatch(3, 100_000);
    batch.repos.push({ source: "repos[0]", fullName: "alice/self", forkOf: "alice/self" });
    await assert.rejects(store.ingest.apply(batch, NOW), (error: unknown) => {
      assert.ok(error instanceof IngestConflictError, String(error));
      assert.equal(error.field, "repos[0]");
      assert.equal(error.message, "repos[0]: alice/self cannot be a fork of itself");
      return true;
    });
    assert.equal(stored(), before);
  });

  test("a file locked by another writer fails as SQLite's own SQLITE_BUSY, which the store turns into an outage", async () => {
    const writer = new WriteWorker({ path: file, busyTimeoutMs: 50 }, notOnThisThread);
    await writer.ready();
    const holder = new Database(file);
    holder.exec("BEGIN IMMEDIATE");
    try {
      await assert.rejects(writer.apply(eventsBatch(1, 200_000), NOW), (error: unknown) => {
        assert.ok(error instanceof Database.SqliteError, String(error));
        assert.equal(error.code, "SQLITE_BUSY");
        assert.equal(error.message, "database is locked");
        assert.ok(isSqliteOutage(error));
        return true;
      });
    } finally {
      holder.exec("ROLLBACK");
      holder.close();
      await writer.close();
    }
  });

  test("a write of the main thread that meets the lock waits for it on timers, the event loop turning meanwhile", async () => {
    const holder = new Database(file);
    holder.exec("BEGIN IMMEDIATE");
    let turns = 0;
    const turning = setInterval(() => turns++, 0);
    // Released by a timer: while SQLite itself waited (its busy timeout sleeps the thread), no timer could fire.
    setTimeout(() => holder.exec("ROLLBACK"), 100);
    try {
      assert.deepEqual(await store.hooks.claim(NOW.getTime(), 60_000, 10), []);
      assert.ok(turns > 0, "no timer fired while the claim waited for the lock");
    } finally {
      clearInterval(turning);
      holder.close();
    }
  });

  test("a lock held longer than the busy timeout still fails as SQLITE_BUSY", async () => {
    const holder = new Database(file);
    holder.exec("BEGIN IMMEDIATE");
    try {
      const db = new Database(file, { timeout: 0 }); // as the store's own connection: SQLite does not wait
      const claim = retryingBusy({ claim: async () => db.prepare("BEGIN IMMEDIATE").run() }, 30);
      await assert.rejects(
        claim.claim(),
        (error: unknown) => error instanceof Database.SqliteError && error.code === "SQLITE_BUSY",
      );
      db.close();
    } finally {
      holder.exec("ROLLBACK");
      holder.close();
    }
  });

  test("a worker that dies fails its pending ingest, and an outbox write behind it, as unavailable, writes nothing of them, and the next ingest works", async () => {
    const writer = new WriteWorker({ path: file, busyTimeoutMs: 5000 }, notOnThisThread);
    try {
      await writer.ready();
      const before = stored();
      const pending = writer.apply(eventsBatch(20_000, 300_000), NOW);
      // Queued behind the ingest: the dispatcher hears of the outage, and its deliveries go again once their leases run out.
      const claim = writer.outbox({ op: "claim", args: [NOW.getTime(), 60_000, 16, 64] }, notOnThisThread);
      await writer.kill();
      await assert.rejects(pending, StoreUnavailableError);
      await assert.rejects(claim, StoreUnavailableError);
      assert.equal(stored(), before);
      await writer.ready();
      const next = await writer.apply(eventsBatch(2, 400_000), NOW);
      assert.equal(next.eventsAdded, 2);
    } finally {
      await writer.close();
    }
  });

  test("once the worker runs, the dispatcher's claims and records are written there, not by this thread's connection", async () => {
    await store.writeWorkerReady();
    await store.ingest.apply(eventsBatch(1, 500_000), NOW); // alice/tools
    const repoId = (await store.directory.findRepo("alice", "tools"))!.id;
    const hook = await store.hooks.create(
      {
        owner: { kind: "repo", repoId },
        name: "web",
        active: true,
        events: ["*"],
        config: { url: "http://receiver.test/hook", contentType: "json", insecureSsl: "0", sealedSecret: null },
      },
      NOW,
    );
    // A body past the size that is stored compressed: the compression is part of the record the worker makes.
    const body = JSON.stringify({ zen: "z".repeat(20_000) });
    await store.hooks.enqueue(
      [{ hookId: hook.id, guid: "g-outbox", event: "ping", action: null, eventId: null, body, redelivery: false }],
      NOW,
    );
    const mainConnection = (store as unknown as { db: Database.Database }).db;
    const changesHere = () => mainConnection.prepare<[], number>("SELECT total_changes()").pluck().get()!;
    const before = changesHere();

    const [claimed, ...more] = await store.hooks.claim(NOW.getTime(), 60_000, 16, 64);
    assert.equal(claimed?.guid, "g-outbox");
    assert.deepEqual(more, []);
    assert.deepEqual(
      await store.hooks.claim(NOW.getTime(), 60_000, 16, 64),
      [],
      "the lease was written: nothing left to claim",
    );
    const disabled = await store.hooks.finishAll([
      {
        delivery: claimed!,
        outcome: { kind: "done" },
        attempt: {
          hookId: hook.id,
          guid: claimed!.guid,
          deliveredAt: NOW,
          redelivery: false,
          duration: 0.01,
          status: "OK",
          statusCode: 200,
          event: "ping",
          action: null,
          repositoryId: repoId,
          url: hook.config.url,
          request: { headers: { "X-GitHub-Event": "ping" }, payload: body },
          response: { headers: {}, payload: "" },
        },
      },
    ]);

    assert.deepEqual(disabled, [false]);
    assert.equal(changesHere(), before, "this thread's connection wrote nothing");
    const [recorded] = await store.hooks.deliveries(hook.id, 10, null);
    assert.equal(recorded?.guid, "g-outbox");
    assert.equal(recorded.request.payload, body);
    const reader = new Database(file, { readonly: true });
    try {
      const packed = reader
        .prepare<[string], number>("SELECT request_body_gzip IS NOT NULL FROM hook_deliveries WHERE guid = ?")
        .pluck()
        .get("g-outbox");
      assert.equal(packed, 1, "stored compressed");
    } finally {
      reader.close();
    }
    assert.deepEqual(await store.hooks.queueStats(NOW.getTime()), { depth: 0, oldestDue: null });
  });

  test("while no worker runs, the dispatcher's claims and records are made on this thread's connection", async () => {
    const idle = new WriteWorker({ path: file, busyTimeoutMs: 50 }, notOnThisThread); // never started
    const here = {
      claim: async () => ["claimed here"],
      finishAll: async () => ["recorded here"],
    } as unknown as HookStore;
    const hooks = outboxInWorker(here, idle);
    assert.deepEqual(await hooks.claim(0, 1, 1), ["claimed here"]);
    assert.deepEqual(await hooks.finishAll([]), ["recorded here"]);
    await idle.close();
  });

  test("a process that ingested and closed its store exits by itself, and so does one that never closed it", () => {
    const script = (close: boolean) => `
      const { SqliteStore } = await import(${JSON.stringify(moduleOfThisTree("src/server/store/sqlite/sqlite-store.ts").href)});
      const { emptyBatch } = await import(${JSON.stringify(moduleOfThisTree("src/server/services/event-envelope.ts").href)});
      const store = await SqliteStore.open(${JSON.stringify(join(dir, `exit-${close}.db`))});
      const batch = emptyBatch();
      batch.accounts.push({ source: "accounts[0]", login: "bob", type: "User" });
      console.log((await store.ingest.apply(batch, new Date())).usersAdded);
      ${close ? "await store.close();" : ""}`;
    for (const close of [true, false]) {
      const child = spawnSync(process.execPath, [...NODE_LOADER, "--input-type=module", "-e", script(close)], {
        encoding: "utf8",
        timeout: 30_000,
      });
      assert.equal(child.error, undefined, `close: ${close}: the process did not exit`);
      assert.equal(child.status, 0, child.stderr);
      assert.equal(child.stdout.trim(), "1");
    }
  });
});
