/** The one route builder: what a route made from a table row validates, serializes, and where it differs from its row. */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import Fastify from "fastify";
import { endpoints } from "../../src/api/endpoints.js";
import { responseSchemas } from "../../src/api/responses.js";
import { tableRoute } from "../../src/server/routes/table-route.js";

describe("tableRoute", () => {
  test("takes method, path and the row itself from the row, and serializes with the kind's schema at its status", () => {
    const created = tableRoute(endpoints.hooks.create);
    assert.deepEqual(
      [created.method, created.url, created.config.endpoint],
      ["POST", "/repos/:user/:repo/hooks", endpoints.hooks.create],
    );
    assert.deepEqual(Object.keys(created.schema.response), ["201"]);
    assert.deepEqual(created.schema.response[201], responseSchemas(false).Hook);
    assert.deepEqual(tableRoute(endpoints.hooks.delete).schema.response, {}, "204: nothing to serialize");
    assert.deepEqual(Object.keys(tableRoute(endpoints.hooks.redeliver).schema.response), ["202"]);
    assert.ok("body" in created.schema, "a POST row has a body schema");
    assert.ok(!("body" in tableRoute(endpoints.hooks.get).schema), "Fastify refuses one on GET");
  });

  test("serves GitHub's other forms of a row: POST for PATCH, the id-based path, and no rate limit", () => {
    const alias = tableRoute(endpoints.hooks.update, { method: "POST" });
    assert.deepEqual(
      [alias.method, alias.url, alias.config.endpoint],
      ["POST", endpoints.hooks.update.path, endpoints.hooks.update],
    );
    assert.deepEqual(Object.keys(alias.schema.response), ["200"], "answers as the PATCH it stands for");
    const byId = tableRoute(endpoints.repos.get, { byId: "/repositories/:id" });
    assert.equal(byId.url, "/repositories/:id");
    assert.deepEqual(Object.keys(byId.schema.params.properties), ["id"]);
    assert.equal(tableRoute(endpoints.rateLimit.get, { rateLimit: false }).config.rateLimit, false);
    assert.equal("rateLimit" in tableRoute(endpoints.meta.get).config, false);
  });

  test("refuses a row whose ids follow --numeric-ids unless the route says its mode", () => {
    assert.throws(() => tableRoute(endpoints.authorization.get), /numericIds/);
    assert.throws(() => tableRoute(endpoints.events.getFromRepoIssues), /numericIds/);
    const numeric = tableRoute(endpoints.authorization.get, { numericIds: true });
    assert.equal((numeric.schema.response[200].properties.id as { type: string }).type, "integer");
  });

  test("keeps the converter's key order where the serializer would move optional keys (a repository's permissions)", async () => {
    const app = Fastify();
    // A repository answer in GitHub's order, which the schema's is: `permissions` (optional) before `network_count`.
    const keys = Object.keys(responseSchemas(false).Repository.properties);
    assert.ok(keys.indexOf("permissions") < keys.indexOf("network_count"));
    const ordered = Object.fromEntries(keys.map((key) => [key, key === "permissions" ? { admin: true } : 0]));
    app.route({ ...tableRoute(endpoints.repos.get), handler: async () => ordered as never });
    const res = await app.inject({ url: "/repos/a/b" });
    await app.close();
    assert.deepEqual(Object.keys(res.json()), Object.keys(ordered));
  });
});
