/**
 * The OpenAPI description of a route outside the endpoint table (probes, metrics, admin ingest, the document itself),
 * written beside the route and carried in its Fastify schema: `operationId`, `summary`, `tags` and `description` as
 * @fastify/swagger reads them, the rest under an `x-` key that ../openapi-description.ts turns into responses.
 */
import type { OpenAPIV3_1 } from "openapi-types";
import type { SecurityRule } from "./security.js";

export interface RouteDoc {
  readonly operationId: string;
  readonly tag: string;
  readonly summary: string;
  readonly description: string;
  readonly security: SecurityRule;
  /** Documentation-only request body: these routes read raw text, so a body schema would make Fastify validate it. */
  readonly body?: OpenAPIV3_1.RequestBodyObject;
  /** Success responses by status; schemas that are named components (by identity) are written as `$ref`s. */
  readonly success: Readonly<
    Record<
      number,
      { readonly description: string; readonly content: Readonly<Record<string, { readonly schema: unknown }>> }
    >
  >;
  /** false where every answer differs from the last (metrics count their own scrapes), so no ETag ever matches. */
  readonly conditional?: false;
}

/** Where the route's schema keeps its RouteDoc: an `x-` key, which @fastify/swagger would copy as it is. */
export const ROUTE_DOC = "x-feedgate-route";

/** The route's `schema` for a RouteDoc: Fastify ignores these keys, @fastify/swagger reads them. */
export function documented(doc: RouteDoc) {
  return {
    operationId: doc.operationId,
    summary: doc.summary,
    tags: [doc.tag],
    description: doc.description,
    [ROUTE_DOC]: doc,
  };
}

/** A JSON success response. */
export const jsonResponse = (schema: unknown, description: string) => ({
  description,
  content: { "application/json": { schema } },
});
