/**
 * The OpenAPI description as a pure document builder: the endpoint table's rows and the RouteDocs of the other routes,
 * registered on a bare Fastify instance (no store, no plugins, no HTTP), then the document @fastify/swagger assembles
 * from them with feedgate's options. tests/server/openapi.test.ts checks the served document against real answers.
 */
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import Fastify, { type FastifyInstance } from "fastify";
import swagger from "@fastify/swagger";
import { validate } from "@readme/openapi-parser";
import type { OpenAPIV3_1 } from "openapi-types";
import { endpoints, type Endpoint } from "../../src/api/endpoints.js";
import { RESPONSES, successStatus, type ResponseKind } from "../../src/api/responses.js";
import { openapiOptions } from "../../src/server/openapi-description.js";
import { components } from "../../src/server/openapi/components.js";
import { documented, type RouteDoc } from "../../src/server/openapi/route-doc.js";
import { tableRoute } from "../../src/server/routes/table-route.js";
import { HEALTHZ, READYZ } from "../../src/server/routes/meta-openapi.js";
import { INGEST_EVENTS, SEED_WORLD } from "../../src/server/routes/admin-openapi.js";
import { INFO_REFS, RECEIVE_PACK, UPLOAD_PACK } from "../../src/server/routes/smart-http-openapi.js";

type Document = OpenAPIV3_1.Document;
type Method = "get" | "post" | "patch" | "delete";

const ROWS = Object.entries(endpoints).flatMap(([family, rows]) =>
  Object.entries(rows).map(([name, row]) => ({ operationId: `${family}.${name}`, row: row as Endpoint })),
);
const ROUTE_DOCS: [method: "GET" | "POST", url: string, doc: RouteDoc][] = [
  ["GET", "/healthz", HEALTHZ],
  ["GET", "/readyz", READYZ],
  ["POST", "/admin/events", INGEST_EVENTS],
  ["POST", "/admin/world", SEED_WORLD],
  ["GET", "/:user/:repo/info/refs", INFO_REFS],
  ["POST", "/:user/:repo/git-upload-pack", UPLOAD_PACK],
  ["POST", "/:user/:repo/git-receive-pack", RECEIVE_PACK],
];

const openapiPath = (url: string, wildcard?: string) => url.replace(/:(\w+)/g, "{$1}").replace(/\*$/, `{${wildcard}}`);
const operationOf = (document: Document, method: string, url: string, wildcard?: string) =>
  document.paths?.[openapiPath(url, wildcard)]?.[method.toLowerCase() as Method];

/** The document a server in one id mode would describe for exactly these routes. */
async function describeRoutes(numericIds: boolean): Promise<{ app: FastifyInstance; document: Document }> {
  const app = Fastify();
  await app.register(swagger, openapiOptions(numericIds, false));
  for (const { row } of ROWS) app.route({ ...tableRoute(row, { numericIds }), handler: async () => ({}) });
  for (const [method, url, doc] of ROUTE_DOCS) {
    app.route({ method, url, config: { rateLimit: false }, schema: documented(doc), handler: async () => ({}) });
  }
  await app.ready();
  return { app, document: structuredClone(app.swagger()) as unknown as Document };
}

