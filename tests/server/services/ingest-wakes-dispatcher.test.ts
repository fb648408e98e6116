/**
 * An ingest tells the serving process (IngestService's `ingested`, which wakes the webhook dispatcher) when it queued
 * webhook deliveries, and only then: each wake-up claims from the outbox, a write transaction on the event loop,
 * which the ingests of a server with no hook for their repositories (ten a second under live load) need not cost.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { IngestService } from "../../../src/server/services/ingest.js";
import { testDriver } from "../../helpers/store-drivers.js";

const NOW = new Date("2026-11-29T06:00:00Z");
const driver = testDriver();

const event = (id: string, repo: string) => ({
  id,
  type: "PushEvent",
  actor: { login: "ann" },
  repo: { name: repo },
  payload: {},
  public: true,
  created_at: NOW.toISOString(),
});

test(`the dispatcher is woken by an ingest that queued deliveries, not by one that queued none: ${driver.name}`, {
  skip: driver.skip,
}, async () => {
  const { store, close } = await driver.open();
  try {
    let woken = 0;
    const ingest = new IngestService(store, () => NOW, { ingested: () => woken++ });
    const first = await ingest.ingestEvents([event("1", "ann/hooked"), event("2", "ann/quiet")]);
    assert.equal(first.deliveriesQueued, undefined);
    assert.equal(woken, 0, "no hook: no delivery queued, nothing to wake");

    const repo = (await store.directory.findRepo("ann", "hooked"))!;
    await store.hooks.create(
      {
        owner: { kind: "repo", repoId: repo.id },
        name: "web",
        active: true,
        events: ["push"],
        config: { url: "https://receiver.example/hook", contentType: "json", insecureSsl: "0", sealedSecret: null },
      },
      NOW,
    );
    assert.equal((await ingest.ingestEvents([event("3", "ann/quiet")])).deliveriesQueued, undefined);
    assert.equal(woken, 0, "an event of a repository without hooks queues nothing");
    assert.equal((await ingest.ingestEvents([event("4", "ann/hooked"), event("5", "ann/hooked")])).deliveriesQueued, 2);
    assert.equal(woken, 1);
    // NDJSON as POST /admin/events hands it on (decoded in SQLite's write worker): the same.
    assert.equal(
      (await ingest.ingestNdjson(Buffer.from(JSON.stringify(event("6", "ann/hooked"))))).deliveriesQueued,
      1,
    );
    assert.equal(woken, 2);
  } finally {
    await close();
  }
});
