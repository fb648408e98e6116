/** The GraphQL route's OpenAPI description (./graphql.ts registers it). */
import type { RouteDoc } from "../openapi/route-doc.js";
import { jsonResponse } from "../openapi/route-doc.js";

const GRAPH_ANSWER = {
  type: "object",
  properties: { data: {}, errors: { type: "array", items: { type: "object" } } },
};

export const GRAPHQL: RouteDoc = {
  operationId: "graphql.query",
  tag: "graphql",
  summary: "Run a GraphQL query",
  security: "required",
  description:
    "GitHub's GraphQL interface (`{query, variables, operationName}`), over the part of GitHub's schema served " +
    "(docs/graphql.md). Errors are answered with 200 and `errors`, as GitHub answers them.",
  body: {
    required: true,
    content: {
      "application/json": {
        schema: {
          type: "object",
          properties: { query: { type: "string" }, variables: { type: "object" }, operationName: { type: "string" } },
        },
      },
    },
  },
  success: { 200: jsonResponse(GRAPH_ANSWER, "The query's data and errors") },
};

/** The same at GitHub Enterprise Server's path. */
export const GRAPHQL_ENTERPRISE: RouteDoc = { ...GRAPHQL, operationId: "graphql.queryEnterprise" };
