/**
 * Deliveries to real receivers: an `@octokit/webhooks` app (its middleware verifies the signature and fires its
 * `on("push")` handlers), a form-encoded hook checked with `verify`, and a receiver that fails and comes back: the
 * retries arrive in order, with the same GUID, and every attempt is recorded. Both drivers (the matrix runs
 * tests/server on PostgreSQL too).
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Webhooks, createNodeMiddleware } from "@octokit/webhooks";
import { startListeningApp, type ListeningApp } from "../helpers/listening-app.js";
import { TestClock } from "../helpers/test-app.js";
import { SecretBox } from "../../src/server/webhooks/secret-box.js";
import type { HookOwner, NewHook } from "../../src/server/store/hook-store.js";
import { receiver } from "../helpers/webhook-receiver.js";
import { eventually } from "../helpers/wait.js";
import { event } from "../helpers/events.js";

const SECRET = "It's a Secret to Everybody";

describe("webhook deliveries", () => {
  let t: ListeningApp;
  let dir: string;
  let secrets: SecretBox;
  let repo: HookOwner;
  let nextId = 90_000;
  const push = (repoName = "alice/hello") => {
    const id = String(nextId++);
    return event(id, "PushEvent", "alice", repoName, {
      created_at: "2026-01-15T10:00:00Z",
      payload: { push_id: 1, size: 1, ref: "refs/heads/main", head: `head-${id}`, before: "000000", commits: [] },
    });
  };
  const hook = (url: string, extra: Partial<NewHook> = {}): NewHook => ({
    owner: repo,
    name: "web",
    active: true,
    events: ["push"],
    config: { url, contentType: "json", insecureSsl: "0", sealedSecret: secrets.seal(SECRET) },
    ...extra,
  });

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "feedgate-webhooks-"));
    const keyFile = join(dir, "webhook.key");
    t = await startListeningApp({ webhookKeyFile: keyFile, webhookMaxBackoff: "50ms" }, new TestClock(undefined, true)); // retries wait on real time
    secrets = SecretBox.atPath(keyFile);
    repo = { kind: "repo", repoId: (await t.store.directory.findRepo("alice", "hello"))!.id };
  });
  after(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('an @octokit/webhooks app verifies the signature and its on("push") handler fires with GitHub\'s headers and body', async () => {
    const app = new Webhooks({ secret: SECRET });
    const pushes: { id: string; name: string; payload: Record<string, unknown> }[] = [];
    const fired = new Promise<void>((resolve) =>
      app.on("push", (event) => {
        pushes.push(event as unknown as (typeof pushes)[number]);
        resolve();
      }),
    );
    const server = createServer(createNodeMiddleware(app, { path: "/hook" }));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/hook`;
    const created = await t.store.hooks.create(hook(url), t.clock.now());
    try {
      const event = push();
      await t.ingest.ingestEvents([event]);
      await fired;
      const [delivered] = pushes;
      assert.equal(delivered!.name, "push");
      assert.match(delivered!.id, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      const payload = delivered!.payload as {
        after: string;
        ref: string;
        repository: { full_name: string; id: number };
        sender: { login: string };
      };
      assert.equal(payload.after, event.payload.head, "a push's after is its head");
      assert.equal(payload.ref, "refs/heads/main");
      assert.equal(payload.repository.full_name, "alice/hello");
      assert.equal(payload.sender.login, "alice");

      // The attempt is recorded with what was sent and what came back.
      const [record] = await eventually(
        () => t.store.hooks.deliveries(created.id, 10, null),
        (rows) => rows.length > 0,
      );
      assert.equal(record!.guid, delivered!.id);
      assert.equal(record!.statusCode, 200);
      assert.equal(record!.status, "OK");
      assert.equal(record!.event, "push");
      assert.equal(record!.repositoryId, payload.repository.id);
      assert.equal(record!.request.headers["X-GitHub-Hook-ID"], String(created.id));
      assert.equal(record!.request.headers["X-GitHub-Hook-Installation-Target-Type"], "repository");
      assert.match(record!.request.headers["User-Agent"]!, /^GitHub-Hookshot\//);
      assert.deepEqual(JSON.parse(record!.request.payload), payload);
    } finally {
      await t.store.hooks.delete(repo, created.id);
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  test("a form hook posts payload=<JSON>, signed over the exact body; a hook without a secret sends no signature", async () => {
    const r = receiver();
    const url = await r.listen();
    const form = await t.store.hooks.create(
      hook(url, { config: { url, contentType: "form", insecureSsl: "0", sealedSecret: secrets.seal(SECRET) } }),
      t.clock.now(),
    );
    const plain = await t.store.hooks.create(
      hook(url, { config: { url, contentType: "json", insecureSsl: "0", sealedSecret: null } }),
      t.clock.now(),
    );
    try {
      await t.ingest.ingestEvents([push()]);
      await r.until(2);
      const formed = r.received.find((x) => x.headers["content-type"] === "application/x-www-form-urlencoded")!;
      const json = r.received.find((x) => x.headers["content-type"] === "application/json")!;
      const verifier = new Webhooks({ secret: SECRET });
      assert.ok(
        await verifier.verify(formed.body, String(formed.headers["x-hub-signature-256"])),
        "the signature covers the form body",
      );
      const payload = JSON.parse(new URLSearchParams(formed.body).get("payload")!) as {
        repository: { full_name: string };
      };
      assert.equal(payload.repository.full_name, "alice/hello");
      assert.match(String(formed.headers["x-hub-signature"]), /^sha1=[0-9a-f]{40}$/);
      assert.equal(json.headers["x-hub-signature-256"], undefined);
      assert.equal(json.headers["x-hub-signature"], undefined);
      assert.equal(
        json.headers["x-github-delivery"],
        formed.headers["x-github-delivery"],
        "one GUID an event, to every hook",
      );
    } finally {
      await t.store.hooks.delete(repo, form.id);
      await t.store.hooks.delete(repo, plain.id);
      await r.close();
    }
  });

  test("a failing receiver gets the retries, in order, with the same GUID; every attempt is recorded", async () => {
    let answers = 0;
    // Fails the first two requests, then answers 200: the first event's retries must come before the second event.
    const r = receiver(() => (++answers <= 2 ? 503 : 200));
    const url = await r.listen();
    const created = await t.store.hooks.create(hook(url), t.clock.now());
    try {
      const [first, second] = [push(), push()];
      await t.ingest.ingestEvents([first, second]);
      await r.until(4);
      const guids = r.received.map((x) => String(x.headers["x-github-delivery"]));
      assert.equal(guids[0], guids[1]);
      assert.equal(guids[1], guids[2], "three attempts of the first event");
      assert.notEqual(guids[3], guids[0], "then the second event");
      const bodies = r.received.map((x) => x.body);
      assert.equal(bodies[0], bodies[2], "retries send the same bytes");
      const records = await eventually(
        () => t.store.hooks.deliveries(created.id, 10, null),
        (rows) => rows.length >= 4,
      );
      assert.deepEqual(
        records.map((d) => d.statusCode),
        [200, 200, 503, 503],
        "newest first",
      );
      assert.deepEqual(
        records.map((d) => d.redelivery),
        [false, false, false, false],
        "automatic retries are no redeliveries",
      );
      assert.equal(records[2]!.status, "Invalid HTTP Response: 503");
    } finally {
      await t.store.hooks.delete(repo, created.id);
      await r.close();
    }
  });

  test("a backlog sent in runs: a failure in the middle of one is retried before anything behind it, each event delivered, in order", async () => {
    let answers = 0;
    // The fifth request fails: the run it is in stops there, and what was claimed behind it waits for its retry.
    const r = receiver(() => (++answers === 5 ? 500 : 200));
    const url = await r.listen();
    const created = await t.store.hooks.create(hook(url), t.clock.now());
    try {
      const events = Array.from({ length: 12 }, () => push());
      await t.ingest.ingestEvents(events);
      await r.until(13);
      const heads = r.received.map((x) => (JSON.parse(x.body) as { after: string }).after);
      const expected = events.map((e) => e.payload.head as string);
      assert.deepEqual(
        heads,
        [...expected.slice(0, 5), ...expected.slice(4)],
        "the fifth twice (failed, retried), then the rest in order",
      );
      const records = await eventually(
        () => t.store.hooks.deliveries(created.id, 20, null),
        (rows) => rows.length >= 13,
      );
      assert.deepEqual(records.map((d) => d.statusCode).reverse(), [200, 200, 200, 200, 500, ...Array(8).fill(200)]);
      assert.equal(
        await eventually(
          () => t.store.hooks.queued(created.id),
          (n) => n === 0,
        ),
        0,
      );
    } finally {
      await t.store.hooks.delete(repo, created.id);
      await r.close();
    }
  });

  test("a receiver killed and brought back gets the retries, in order, with the same GUIDs, every attempt recorded", async () => {
    const first = receiver();
    const url = await first.listen();
    const port = Number(new URL(url).port);
    await first.close(); // killed: connections are refused from now on
    const created = await t.store.hooks.create(hook(url), t.clock.now());
    try {
      const events = [push(), push(), push()];
      await t.ingest.ingestEvents(events);
      // At least one refused attempt of the first event, then the receiver comes back on the same port.
      await eventually(
        () => t.store.hooks.deliveries(created.id, 10, null),
        (rows) => rows.length >= 1,
      );
      const back = receiver();
      await back.listen(port);
      try {
        await back.until(3);
        const heads = back.received.map((x) => (JSON.parse(x.body) as { after: string }).after);
        assert.deepEqual(
          heads,
          events.map((e) => e.payload.head),
          "in the order the events were stored",
        );
        const records = await eventually(
          () => t.store.hooks.deliveries(created.id, 20, null),
          (rows) => rows.filter((d) => d.statusCode === 200).length === 3,
        );
        const refused = records.filter((d) => d.statusCode === 0);
        assert.ok(refused.length >= 1 && refused.every((d) => /ECONNREFUSED/.test(d.status)));
        const firstGuid = String(back.received[0]!.headers["x-github-delivery"]);
        assert.ok(
          refused.every((d) => d.guid === firstGuid),
          "the refused attempts were the first event's, retried under its GUID",
        );
        assert.equal(
          records.find((d) => d.statusCode === 200 && d.guid === firstGuid)!.redelivery,
          false,
          "an automatic retry: GitHub's redelivery is one someone asked for",
        );
      } finally {
        await back.close();
      }
    } finally {
      await t.store.hooks.delete(repo, created.id);
    }
  });

  test("a secret sealed under another key: failed attempts, retried as any (another instance may hold the key), never sent", async () => {
    const r = receiver();
    const url = await r.listen();
    const foreign = SecretBox.ephemeral().seal(SECRET);
    const created = await t.store.hooks.create(
      hook(url, { config: { url, contentType: "json", insecureSsl: "0", sealedSecret: foreign } }),
      t.clock.now(),
    );
    try {
      await t.ingest.ingestEvents([push()]);
      const records = await eventually(
        () => t.store.hooks.deliveries(created.id, 10, null),
        (rows) => rows.length >= 5,
      );
      assert.equal(records.length, 5, "every attempt recorded, up to --webhook-max-attempts");
      assert.ok(records.every((d) => d.statusCode === 0 && /secret cannot be opened/.test(d.status)));
      assert.equal(
        JSON.parse(records[0]!.request.payload).repository.full_name,
        "alice/hello",
        "the body it would have sent",
      );
      assert.equal(r.received.length, 0, "nothing unsigned went out");
    } finally {
      await t.store.hooks.delete(repo, created.id);
      await r.close();
    }
  });

  test("a receiver that is down: the attempt is a failed delivery with a clear status, and the process carries on", async () => {
    const r = receiver();
    const url = await r.listen();
    await r.close(); // nothing listens there any more
    const created = await t.store.hooks.create(hook(url), t.clock.now());
    try {
      await t.ingest.ingestEvents([push()]);
      const records = await eventually(
        () => t.store.hooks.deliveries(created.id, 10, null),
        (rows) => rows.length >= 5,
      );
      assert.equal(records.length, 5, "--webhook-max-attempts (5) attempts, then it gives up");
      assert.ok(
        records.every((d) => d.statusCode === 0 && /ECONNREFUSED/.test(d.status)),
        records[0]!.status,
      );
      assert.equal(await t.store.hooks.queued(created.id), 0);
      assert.equal((await t.store.hooks.find(repo, created.id))!.lastResponse.status, "misconfigured");
    } finally {
      await t.store.hooks.delete(repo, created.id);
    }
  });
});
