/**
 * Issue comments and reactions (`/repos/:user/:repo/issues/.../comments`, `.../reactions`): parse -> service ->
 * convert -> reply. Writes are actions (services/actions/comments.ts, reactions.ts).
 */
import type { FastifyInstance, FastifyReply } from "fastify";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import { endpoints } from "../../api/endpoints.js";
import { toWireComment, toWireReaction } from "../convert/comment.js";
import { readPage, writeLinkHeader } from "../plugins/pagination.js";
import type { CommentService } from "../services/actions/comments.js";
import type { ReactionService, ReactionView, SubjectPath } from "../services/actions/reactions.js";
import { actionAccess as access } from "./issues.js";
import { tableRoute } from "./table-route.js";

const { comments } = endpoints;

export function commentRoutes(
  untyped: FastifyInstance,
  services: { comments: CommentService; reactions: ReactionService },
): void {
  const app = untyped.withTypeProvider<TypeBoxTypeProvider>();
  const service = services.comments;

  app.route({
    ...tableRoute(comments.listForIssue),
    handler: async (request, reply) => {
      const window = readPage(request.query);
      const page = await service.listForIssue(request.params, request.query, request.principal, window);
      writeLinkHeader(request, reply, window, page.total);
      return page.rows.map((facts) => toWireComment(facts, request.baseUrl));
    },
  });

  app.route({
    ...tableRoute(comments.create),
    handler: async (request, reply) => {
      const body = toWireComment(await service.create(request.params, request.body, access(request)), request.baseUrl);
      return reply.code(201).header("Location", body.url).send(body);
    },
  });

  app.route({
    ...tableRoute(comments.listForRepo),
    handler: async (request, reply) => {
      const window = readPage(request.query);
      const page = await service.listForRepo(request.params, request.query, request.principal, window);
      writeLinkHeader(request, reply, window, page.total);
      return page.rows.map((facts) => toWireComment(facts, request.baseUrl));
    },
  });

  app.route({
    ...tableRoute(comments.get),
    handler: async (request) => {
      const facts = await service.get(request.params, request.principal);
      request.lastModified = facts.comment.updatedAt;
      return toWireComment(facts, request.baseUrl);
    },
  });

  // The row's PATCH, and POST: GitHub accepts it wherever PATCH is documented (wire notes 1.1).
  for (const method of [undefined, "POST"] as const) {
    app.route({
      ...tableRoute(comments.update, { method }),
      handler: async (request) =>
        toWireComment(await service.update(request.params, request.body, access(request)), request.baseUrl),
    });
  }

  app.route({
    ...tableRoute(comments.delete),
    handler: async (request, reply) => {
      await service.delete(request.params, access(request));
      return reply.code(204).send();
    },
  });

  reactionRoutes(app, services.reactions);
}

/** An issue's reactions and an issue comment's: the same three operations on either subject, from their rows. */
const REACTION_ROWS = [
  {
    list: comments.listReactionsForIssue,
    create: comments.createReactionForIssue,
    remove: comments.deleteReactionForIssue,
  },
  {
    list: comments.listReactionsForComment,
    create: comments.createReactionForComment,
    remove: comments.deleteReactionForComment,
  },
] as const;

/**
 * A reaction route's params: the loop's rows are a union, which the type provider folds to the keys both share,
 * while each row's own schema has validated its subject's key.
 */
const path = <P extends SubjectPath = SubjectPath>(request: { params: unknown }) => request.params as P;

function reactionRoutes(untyped: FastifyInstance, service: ReactionService): void {
  const app = untyped.withTypeProvider<TypeBoxTypeProvider>();
  const wire = (view: ReactionView, baseUrl: string) => toWireReaction(view.reaction, view.user, baseUrl);
  // 200 with the stored one when the caller had given this content already, as GitHub answers; the row's 201 else.
  // The 200 has no schema of the row's: the converter's object is written as it is, in GitHub's order.
  const created = (reply: FastifyReply, made: ReactionView & { created: boolean }, baseUrl: string) =>
    reply.code(made.created ? 201 : 200).send(wire(made, baseUrl));

  for (const rows of REACTION_ROWS) {
    app.route({
      ...tableRoute(rows.list),
      handler: async (request, reply) => {
        const window = readPage(request.query);
        const page = await service.list(path(request), request.query, request.principal, window);
        writeLinkHeader(request, reply, window, page.total);
        return page.rows.map((view) => wire(view, request.baseUrl));
      },
    });
    app.route({
      ...tableRoute(rows.create),
      handler: async (request, reply) =>
        created(reply, await service.create(path(request), request.body, access(request)), request.baseUrl),
    });
    app.route({
      ...tableRoute(rows.remove),
      handler: async (request, reply) => {
        await service.delete(path<SubjectPath & { reaction_id: string }>(request), access(request));
        return reply.code(204).send();
      },
    });
  }
}
