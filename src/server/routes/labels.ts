/**
 * What hangs on a repository's issues (`/repos/:user/:repo/labels`, `/milestones`, `/assignees` and an issue's
 * `/labels` and `/assignees`): parse -> service -> convert -> reply. Writes are actions (services/actions/), each
 * making its events and webhooks in its own transaction.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import { endpoints } from "../../api/endpoints.js";
import { toWireIssue, toWireLabel } from "../convert/issue.js";
import { toWireMilestone } from "../convert/milestone.js";
import { toWireSimpleUser } from "../convert/user.js";
import { readPage, writeLinkHeader } from "../plugins/pagination.js";
import type { AssigneeService } from "../services/actions/assignees.js";
import type { LabelPage, LabelService } from "../services/actions/labels.js";
import type { MilestonePage, MilestoneService } from "../services/actions/milestones.js";
import { actionAccess as access } from "./issues.js";
import { tableRoute } from "./table-route.js";

const { labels } = endpoints;

export interface LabelServices {
  labels: LabelService;
  milestones: MilestoneService;
  assignees: AssigneeService;
}

/**
 * GitHub's forms of an issue's labels besides `{labels: [names]}`: a bare array (the body parser's `arrayBody`), a
 * single name, and `{name}` objects, made the documented form before the body is validated.
 */
async function labelsBody(request: FastifyRequest) {
  const given = (request.body as { labels?: unknown } | null | undefined)?.labels;
  const list = typeof given === "string" ? [given] : given;
  if (!Array.isArray(list)) return;
  request.body = {
    labels: list.map((label) =>
      typeof label === "object" && label !== null && "name" in label ? (label as { name: unknown }).name : label,
    ),
  };
}

const labelList = (page: LabelPage, baseUrl: string) =>
  page.rows.map((label) => toWireLabel(label, page.repo.fullName, baseUrl));
const milestoneList = (page: MilestonePage, baseUrl: string) =>
  page.rows.map((facts) => toWireMilestone(facts, page.repo.fullName, baseUrl));

export function labelRoutes(untyped: FastifyInstance, services: LabelServices): void {
  const app = untyped.withTypeProvider<TypeBoxTypeProvider>();
  const { labels: service, milestones, assignees } = services;

  app.route({
    ...tableRoute(labels.listForRepo),
    handler: async (request, reply) => {
      const window = readPage(request.query);
      const page = await service.list(request.params, request.principal, window);
      writeLinkHeader(request, reply, window, page.total);
      return labelList(page, request.baseUrl);
    },
  });

  app.route({
    ...tableRoute(labels.create),
    handler: async (request, reply) => {
      const { repo, label } = await service.create(request.params, request.body, access(request));
      const body = toWireLabel(label, repo.fullName, request.baseUrl);
      return reply.code(201).header("Location", body.url).send(body);
    },
  });

  app.route({
    ...tableRoute(labels.get),
    handler: async (request) => {
      const { repo, label } = await service.get(request.params, request.principal);
      return toWireLabel(label, repo.fullName, request.baseUrl);
    },
  });

  // The row's PATCH, and POST: GitHub accepts it wherever PATCH is documented (wire notes 1.1).
  for (const method of [undefined, "POST"] as const) {
    app.route({
      ...tableRoute(labels.update, { method }),
      handler: async (request) => {
        const { repo, label } = await service.update(request.params, request.body, access(request));
        return toWireLabel(label, repo.fullName, request.baseUrl);
      },
    });
  }

  app.route({
    ...tableRoute(labels.delete),
    handler: async (request, reply) => {
      await service.delete(request.params, access(request));
      return reply.code(204).send();
    },
  });

  app.route({
    ...tableRoute(labels.listOnIssue),
    handler: async (request, reply) => {
      const window = readPage(request.query);
      const page = await service.listOnIssue(request.params, request.principal, window);
      writeLinkHeader(request, reply, window, page.total);
      return labelList(page, request.baseUrl);
    },
  });

  const add = tableRoute(labels.addToIssue);
  app.route({
    ...add,
    config: { ...add.config, arrayBody: "labels" },
    preValidation: labelsBody,
    handler: async (request) =>
      labelList(await service.addToIssue(request.params, request.body.labels, access(request)), request.baseUrl),
  });

  const set = tableRoute(labels.setForIssue);
  app.route({
    ...set,
    config: { ...set.config, arrayBody: "labels" },
    preValidation: labelsBody,
    handler: async (request) =>
      labelList(await service.setForIssue(request.params, request.body.labels, access(request)), request.baseUrl),
  });

  app.route({
    ...tableRoute(labels.removeFromIssue),
    handler: async (request) =>
      labelList(await service.removeFromIssue(request.params, access(request)), request.baseUrl),
  });

  app.route({
    ...tableRoute(labels.removeAllFromIssue),
    handler: async (request, reply) => {
      await service.removeAllFromIssue(request.params, access(request));
      return reply.code(204).send();
    },
  });

  app.route({
    ...tableRoute(labels.listMilestones),
    handler: async (request, reply) => {
      const window = readPage(request.query);
      const page = await milestones.list(request.params, request.query, request.principal, window);
      writeLinkHeader(request, reply, window, page.total);
      return milestoneList(page, request.baseUrl);
    },
  });

  app.route({
    ...tableRoute(labels.createMilestone),
    handler: async (request, reply) => {
      const { repo, facts } = await milestones.create(request.params, request.body, access(request));
      const body = toWireMilestone(facts, repo.fullName, request.baseUrl);
      return reply.code(201).header("Location", body.url).send(body);
    },
  });

  app.route({
    ...tableRoute(labels.getMilestone),
    handler: async (request) => {
      const { repo, facts } = await milestones.get(request.params, request.principal);
      request.lastModified = facts.milestone.updatedAt;
      return toWireMilestone(facts, repo.fullName, request.baseUrl);
    },
  });

  for (const method of [undefined, "POST"] as const) {
    app.route({
      ...tableRoute(labels.updateMilestone, { method }),
      handler: async (request) => {
        const { repo, facts } = await milestones.update(request.params, request.body, access(request));
        return toWireMilestone(facts, repo.fullName, request.baseUrl);
      },
    });
  }

  app.route({
    ...tableRoute(labels.deleteMilestone),
    handler: async (request, reply) => {
      await milestones.delete(request.params, access(request));
      return reply.code(204).send();
    },
  });

  app.route({
    ...tableRoute(labels.listAssignees),
    handler: async (request, reply) => {
      const window = readPage(request.query);
      const page = await assignees.list(request.params, request.principal, window);
      writeLinkHeader(request, reply, window, page.total);
      return page.rows.map((user) => toWireSimpleUser(user, request.baseUrl));
    },
  });

  app.route({
    ...tableRoute(labels.checkAssignee),
    handler: async (request, reply) => {
      await assignees.check(request.params, request.principal);
      return reply.code(204).send();
    },
  });

  app.route({
    ...tableRoute(labels.addAssignees),
    handler: async (request, reply) => {
      const { facts } = await assignees.add(request.params, request.body, access(request));
      return reply.code(201).send(toWireIssue(facts, request.baseUrl));
    },
  });

  app.route({
    ...tableRoute(labels.removeAssignees),
    handler: async (request) =>
      toWireIssue((await assignees.remove(request.params, request.body, access(request))).facts, request.baseUrl),
  });
}
