/**
 * `feedgate import` parses in a worker thread (cli/import-parsing.ts) and writes in its own: the same source imported
 * that way and entirely in one thread (services/event-import.ts's importEvents) must leave the same rows, report the
 * same lines, and serve byte-identical feed pages. The source mixes what an import meets: real GH Archive events
 * (forks, members, watches, an organization), envelopes that need completing, malformed lines, blank lines, CRLF,
 * and more events than one batch holds.
 */
import { test, after, before } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { applyBatches, importEvents, type ImportSummary } from "../../src/server/services/event-import.js";
import { ndjsonFromFile } from "../../src/server/services/ndjson.js";
import { parseInWorker } from "../../src/cli/import-parsing.js";
import { startTestApp, TestClock, type TestApp } from "../helpers/test-app.js";
import { sampleLines, snapshot } from "../helpers/ingest-fixtures.js";
import { event } from "../helpers/events.js";

const BATCH = 300; // several batches from the sample's 800 events

let dir: string;
let source: string;
const apps: TestApp[] = [];

before(() => {
  dir = mkdtempSync(join(tmpdir(), "feedgate-import-worker-"));
  const lines = [
    ...sampleLines().slice(0, 400),
    "",
    '{"id": "9',
    JSON.stringify({ ...event("960000000001", "PushEvent", "partial", "partial/a"), extra: { kept: true } }),
    JSON.stringify({ ...event("960000000002", "PushEvent", "partial", "partial/a"), repo: {} }),
    JSON.stringify(
      event("960000000003", "ForkEvent", "forker", "partial/a", { payload: { forkee: { full_name: "forker/a" } } }),
    ),
    ...sampleLines().slice(400),
    JSON.stringify(event("960000000004", "PushEvent", "forker", "forker/a", { public: false })),
  ];
  source = join(dir, "mixed.ndjson");
  writeFileSync(source, lines.join("\r\n"));
});

after(async () => {
  for (const app of apps) await app.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A fresh store and app, standing at one time, so both imports stamp the same created_at on new accounts. */
async function freshApp(): Promise<TestApp> {
  const app = await startTestApp({}, new TestClock());
  apps.push(app);
  return app;
}

/** Feed pages as a client reads them: status, the headers a poller keeps, and the body byte for byte. */
async function pages(app: TestApp): Promise<string[]> {
  const paths = [
    "/events?per_page=100",
    "/events?per_page=100&page=3",
    "/events?per_page=100&page=9",
    "/repos/partial/a/events",
    "/repos/forker/a/events",
    "/networks/partial/a/events",
    "/users/forker/events",
    "/orgs/Lombiq/events",
    "/repos/bytedance/flutter_ume/events",
    "/users/Neacy/received_events",
  ];
  const read: string[] = [];
  for (const url of paths) {
    const res = await app.app.inject({ method: "GET", url });
    read.push(`${url} ${res.statusCode} ${res.headers.etag} ${res.headers.link ?? ""}\n${res.body}`);
  }
  return read;
}

test("a worker-thread import leaves the rows, counts, skipped lines and feed pages of an import in one thread", async () => {
  const inThread = await freshApp();
  const skippedInThread: string[] = [];
  const expected = await inThread.store.ingest.bulkLoad(() =>
    importEvents(
      inThread.store,
      ndjsonFromFile(source),
      {
        strict: false,
        batchSize: BATCH,
        onMalformed: (_where, message) => skippedInThread.push(message),
      },
      () => inThread.clock.now(),
    ),
  );

  const inWorker = await freshApp();
  const skippedInWorker: string[] = [];
  const parse = parseInWorker(
    { name: source, path: source, strict: false, batchSize: BATCH },
    Readable.from([]),
    (_where, message) => skippedInWorker.push(message),
  );
  const progress: number[] = [];
  let summary: ImportSummary;
  try {
    await parse.checked;
    summary = await inWorker.store.ingest.bulkLoad(() =>
      applyBatches(inWorker.store, parse.batches, { onProgress: ({ events }) => progress.push(events) }, () =>
        inWorker.clock.now(),
      ),
    );
  } finally {
    await parse.close();
  }

  assert.deepEqual(summary, expected);
  assert.equal(summary.lines, 805);
  assert.equal(summary.malformed, 2);
  assert.equal(summary.eventsAdded, 803);
  assert.deepEqual(skippedInWorker, skippedInThread);
  assert.deepEqual(skippedInWorker, [
    `${source}:402: is not valid JSON`,
    `${source}:404.repo.name: must be "owner/name"`,
  ]);
  assert.deepEqual(progress, [300, 600, 803]);
  assert.deepEqual(await snapshot(inWorker.dbPath), await snapshot(inThread.dbPath));
  assert.deepEqual(await pages(inWorker), await pages(inThread));
});

test("a bad line in a strict import fails the worker's check with the message of one in this thread, before any batch", async () => {
  const path = join(dir, "strict.ndjson");
  writeFileSync(path, [JSON.stringify(event("970000000001", "PushEvent", "strict", "strict/a")), "{}"].join("\n"));
  const parse = parseInWorker({ name: "strict.ndjson", path, strict: true }, Readable.from([]), () =>
    assert.fail("no line is skipped"),
  );
  try {
    await assert.rejects(parse.checked, {
      name: "InvalidInputError",
      message: "strict.ndjson:2.id: must be a string of digits",
    });
  } finally {
    await parse.close();
  }
});
