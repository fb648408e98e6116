/**
 * Branch protection (`/repos/:user/:repo/branches/:branch/protection[/required_status_checks|/required_pull_request_reviews]`):
 * parse -> service -> convert -> reply. Writes are actions (services/protection/branch-protection.ts).
 */
import type { FastifyInstance } from "fastify";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import { endpoints } from "../../api/endpoints.js";
import { protectionUrl, toWireProtection, toWireReviews, toWireStatusChecks } from "../convert/protection.js";
import type { BranchProtectionService, ProtectionView } from "../services/protection/branch-protection.js";
import { actionAccess as access } from "./issues.js";
import { tableRoute } from "./table-route.js";

const { branchProtection: rows } = endpoints;

export function branchProtectionRoutes(untyped: FastifyInstance, service: BranchProtectionService): void {
  const app = untyped.withTypeProvider<TypeBoxTypeProvider>();
  const wire = (view: ProtectionView, baseUrl: string) =>
    toWireProtection(view.row, view.pushers, view.repo.fullName, baseUrl);

  app.route({
    ...tableRoute(rows.get),
    handler: async (request) => {
      const view = await service.get(request.params, access(request));
      request.lastModified = view.row.updatedAt;
      return wire(view, request.baseUrl);
    },
  });

  app.route({
    ...tableRoute(rows.update),
    handler: async (request) => wire(await service.put(request.params, request.body, access(request)), request.baseUrl),
  });

  app.route({
    ...tableRoute(rows.delete),
    handler: async (request, reply) => {
      await service.delete(request.params, access(request));
      return reply.code(204).send();
    },
  });

  app.route({
    ...tableRoute(rows.getStatusChecks),
    handler: async (request) => {
      const { repo, branch, checks } = await service.statusChecks(request.params, access(request));
      return toWireStatusChecks(checks, protectionUrl(repo.fullName, branch, request.baseUrl));
    },
  });

  app.route({
    ...tableRoute(rows.getPullRequestReviews),
    handler: async (request) => {
      const { repo, branch, reviews } = await service.reviews(request.params, access(request));
      return toWireReviews(reviews, protectionUrl(repo.fullName, branch, request.baseUrl));
    },
  });
}
