/**
 * Commit comments (`/repos/:user/:repo/commits/:ref/comments`, `/repos/:user/:repo/comments[/:comment_id]`): parse ->
 * service -> convert -> reply, lists paged with `Link`; their reactions (`.../comments/:comment_id/reactions`). Writes are
 * actions (services/commit-comments/, services/actions/reactions.ts).
 */
import type { FastifyInstance, FastifyReply } from "fastify";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import { endpoints } from "../../api/endpoints.js";
import { toWireCommitComment } from "../convert/commit-comment.js";
import { toWireReaction } from "../convert/comment.js";
import type { ReactionService, ReactionView } from "../services/actions/reactions.js";
import { readPage, writeLinkHeader } from "../plugins/pagination.js";
import type { CommitCommentService } from "../services/commit-comments/commit-comments.js";
import { actionAccess as access } from "./issues.js";
import { tableRoute } from "./table-route.js";

const { commitComments: rows } = endpoints;

export function commitCommentRoutes(
  untyped: FastifyInstance,
  services: { commitComments: CommitCommentService; reactions: ReactionService },
): void {
  const app = untyped.withTypeProvider<TypeBoxTypeProvider>();
  const service = services.commitComments;
  const reactions = services.reactions;
  const wire = (view: ReactionView, baseUrl: string) => toWireReaction(view.reaction, view.user, baseUrl);
  // The reaction service tells a commit comment's `comment_id` from an issue comment's by this mark.
  const subject = <P extends object>(params: P) => ({ ...params, commitComment: true as const });
  // The 200 has no schema of the row's: the converter's object is written as it is, in GitHub's order.
  const created = (reply: FastifyReply, made: ReactionView & { created: boolean }, baseUrl: string) =>
    reply.code(made.created ? 201 : 200).send(wire(made, baseUrl));

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

  app.route({
    ...tableRoute(rows.listReactions),
    handler: async (request, reply) => {
      const window = readPage(request.query);
      const page = await reactions.list(subject(request.params), request.query, request.principal, window);
      writeLinkHeader(request, reply, window, page.total);
      return page.rows.map((view) => wire(view, request.baseUrl));
    },
  });

  // 200 with the stored one when the caller had given this content already, as GitHub answers; the row's 201 else.
  app.route({
    ...tableRoute(rows.createReaction),
    handler: async (request, reply) => {
      const made = await reactions.create(subject(request.params), request.body, access(request));
      return created(reply, made, request.baseUrl);
    },
  });

  app.route({
    ...tableRoute(rows.deleteReaction),
    handler: async (request, reply) => {
      await reactions.delete(subject(request.params), access(request));
      return reply.code(204).send();
    },
  });
}
