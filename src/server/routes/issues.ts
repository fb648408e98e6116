/**
 * GitHub's issues API (`/repos/:user/:repo/issues...`): parse -> service -> convert -> reply. Writes are actions
 * (services/actions/issues.ts), each making its events and webhooks in its own transaction.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import { endpoints, type Endpoint } from "../../api/endpoints.js";
import { toWireTimelineComment } from "../convert/comment.js";
import { issueEventOfIssue, toWireIssue } from "../convert/issue.js";
import { readPage, writeLinkHeader } from "../plugins/pagination.js";
import type { ActionAccess } from "../services/actions/repository-access.js";
import type { IssueService } from "../services/actions/issues.js";
import { tableRoute } from "./table-route.js";

const { issues } = endpoints;

/** The caller and what the route's row accepts, as the action services check them. */
export function actionAccess(request: FastifyRequest): ActionAccess {
  const endpoint: Endpoint | undefined = request.routeOptions.config.endpoint;
  return {
    principal: request.principal,
    acceptedScopes: endpoint?.acceptedScopes ?? [],
    permissions: endpoint?.permissions ?? [],
  };
}

export function issueRoutes(untyped: FastifyInstance, service: IssueService, numericIds: boolean): void {
  const app = untyped.withTypeProvider<TypeBoxTypeProvider>();

  app.route({
    ...tableRoute(issues.listForRepo),
    handler: async (request, reply) => {
      const window = readPage(request.query);
      const page = await service.list(request.params, request.query, request.principal, window);
      writeLinkHeader(request, reply, window, page.total);
      return page.rows.map((facts) => toWireIssue(facts, request.baseUrl));
    },
  });

  app.route({
    ...tableRoute(issues.create),
    handler: async (request, reply) => {
      const { facts } = await service.create(request.params, request.body, actionAccess(request));
      const body = toWireIssue(facts, request.baseUrl);
      return reply.code(201).header("Location", body.url).send(body);
    },
  });

  app.route({
    ...tableRoute(issues.get),
    handler: async (request) => {
      const { facts } = await service.get(request.params, request.principal);
      request.lastModified = facts.issue.updatedAt;
      return toWireIssue(facts, request.baseUrl);
    },
  });

  // The row's PATCH, and POST: GitHub accepts it wherever PATCH is documented (wire notes 1.1).
  for (const method of [undefined, "POST"] as const) {
    app.route({
      ...tableRoute(issues.update, { method }),
      handler: async (request) =>
        toWireIssue((await service.update(request.params, request.body, actionAccess(request))).facts, request.baseUrl),
    });
  }

  app.route({
    ...tableRoute(issues.lock),
    handler: async (request, reply) => {
      await service.setLocked(request.params, request.body ?? {}, actionAccess(request));
      return reply.code(204).send();
    },
  });

  app.route({
    ...tableRoute(issues.unlock),
    handler: async (request, reply) => {
      await service.setLocked(request.params, null, actionAccess(request));
      return reply.code(204).send();
    },
  });

  app.route({
    ...tableRoute(issues.listEvents, { numericIds }),
    handler: async (request, reply) => {
      const window = readPage(request.query);
      const page = await service.events(request.params, request.principal, window);
      writeLinkHeader(request, reply, window, page.total);
      // As the other issue-event lists: the stored JSON, written whole rather than through the schema's few keys.
      const json = JSON.stringify(page.rows.map((body) => issueEventOfIssue(body, numericIds)));
      return (reply as FastifyReply).type("application/json; charset=utf-8").send(Buffer.from(json));
    },
  });

  app.route({
    ...tableRoute(issues.listEventsForTimeline, { numericIds }),
    handler: async (request, reply) => {
      const window = readPage(request.query);
      const page = await service.timeline(request.params, request.principal, window);
      writeLinkHeader(request, reply, window, page.total);
      // Its issue events as the issue's events list writes them: the stored JSON whole, not the schema's few keys.
      const items = page.rows.map((entry) =>
        entry.kind === "event"
          ? issueEventOfIssue(entry.body, numericIds)
          : toWireTimelineComment(entry.facts, request.baseUrl),
      );
      return (reply as FastifyReply).type("application/json; charset=utf-8").send(Buffer.from(JSON.stringify(items)));
    },
  });
}
