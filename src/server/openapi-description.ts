/**
 * The OpenAPI 3.1 description, assembled at start-up from what the server registers: @fastify/swagger collects every
 * route with its request schemas; `transform` describes each one from what it carries, its endpoint-table row (route
 * config `endpoint`: ./openapi/table-operation.ts) or, for the routes outside the table, the RouteDoc written beside
 * it (./openapi/route-doc.ts); `transformObject` moves the responses into place. Responses come from the row's
 * response kind (src/api/responses.ts) and from what the plugins imply (rate limit, conditional requests, paging,
 * errors), never from the routes' response schemas, which are Fastify's serializers.
 */
import type { FastifySchema, RouteOptions } from "fastify";
import type { FastifyDynamicSwaggerOptions } from "@fastify/swagger";
import type { OpenAPIV3_1 } from "openapi-types";
import type { Endpoint } from "../api/endpoints.js";
import { SUPPORTED_VERSION } from "../api/versions.js";
import { API_DESCRIPTION, TAGS } from "./openapi/api-description.js";
import { components, type Components } from "./openapi/components.js";
import {
  commonHeaders,
  CONDITIONAL_PARAMETERS,
  ERROR_RESPONSES,
  errorResponses,
  HEADER_COMPONENTS,
  headers,
  notModified,
  type Json,
  type Responses,
} from "./openapi/responses.js";
import { ROUTE_DOC, type RouteDoc } from "./openapi/route-doc.js";
import { SECURITY, SECURITY_SCHEMES } from "./openapi/security.js";
import { tableOperation } from "./openapi/table-operation.js";

/** Where `transform` leaves an operation's responses for `transformObject`: an `x-` key, which @fastify/swagger copies as it is. */
const RESPONSES = "x-feedgate-responses";

function routeDocResponses(route: RouteOptions, doc: RouteDoc, named: Components): Responses {
  const common = commonHeaders(route);
  const get = route.method === "GET";
  const conditional = get && doc.conditional !== false;
  const success = Object.fromEntries(
    Object.entries(doc.success).map(([status, response]) => [
      status,
      {
        ...(named.refs(response) as Json),
        headers: headers([...common, ...(get && status === "200" ? ["ETag"] : [])]),
      },
    ]),
  );
  return {
    ...errorResponses(route, { notFound: doc.tag === "admin", unprocessable: false }),
    ...(conditional ? { 304: notModified([...common, "ETag"]) } : {}),
    ...success,
  };
}

/** A route outside the table, as the RouteDoc in its schema describes it. */
function routeDocOperation(route: RouteOptions, schema: FastifySchema & { [ROUTE_DOC]?: RouteDoc }, named: Components) {
  const { [ROUTE_DOC]: doc, ...rest } = schema;
  if (!doc) return null;
  return {
    ...rest,
    description: doc.description + (route.config?.rateLimit === false ? " Not rate-limited." : ""),
    security: SECURITY[doc.security],
    ...(doc.body ? { body: doc.body } : {}),
    [RESPONSES]: routeDocResponses(route, doc, named),
  };
}

function describeRoute(route: RouteOptions, schema: FastifySchema, named: Components): FastifySchema {
  const endpoint = route.config?.endpoint;
  // An undescribed route is still listed, without a summary: tests/server/openapi.test.ts names it.
  return (
    (endpoint ? tableOperation(route, schema, endpoint, named, RESPONSES) : routeDocOperation(route, schema, named)) ??
    schema
  );
}

/** The options of @fastify/swagger (dynamic mode): the document's frame and the two hooks. */
/** @param testControls whether `/_feedgate/` is served, and so described. */
/**
 * A wildcard route as GitHub describes it: `/git/ref/{ref}` and its `ref` parameter, not Fastify's `*` (which
 * @fastify/swagger would write `{*}`).
 */
function withNamedWildcard(schema: FastifySchema, url: string, name: string) {
  const params = schema.params as { properties?: Record<string, unknown>; required?: string[] } | undefined;
  const properties = params?.properties && {
    ...Object.fromEntries(Object.entries(params.properties).filter(([key]) => key !== "*")),
    [name]: params.properties["*"],
  };
  const required = params?.required?.map((key) => (key === "*" ? name : key));
  return {
    schema: {
      ...schema,
      params: { ...params, ...(properties ? { properties } : {}), ...(required ? { required } : {}) },
    },
    url: url.replace(/\*$/, `:${name}`),
  };
}

export function openapiOptions(numericIds: boolean, testControls: boolean): FastifyDynamicSwaggerOptions {
  const named = components(numericIds);
  return {
    openapi: {
      openapi: "3.1.0",
      info: {
        title: "feedgate",
        version: SUPPORTED_VERSION,
        description: API_DESCRIPTION,
        license: { name: "MIT", identifier: "MIT" },
      },
      tags: TAGS.filter((tag) => testControls || tag.name !== "testControls"),
      components: {
        // TypeBox schemas are JSON Schema; @fastify/swagger converts them to OpenAPI's dialect.
        schemas: named.schemas as unknown as Record<string, OpenAPIV3_1.SchemaObject>,
        securitySchemes: SECURITY_SCHEMES,
        headers: HEADER_COMPONENTS,
        parameters: CONDITIONAL_PARAMETERS,
        responses: ERROR_RESPONSES,
      },
    },
    transform: ({ schema, url, route }) => {
      if (schema?.hide) return { schema, url };
      // Response schemas, when a route has them, are Fastify's serializers; the document's come from the table.
      const { response: _serializers, ...request } = (schema ?? {}) as FastifySchema & { response?: unknown };
      const wildcard = (route.config as { endpoint?: Endpoint } | undefined)?.endpoint?.wildcard;
      if (wildcard) return withNamedWildcard(describeRoute(route, request, named), url, wildcard);
      return { schema: describeRoute(route, request, named), url };
    },
    transformObject: (document) => {
      const openapi = (document as { openapiObject: OpenAPIV3_1.Document }).openapiObject;
      for (const item of Object.values(openapi.paths ?? {})) {
        for (const [method, operation] of Object.entries(item ?? {}) as [
          string,
          OpenAPIV3_1.OperationObject & Json,
        ][]) {
          const responses = operation[RESPONSES] as Responses | undefined;
          if (!responses) continue;
          delete operation[RESPONSES];
          operation.responses = responses;
          if (method === "get") {
            operation.parameters = [
              ...(operation.parameters ?? []),
              ...Object.keys(CONDITIONAL_PARAMETERS).map((name) => ({ $ref: `#/components/parameters/${name}` })),
            ];
          }
        }
      }
      return openapi;
    },
  };
}

/** The document as served to one request: its server is the base URL the request's answers use. */
export function servedDocument(document: Readonly<Record<string, unknown>>, baseUrl: string) {
  return { ...document, servers: [{ url: baseUrl }] };
}
