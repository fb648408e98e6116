/**
 * What the hooks API's own deliveries carry, at a real receiver: the ping sent on creation (the hook as the API shows
 * it, the repository, the sender), `POST .../tests` (the latest push), and a redelivery through
 * `POST .../deliveries/:id/attempts` (the same GUID and body, marked as a redelivery in the record).
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { startListeningApp, type ListeningApp } from "../helpers/listening-app.js";
import { TestClock } from "../helpers/test-app.js";
import { basic } from "../helpers/test-app.js";
import { ALICE } from "../helpers/client-world.js";
import { receiver, type Receiver } from "../helpers/webhook-receiver.js";
import { eventually } from "../helpers/wait.js";

describe("deliveries the hooks API asks for", () => {
  let t: ListeningApp;
  let r: Receiver;
  let hookUrl: string;
  const auth = { authorization: basic(ALICE.login, ALICE.password), "content-type": "application/json" };
  before(async () => {
    t = await startListeningApp({ webhookMaxBackoff: "50ms" }, new TestClock(undefined, true)); // retries wait on real time
    r = receiver();
    hookUrl = await r.listen();
  });
  after(async () => {
    await r.close();
    await t.close();
  });

  test("creating a hook pings it; tests delivers the latest push; a delivery is redelivered with its GUID", async () => {
    const created = await fetch(`${t.url}/repos/alice/hello/hooks`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify({ config: { url: hookUrl, content_type: "json" }, events: ["push"] }),
    });
    assert.equal(created.status, 201);
    const hook = (await created.json()) as { id: number; url: string; ping_url: string };
    await r.until(1);
    const ping = r.received[0]!;
    assert.equal(ping.headers["x-github-event"], "ping");
    const pinged = JSON.parse(ping.body) as {
      zen: string;
      hook_id: number;
      hook: { id: number; url: string; config: { url: string } };
      repository: { full_name: string };
      sender: { login: string };
    };
    assert.equal(pinged.hook_id, hook.id);
    assert.equal(pinged.hook.url, hook.url, "the hook as the API shows it");
    assert.equal(pinged.hook.config.url, hookUrl);
    assert.equal(pinged.repository.full_name, "alice/hello");
    assert.equal(pinged.sender.login, "alice");
    assert.ok(pinged.zen.length > 0);

    await t.ingest.ingestEvents([
      {
        id: "880001",
        type: "PushEvent",
        actor: { login: "alice" },
        repo: { name: "alice/hello" },
        public: true,
        created_at: "2026-01-15T09:00:00Z",
        payload: { ref: "refs/heads/main", head: "feed01", before: "0000" },
      },
    ]);
    await r.until(2);
    const tested = await fetch(`${hook.url}/tests`, { method: "POST", headers: auth });
    assert.equal(tested.status, 204);
    await r.until(3);
    const [pushed, again] = [r.received[1]!, r.received[2]!];
    assert.equal(again.headers["x-github-event"], "push");
    assert.equal((JSON.parse(again.body) as { after: string }).after, "feed01");
    assert.notEqual(
      again.headers["x-github-delivery"],
      pushed.headers["x-github-delivery"],
      "a test is a delivery of its own",
    );

    const listed = await eventually(
      async () =>
        (await (await fetch(`${hook.url}/deliveries`, { headers: auth })).json()) as {
          id: number;
          guid: string;
          event: string;
          redelivery: boolean;
        }[],
      (rows) => rows.length >= 3,
    );
    const original = listed.find((d) => d.guid === pushed.headers["x-github-delivery"])!;
    const redelivered = await fetch(`${hook.url}/deliveries/${original.id}/attempts`, {
      method: "POST",
      headers: auth,
    });
    assert.equal(redelivered.status, 202);
    await r.until(4);
    const fourth = r.received[3]!;
    assert.equal(fourth.headers["x-github-delivery"], pushed.headers["x-github-delivery"], "the same GUID");
    assert.equal(fourth.body, pushed.body, "the same body");
    const after = await eventually(
      async () =>
        (await (await fetch(`${hook.url}/deliveries`, { headers: auth })).json()) as {
          guid: string;
          redelivery: boolean;
        }[],
      (rows) => rows.length >= 4,
    );
    assert.deepEqual(
      after.filter((d) => d.guid === original.guid).map((d) => d.redelivery),
      [true, false],
      "newest first",
    );
  });
});