describe("the OpenAPI description of the endpoint table", () => {
  let app: FastifyInstance;
  let document: Document;
  before(async () => ({ app, document } = await describeRoutes(false)));
  after(() => app.close());

  test("is a valid OpenAPI 3.1 document", async () => {
    assert.equal(document.openapi, "3.1.0");
    const result = await validate(structuredClone(document));
    assert.ok(result.valid, JSON.stringify(result, null, 2));
    assert.deepEqual(result.warnings, []);
  });

  test("lists every row under its operation name, with the row's own summary and tag", () => {
    const tags = new Set((document.tags ?? []).map((tag) => tag.name));
    for (const { operationId, row } of ROWS) {
      const operation = operationOf(document, row.method, row.path, row.wildcard);
      assert.ok(operation, `${operationId}: ${row.method} ${row.path} is missing`);
      assert.equal(operation.operationId, operationId);
      assert.ok(row.summary.trim() !== "", `${operationId} has no summary`);
      assert.equal(operation.summary, row.summary, operationId);
      assert.deepEqual(operation.tags, [row.tag], operationId);
      assert.ok(tags.has(row.tag), `${operationId}: its tag ${row.tag} is not among the document's tags`);
      assert.equal(operation.externalDocs?.url, row.documentationUrl, operationId);
    }
  });

  test("answers each row with its response kind's schema, at the kind's success status", () => {
    for (const { operationId, row } of ROWS) {
      const status = successStatus(row);
      const response = operationOf(document, row.method, row.path, row.wildcard)?.responses?.[String(status)] as
        | OpenAPIV3_1.ResponseObject
        | undefined;
      assert.ok(response, `${operationId}: no ${status} response`);
      const expected = components(false).body(row.response);
      if (expected === null) assert.equal(response.content, undefined, `${operationId}: ${status} has a body`);
      else assert.deepEqual(response.content?.["application/json"]?.schema, expected, operationId);
    }
  });

  test("describes the routes outside the table by the RouteDoc beside them", () => {
    for (const [method, url, doc] of ROUTE_DOCS) {
      const operation = operationOf(document, method, url);
      assert.ok(operation, `${method} ${url} is missing`);
      assert.deepEqual(
        [operation.operationId, operation.summary, operation.tags],
        [doc.operationId, doc.summary, [doc.tag]],
      );
      assert.equal(operation.description, `${doc.description} Not rate-limited.`);
      assert.ok(!Object.keys(operation).some((key) => key.startsWith("x-")), `${method} ${url} leaks an x- key`);
      for (const status of Object.keys(doc.success))
        assert.ok(operation.responses?.[status], `${method} ${url}: no ${status}`);
    }
    const schema = (operationOf(document, "GET", "/healthz")!.responses!["200"] as OpenAPIV3_1.ResponseObject)
      .content?.["application/json"]?.schema;
    assert.deepEqual(schema, { $ref: "#/components/schemas/Health" }, "a named body is referred to, not repeated");
  });
});

describe("the response kinds in the document", () => {
  test("every kind but `empty` and `redirect` is a named schema, or an array of one, the document's components hold", () => {
    const named = components(false);
    const refName = (schema: unknown) =>
      /^#\/components\/schemas\/(\w+)$/.exec((schema as { $ref?: string }).$ref ?? "")?.[1];
    for (const kind of Object.keys(RESPONSES) as ResponseKind[]) {
      const body = named.body(kind) as { type?: string; items?: unknown } | null;
      if (kind === "empty" || kind === "redirect") {
        assert.equal(body, null);
        continue;
      }
      if (kind.endsWith("[]")) assert.equal(body?.type, "array", kind);
      const name = kind.endsWith("[]") ? refName(body?.items) : refName(body);
      assert.ok(name && named.schemas[name], `${kind}: ${JSON.stringify(body).slice(0, 200)} is not a named schema`);
    }
  });

  test("the ids follow the server's mode: integers with --numeric-ids, strings otherwise", async () => {
    for (const numericIds of [false, true]) {
      const { app, document } = await describeRoutes(numericIds);
      await app.close();
      const schemas = document.components?.schemas as Record<string, { properties: Record<string, { type?: string }> }>;
      for (const name of ["Authorization", "IssueEvent"]) {
        assert.equal(
          schemas[name]?.properties.id?.type,
          numericIds ? "integer" : "string",
          `${name}, numericIds ${numericIds}`,
        );
      }
    }
  });
});

describe("successStatus", () => {
  test("is 302 for a redirect, 204 without a body, 202 accepted, 201 for a POST row that creates, 200 otherwise", () => {
    assert.equal(successStatus(endpoints.archives.tarball), 302);
    assert.equal(successStatus(endpoints.authorization.delete), 204);
    assert.equal(successStatus(endpoints.hooks.ping), 204);
    assert.equal(successStatus(endpoints.hooks.redeliver), 202);
    assert.equal(successStatus(endpoints.authorization.create), 201);
    assert.equal(successStatus(endpoints.hooks.createForOrg), 201);
    assert.equal(successStatus(endpoints.authorization.update), 200);
    assert.equal(successStatus(endpoints.events.get), 200);
  });
});
