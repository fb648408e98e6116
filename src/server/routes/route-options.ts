/** The options of a route made from an endpoint-table row, shared by the route files whose handlers are typed by it. */
import type { TSchema } from "@sinclair/typebox";
import type { Endpoint } from "../../api/endpoints.js";
import { requestSchema, type RequestSchema } from "../../api/schemas.js";

/** Fastify refuses a body schema on GET and DELETE routes; the type says which rows have one. */
type BodySchema<E extends Endpoint> = E["method"] extends "GET" | "DELETE" ? object : { body: RequestSchema<E, "body"> };
const bodySchema = <E extends Endpoint>(endpoint: E) =>
  (endpoint.method === "GET" || endpoint.method === "DELETE" ? {} : { body: requestSchema(endpoint, "body") }) as BodySchema<E>;

/**
 * Route options shared by every operation: the endpoint row as config, request schemas from the table (whose
 * static types the type provider hands the handler as typed `params`, `querystring` and `body`).
 */
export function route<E extends Endpoint, R extends Record<number, TSchema>>(endpoint: E, response: R) {
  return {
    method: endpoint.method,
    url: endpoint.path,
    config: { endpoint },
    schema: {
      params: requestSchema(endpoint, "path"),
      querystring: requestSchema(endpoint, "query"),
      ...bodySchema(endpoint),
      response,
    },
  };
}
