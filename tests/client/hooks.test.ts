/**
 * The SDK's `hooks.*` operations, generated from the endpoint table, against a listening feedgate: typed bodies
 * (booleans and the config object) checked before sending, GitHub's objects back, cursor paging followed.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { Client, ParameterError } from "../../src/client/index.js";
import { startListeningApp, type ListeningApp } from "../helpers/listening-app.js";
import { ALICE } from "../helpers/client-world.js";
import { recordAttempt } from "../helpers/hook-fixtures.js";

describe("SDK hooks operations", () => {
  let t: ListeningApp;
  let client: Client;
  before(async () => {
    t = await startListeningApp();
    client = new Client({
      baseUrl: t.url,
      version: "3.0.0",
      auth: { type: "basic", username: ALICE.login, password: ALICE.password },
    });
  });
  after(() => t.close());

  test("create, get, update, config, list and delete a repository hook", async () => {
    const created = await client.hooks.create({
      user: "alice",
      repo: "hello",
      events: ["push"],
      active: false,
      config: { url: "https://example.com/sdk", content_type: "json", secret: "s3cret", insecure_ssl: 0 },
    });
    assert.equal(created.status, 201);
    assert.equal(created.data.config.secret, "********");
    assert.equal(created.data.config.insecure_ssl, "0");
    assert.equal(created.meta.location, created.data.url);
    const hook_id = String(created.data.id);
    assert.equal((await client.hooks.get({ user: "alice", repo: "hello", hook_id })).data.active, false);
    const updated = await client.hooks.update({ user: "alice", repo: "hello", hook_id, add_events: ["issues"] });
    assert.deepEqual(updated.data.events, ["push", "issues"]);
    const config = await client.hooks.updateConfig({ user: "alice", repo: "hello", hook_id, content_type: "form" });
    assert.deepEqual(config.data, {
      content_type: "form",
      insecure_ssl: "0",
      url: "https://example.com/sdk",
      secret: "********",
    });
    assert.equal((await client.hooks.getConfig({ user: "alice", repo: "hello", hook_id })).data.content_type, "form");
    assert.ok((await client.hooks.list({ user: "alice", repo: "hello" })).data.some((h) => h.id === created.data.id));
    assert.equal((await client.hooks.ping({ user: "alice", repo: "hello", hook_id })).status, 204);
    assert.equal((await client.hooks.delete({ user: "alice", repo: "hello", hook_id })).status, 204);
  });

  test("organization hooks, and deliveries paged by cursor to the last, then redelivered", async () => {
    const created = await client.hooks.createForOrg({
      org: "acme",
      active: false,
      config: { url: "https://example.com/org" },
    });
    assert.equal(created.data.type, "Organization");
    const hook = (await t.store.hooks.find(
      { kind: "org", orgId: (await t.store.users.findByLogin("acme"))!.id },
      created.data.id,
    ))!;
    for (let i = 0; i < 3; i++) await recordAttempt(t.store, hook, { guid: `sdk-${i}` });
    const guids: string[] = [];
    for await (const page of client.paginate(client.hooks.listDeliveriesForOrg, {
      org: "acme",
      hook_id: String(hook.id),
      per_page: 2,
    })) {
      guids.push(...page.data.map((d) => d.guid));
    }
    assert.deepEqual(guids, ["sdk-2", "sdk-1", "sdk-0"]);
    const [first] = (await client.hooks.listDeliveriesForOrg({ org: "acme", hook_id: String(hook.id) })).data;
    const delivery = await client.hooks.getDeliveryForOrg({
      org: "acme",
      hook_id: String(hook.id),
      delivery_id: String(first!.id),
    });
    assert.deepEqual(delivery.data.request.payload, { ref: "refs/heads/main" });
    const again = await client.hooks.redeliverForOrg({
      org: "acme",
      hook_id: String(hook.id),
      delivery_id: String(first!.id),
    });
    assert.equal(again.status, 202);
  });

  test("refuses badly typed parameters before sending", async () => {
    const call = (params: unknown) => (client.hooks.create as (p: unknown) => Promise<unknown>)(params);
    await assert.rejects(call({ user: "alice", repo: "hello", active: "yes" }), ParameterError);
    await assert.rejects(call({ user: "alice", repo: "hello", config: "https://example.com" }), ParameterError);
    await assert.rejects(call({ user: "alice", repo: "hello", config: { url: 5 } }), ParameterError);
    await assert.rejects(
      call({ user: "alice", repo: "hello", config: { url: "https://example.com", colour: "red" } }),
      ParameterError,
    );
    await assert.rejects(
      call({ user: "alice", repo: "hello", config: { url: "https://example.com", insecure_ssl: true } }),
      ParameterError,
    );
  });
});
