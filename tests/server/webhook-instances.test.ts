/**
 * Durability of deliveries: queued while no server runs, they are delivered once one starts; two instances on one
 * database (PostgreSQL in the matrix run, one SQLite file otherwise) deliver every event exactly once to a receiver
 * that answers 2xx; `--webhook-allowed-hosts` refuses a destination without sending anything to it.
 */
import { test, describe, before, after } from "node:test";
import { createServer } from "node:http";
import assert from "node:assert/strict";
import { buildApp } from "../../src/server/app.js";
import { loadConfig, type ConfigInput } from "../../src/server/config.js";
import { openStore } from "../../src/server/store/open-store.js";
import type { Store } from "../../src/server/store/store.js";
import type { HookOwner } from "../../src/server/store/hook-store.js";
import { IngestService } from "../../src/server/services/ingest.js";
import { startListeningApp, type ListeningApp } from "../helpers/listening-app.js";
import { receiver } from "../helpers/webhook-receiver.js";
import { eventually, sleep } from "../helpers/wait.js";
import { event } from "../helpers/events.js";

describe("webhook deliveries across restarts and instances", () => {
  let t: ListeningApp;
  let repo: HookOwner;
  let nextId = 70_000;
  const push = () => {
    const id = String(nextId++);
    return event(id, "PushEvent", "alice", "alice/hello", {
      created_at: "2026-01-15T10:00:00Z",
      payload: { ref: "refs/heads/main", head: `head-${id}`, before: "000", commits: [] },
    });
  };
  const hookOn = (url: string) =>
    t.store.hooks.create(
      {
        owner: repo,
        name: "web",
        active: true,
        events: ["*"],
        config: { url, contentType: "json", insecureSsl: "0", sealedSecret: null },
      },
      t.clock.now(),
    );

  /** Another instance on the same database, with its own store (connections) and its own dispatcher. */
  async function instance(config: ConfigInput = {}): Promise<{ store: Store; close(): Promise<void> }> {
    const store = await openStore(t.dbPath);
    const app = await buildApp({ config: loadConfig({ db: t.dbPath, logLevel: "silent", ...config }, {}), store });
    await app.ready();
    return {
      store,
      async close() {
        await app.close();
        await store.close();
      },
    };
  }

  before(async () => {
    t = await startListeningApp();
    repo = { kind: "repo", repoId: (await t.store.directory.findRepo("alice", "hello"))!.id };
  });
  after(() => t.close());

  test("deliveries queued while no server runs are delivered by the next one to start", async () => {
    await t.app.close(); // the first instance stops: nothing delivers now
    const r = receiver();
    const hook = await hookOn(await r.listen());
    try {
      await new IngestService(t.store, t.clock.now).ingestEvents([push(), push()]);
      assert.equal(await t.store.hooks.queued(hook.id), 2);
      const next = await instance();
      try {
        await r.until(2);
        assert.deepEqual(
          r.received.map((x) => x.headers["x-github-event"]),
          ["push", "push"],
        );
        assert.equal(
          await eventually(
            () => t.store.hooks.queued(hook.id),
            (n) => n === 0,
          ),
          0,
        );
      } finally {
        await next.close();
      }
    } finally {
      await t.store.hooks.delete(repo, hook.id);
      await r.close();
    }
  });

  test("a stopping server does not wait for a receiver that hangs: its claim is given back and the next instance sends it", async () => {
    let requests = 0;
    let firstArrived: () => void = () => undefined;
    const arrivedOnce = new Promise<void>((resolve) => {
      firstArrived = resolve;
    });
    const hanging = createServer((request, response) => {
      request.resume();
      if (++requests === 1) return firstArrived(); // the first request never gets an answer
      request.on("end", () => response.writeHead(200).end());
    });
    await new Promise<void>((resolve) => hanging.listen(0, "127.0.0.1", resolve));
    const hook = await hookOn(`http://127.0.0.1:${(hanging.address() as { port: number }).port}/hook`);
    try {
      const first = await instance();
      await new IngestService(t.store, t.clock.now).ingestEvents([push()]);
      await arrivedOnce;
      const stopping = Date.now();
      await first.close();
      assert.ok(
        Date.now() - stopping < 3000,
        `stopping took ${Date.now() - stopping} ms, the receiver's 10 s were not waited out`,
      );
      assert.deepEqual(await t.store.hooks.deliveries(hook.id, 10, null), [], "the cut-short attempt is not recorded");
      const next = await instance();
      try {
        const [record] = await eventually(
          () => t.store.hooks.deliveries(hook.id, 10, null),
          (rows) => rows.length > 0,
          { ms: 5000 },
        );
        assert.equal(record!.statusCode, 200, "sent again at once, not after the claim's 60 s lease");
        assert.equal(requests, 2);
      } finally {
        await next.close();
      }
    } finally {
      await t.store.hooks.delete(repo, hook.id);
      hanging.closeAllConnections();
      hanging.close();
    }
  });

  test("two instances on one database deliver each event exactly once", async () => {
    const r = receiver();
    const url = await r.listen();
    const hooks = [await hookOn(url), await hookOn(url.replace(/\/hook$/, "/other"))];
    const [a, b] = [await instance(), await instance()];
    try {
      const events = Array.from({ length: 40 }, push);
      await new IngestService(t.store, t.clock.now).ingestEvents(events);
      await r.until(80);
      const seen = r.received.map(
        (x) => `${String(x.headers["x-github-hook-id"])}/${String(x.headers["x-github-delivery"])}`,
      );
      assert.equal(new Set(seen).size, 80, "each (hook, event) once");
      for (const hook of hooks) {
        const order = r.received
          .filter((x) => x.headers["x-github-hook-id"] === String(hook.id))
          .map((x) => (JSON.parse(x.body) as { after: string }).after);
        assert.deepEqual(
          order,
          events.map((e) => e.payload.head),
          "in the order they were stored, whichever instance sent each",
        );
      }
      await sleep(300); // a second delivery would have arrived by now
      assert.equal(r.received.length, 80);
    } finally {
      await a.close();
      await b.close();
      for (const hook of hooks) await t.store.hooks.delete(repo, hook.id);
      await r.close();
    }
  });

  test("--webhook-allowed-hosts refuses a destination by the address connected to, and says so in the delivery", async () => {
    const r = receiver();
    const url = await r.listen();
    const named = url.replace("127.0.0.1", "localhost"); // a name that resolves to a refused address
    const [literal, byName] = [await hookOn(url), await hookOn(named)];
    const guarded = await instance({ webhookAllowedHosts: "10.0.0.0/8,example.com", webhookMaxAttempts: "1" });
    try {
      await new IngestService(t.store, t.clock.now).ingestEvents([push()]);
      for (const hook of [literal, byName]) {
        const [record] = await eventually(
          () => t.store.hooks.deliveries(hook.id, 10, null),
          (rows) => rows.length > 0,
        );
        assert.equal(record!.statusCode, 0);
        assert.match(record!.status, /is not among --webhook-allowed-hosts: no request was made/);
      }
      assert.equal(r.received.length, 0, "nothing reached the receiver");
    } finally {
      await guarded.close();
      await t.store.hooks.delete(repo, literal.id);
      await t.store.hooks.delete(repo, byName.id);
      await r.close();
    }
  });
});
