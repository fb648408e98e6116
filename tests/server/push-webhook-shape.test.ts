/**
 * A `push` webhook's repository in GitHub's older shape, which the push payload alone keeps
 * (../shared/data/webhooks/examples/push.json and the push schema): `created_at` and `pushed_at` in epoch seconds,
 * `stargazers` and `master_branch` beside their newer names, `custom_properties`, and for an organization's repository
 * the organization's login as `repository.organization` (the schema's string), its object at the top as every webhook
 * has it. Both paths that make a push's webhook: a push made through the API (its `pushed_at` the push's own time),
 * and a PushEvent ingested.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { startTestApp, type TestApp } from "../helpers/test-app.js";
import { ALICE_TOKEN, WORLD } from "../helpers/client-world.js";
import { event } from "../helpers/events.js";
import { IngestService } from "../../src/server/services/ingest.js";
import { hookedReceiver } from "../helpers/webhook-receiver.js";
import { assertWebhook } from "../helpers/webhook-schemas.js";
import type { Receiver } from "../helpers/webhook-receiver.js";

// biome-ignore lint/suspicious/noExplicitAny: a webhook body, read as asserted
type Json = Record<string, any>;

describe("a push webhook's repository, as GitHub's push payload has it", () => {
  let t: TestApp;
  let hook: Receiver;

  before(async () => {
    t = await startTestApp();
    await new IngestService(t.store, t.clock.now).seedWorld(WORLD, { baseDir: undefined });
    hook = await hookedReceiver(t, "acme/site");
  });
  after(async () => {
    await t.close();
    await hook.close();
  });

  const pushes = async (count: number) => {
    await hook.until(count);
    return hook.received.filter((r) => r.headers["x-github-event"] === "push").map((r) => JSON.parse(r.body) as Json);
  };

  function assertPushShape(body: Json) {
    const { repository } = body;
    assert.equal(repository.organization, "acme");
    assert.equal(body.organization.login, "acme");
    assert.equal(typeof repository.created_at, "number");
    assert.equal(typeof repository.pushed_at, "number");
    assert.equal(typeof repository.updated_at, "string");
    assert.equal(repository.stargazers, repository.stargazers_count);
    assert.deepEqual(repository.custom_properties, {});
  }

  test("made by the contents API on an organization's repository", async () => {
    const res = await t.app.inject({
      method: "PUT",
      url: "/repos/acme/site/contents/README.md",
      headers: { authorization: `token ${ALICE_TOKEN}` },
      payload: { message: "Start the site", content: Buffer.from("# site\n").toString("base64") },
    });
    assert.equal(res.statusCode, 201, res.body);
    // The repository's first commit makes its branch: `create`, then `push`.
    const [push] = await pushes(hook.received.length + 2);
    assert.ok(push, "a push webhook");
    assertWebhook("push", null, push);
    assertPushShape(push);
    assert.equal(push.repository.master_branch, push.repository.default_branch);
    assert.equal(push.repository.pushed_at, Math.floor(Date.parse(t.clock.now().toISOString()) / 1000));
  });

  test("made from an ingested PushEvent", async () => {
    const before = hook.received.length;
    const ingested = event("4101", "PushEvent", "olga", "acme/site", {
      created_at: "2026-01-15T09:00:00Z",
      org: { login: "acme" },
    });
    await new IngestService(t.store, t.clock.now).ingestEvents([ingested]);
    await hook.until(before + 1);
    const push = JSON.parse(hook.received.at(-1)!.body) as Json;
    assert.equal(hook.received.at(-1)!.headers["x-github-event"], "push");
    // The stored event's payload is the Events API's (this one recorded none): only the repository is checked.
    assertPushShape(push);
  });
});
