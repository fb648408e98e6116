/**
 * Fine-grained personal access tokens (feedgate's own family; GitHub makes them on its web pages): list, get, create,
 * delete. Handlers are parse -> service -> convert -> reply; the auth plugin has already required password Basic auth.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import { endpoints } from "../../api/endpoints.js";
import { tableRoute } from "./table-route.js";
import { toWireFineGrainedToken } from "../convert/fine-grained-token.js";
import type { FineGrainedTokenService } from "../services/fine-grained-tokens.js";
import { readPage, writeLinkHeader } from "../plugins/pagination.js";
import type { UserRow } from "../store/store.js";

/** The password-authenticated user; the auth plugin guarantees one on these routes. */
const caller = (request: FastifyRequest): UserRow => request.principal!.user;

export function personalAccessTokenRoutes(untyped: FastifyInstance, service: FineGrainedTokenService): void {
  const app = untyped.withTypeProvider<TypeBoxTypeProvider>();
  const { list, get, create } = endpoints.personalAccessTokens;

  app.route({
    ...tableRoute(list),
    handler: async (request, reply) => {
      const window = readPage(request.query);
      const { rows, total } = await service.list(caller(request), window);
      writeLinkHeader(request, reply, window, total);
      return rows.map((view) => toWireFineGrainedToken(view, request.baseUrl));
    },
  });

  app.route({
    ...tableRoute(get),
    handler: async (request) =>
      toWireFineGrainedToken(await service.get(caller(request), request.params.id), request.baseUrl),
  });

  app.route({
    ...tableRoute(create),
    handler: async (request, reply) => {
      const { body } = request;
      const { view, token } = await service.create(caller(request), {
        name: body.name,
        description: body.description,
        resourceOwner: body.resource_owner,
        repositorySelection: body.repository_selection,
        repositories: body.repositories,
        permissions: body.permissions,
        expiresAt: body.expires_at,
      });
      const created = toWireFineGrainedToken(view, request.baseUrl, token);
      return reply.code(201).header("Location", created.url).send(created);
    },
  });

  app.route({
    ...tableRoute(endpoints.personalAccessTokens.delete),
    handler: async (request, reply) => {
      await service.delete(caller(request), request.params.id);
      return reply.code(204).send();
    },
  });
}
