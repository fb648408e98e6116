/**
 * The authorizations family (spec 4.1): list, get, create, update, delete. Handlers are
 * parse -> service -> convert -> reply; the auth plugin has already required password Basic auth.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { endpoints, type Endpoint } from "../../api/endpoints.js";
import { Authorization, requestSchema, type PageQuery } from "../../api/schemas.js";
import { Type } from "@sinclair/typebox";
import { toWireAuthorization } from "../convert/authorization.js";
import type {
  AuthorizationService, CreateAuthorizationInput, UpdateAuthorizationInput,
} from "../services/authorizations.js";
import { readPage, writeLinkHeader } from "../plugins/pagination.js";
import type { UserRow } from "../store/store.js";

/** Route options shared by every operation: the endpoint row as config, request schemas from the table. */
function route(endpoint: Endpoint, response: Record<number, unknown>) {
  return {
    method: endpoint.method,
    url: endpoint.path,
    config: { endpoint },
    schema: {
      params: requestSchema(endpoint, "path"),
      querystring: requestSchema(endpoint, "query"),
      ...(endpoint.method === "GET" || endpoint.method === "DELETE" ? {} : { body: requestSchema(endpoint, "body") }),
      response,
    },
  };
}

/** The password-authenticated user; the auth plugin guarantees one on these routes. */
function caller(request: FastifyRequest): UserRow {
  return request.principal!.user;
}

type IdParams = { id: string };

export function authorizationRoutes(app: FastifyInstance, service: AuthorizationService): void {
  const { getAll, get, create, update } = endpoints.authorization;

  app.route({
    ...route(getAll, { 200: Type.Array(Authorization) }),
    handler: async (request, reply) => {
      const window = readPage(request.query as PageQuery);
      const { rows, total } = await service.list(caller(request), window);
      writeLinkHeader(request, reply, window, total);
      return rows.map((row) => toWireAuthorization(row, request.baseUrl));
    },
  });

  app.route({
    ...route(get, { 200: Authorization }),
    handler: async (request) => {
      const row = await service.get(caller(request), (request.params as IdParams).id);
      request.lastModified = row.updatedAt;
      return toWireAuthorization(row, request.baseUrl);
    },
  });

  app.route({
    ...route(create, { 201: Authorization }),
    handler: async (request, reply) => {
      const { row, token } = await service.create(caller(request), request.body as CreateAuthorizationInput);
      const body = toWireAuthorization(row, request.baseUrl, token);
      return reply.code(201).header("Location", body.url).send(body);
    },
  });

  const updateHandler = async (request: FastifyRequest) => {
    const input = request.body as UpdateAuthorizationInput;
    const row = await service.update(caller(request), (request.params as IdParams).id, input);
    return toWireAuthorization(row, request.baseUrl);
  };
  app.route({ ...route(update, { 200: Authorization }), handler: updateHandler });
  // GitHub accepts POST wherever PATCH is documented (wire notes 1.1), for clients that cannot send PATCH.
  app.route({ ...route(update, { 200: Authorization }), method: "POST", handler: updateHandler });

  app.route({
    ...route(endpoints.authorization.delete, {}),
    handler: async (request, reply) => {
      await service.delete(caller(request), (request.params as IdParams).id);
      return reply.code(204).send();
    },
  });
}
