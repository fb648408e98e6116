/**
 * Commit comments (`/repos/:user/:repo/commits/:ref/comments`, `/repos/:user/:repo/comments[/:comment_id]`): parse ->
 * service -> convert -> reply, lists paged with `Link`. Writes are actions (services/commit-comments/).
 */
import type { FastifyInstance } from "fastify";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import { endpoints } from "../../api/endpoints.js";
import { toWireCommitComment } from "../convert/commit-comment.js";
import { readPage, writeLinkHeader } from "../plugins/pagination.js";
import type { CommitCommentService } from "../services/commit-comments/commit-comments.js";
import { actionAccess as access } from "./issues.js";
import { tableRoute } from "./table-route.js";

const { commitComments: rows } = endpoints;

export function commitCommentRoutes(untyped: FastifyInstance, service: CommitCommentService): void {
  const app = untyped.withTypeProvider<TypeBoxTypeProvider>();

  app.route({
    ...tableRoute(rows.create),
    handler: async (request, reply) => {
      const made = await service.create(request.params, request.body, access(request));
      const body = toWireCommitComment(made, request.baseUrl);
      return reply.code(201).header("Location", body.url).send(body);
    },
  });

  app.route({
    ...tableRoute(rows.listForCommit),
    handler: async (request, reply) => {
      const window = readPage(request.query);
      const page = await service.listForCommit(request.params, request.principal, window);
      writeLinkHeader(request, reply, window, page.total);
      return page.rows.map((facts) => toWireCommitComment(facts, request.baseUrl));
    },
  });

  app.route({
    ...tableRoute(rows.listForRepo),
    handler: async (request, reply) => {
      const window = readPage(request.query);
      const page = await service.listForRepo(request.params, request.principal, window);
      writeLinkHeader(request, reply, window, page.total);
      return page.rows.map((facts) => toWireCommitComment(facts, request.baseUrl));
    },
  });

  app.route({
    ...tableRoute(rows.get),
    handler: async (request) => {
      const facts = await service.get(request.params, request.principal);
      request.lastModified = facts.comment.updatedAt;
      return toWireCommitComment(facts, request.baseUrl);
    },
  });

  // The row's PATCH, and POST: GitHub accepts it wherever PATCH is documented (wire notes 1.1).
  for (const method of [undefined, "POST"] as const) {
    app.route({
      ...tableRoute(rows.update, { method }),
      handler: async (request) =>
        toWireCommitComment(await service.update(request.params, request.body.body, access(request)), request.baseUrl),
    });
  }

  app.route({
    ...tableRoute(rows.delete),
    handler: async (request, reply) => {
      await service.delete(request.params, access(request));
      return reply.code(204).send();
    },
  });
}
