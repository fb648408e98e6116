/**
 * Commit statuses (`/repos/:user/:repo/statuses/:sha`, `/commits/:ref/statuses`, `/commits/:ref/status`): parse ->
 * service -> convert -> reply, lists paged with `Link`. A new status answers 201 with its `Location`, as GitHub's.
 */
import type { FastifyInstance } from "fastify";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import { endpoints } from "../../api/endpoints.js";
import { toWireCombinedStatus, toWireStatus } from "../convert/status.js";
import { readPage, writeLinkHeader } from "../plugins/pagination.js";
import type { CheckServices } from "../services/checks/check-services.js";
import { actionAccess as access } from "./issues.js";
import { tableRoute } from "./table-route.js";

const { statuses } = endpoints;

export function statusRoutes(untyped: FastifyInstance, services: CheckServices): void {
  const app = untyped.withTypeProvider<TypeBoxTypeProvider>();
  const service = services.statuses;

  app.route({
    ...tableRoute(statuses.create),
    handler: async (request, reply) => {
      const { repo, facts } = await service.create(request.params, request.body, access(request));
      const body = toWireStatus(facts, repo.fullName, request.baseUrl);
      return reply.code(201).header("Location", body.url).send(body);
    },
  });

  app.route({
    ...tableRoute(statuses.listForRef),
    handler: async (request, reply) => {
      const window = readPage(request.query);
      const { repo, rows, total } = await service.list(request.params, request.principal, window);
      writeLinkHeader(request, reply, window, total);
      return rows.map((facts) => toWireStatus(facts, repo.fullName, request.baseUrl));
    },
  });

  app.route({
    ...tableRoute(statuses.listForRefLegacy),
    handler: async (request, reply) => {
      const window = readPage(request.query);
      const { user, repo: name, sha: ref } = request.params;
      const { repo, rows, total } = await service.list({ user, repo: name, ref }, request.principal, window);
      writeLinkHeader(request, reply, window, total);
      return rows.map((facts) => toWireStatus(facts, repo.fullName, request.baseUrl));
    },
  });

  app.route({
    ...tableRoute(statuses.getCombinedForRef),
    handler: async (request, reply) => {
      const window = readPage(request.query);
      const combined = await service.combined(request.params, request.principal, window);
      writeLinkHeader(request, reply, window, combined.totalCount);
      return toWireCombinedStatus(combined, request.baseUrl);
    },
  });
}
