/**
 * A repository's collaborators and invitations (`/repos/:user/:repo/collaborators...`, `.../invitations...`) and the
 * invitee's (`/user/repository_invitations...`): parse -> service -> convert -> reply. Writes are actions
 * (services/actions/collaborators.ts, invitations.ts).
 */
import type { FastifyInstance, FastifyReply } from "fastify";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import { endpoints } from "../../api/endpoints.js";
import {
  toWireCollaborator,
  toWireCollaboratorPermission,
  toWireInvitation,
  type InvitationView,
} from "../convert/collaborator.js";
import { readPage, writeLinkHeader } from "../plugins/pagination.js";
import type { CollaboratorService } from "../services/actions/collaborators.js";
import type { InvitationService } from "../services/actions/invitations.js";
import type { Page } from "../store/store.js";
import { actionAccess as access } from "./issues.js";
import { tableRoute } from "./table-route.js";

const { collaborators } = endpoints;

export interface CollaboratorServices {
  collaborators: CollaboratorService;
  invitations: InvitationService;
}

/** 204. A reply is a thenable that settles once sent: returned from a handler, never awaited inside one. */
const noContent = (reply: FastifyReply) => reply.code(204).send();

export function collaboratorRoutes(untyped: FastifyInstance, services: CollaboratorServices): void {
  const app = untyped.withTypeProvider<TypeBoxTypeProvider>();
  const { collaborators: service, invitations } = services;
  const invitationList = (page: Page<InvitationView>, baseUrl: string) =>
    page.rows.map((view) => toWireInvitation(view, invitations.now(), baseUrl));

  app.route({
    ...tableRoute(collaborators.list),
    handler: async (request, reply) => {
      const window = readPage(request.query);
      const page = await service.list(request.params, request.query, access(request), window);
      writeLinkHeader(request, reply, window, page.total);
      return page.rows.map((row) => toWireCollaborator(row, request.baseUrl));
    },
  });
  app.route({
    ...tableRoute(collaborators.check),
    handler: async (request, reply) => {
      await service.check(request.params, access(request));
      return noContent(reply);
    },
  });
  app.route({
    ...tableRoute(collaborators.add),
    handler: async (request, reply) => {
      const added = await service.add(request.params, request.body, access(request));
      if (!added) return noContent(reply);
      return reply.code(201).send(toWireInvitation(added.invitation, service.now(), request.baseUrl));
    },
  });
  app.route({
    ...tableRoute(collaborators.remove),
    handler: async (request, reply) => {
      await service.remove(request.params, access(request));
      return noContent(reply);
    },
  });
  app.route({
    ...tableRoute(collaborators.getPermission),
    handler: async (request) => {
      const { user, permission } = await service.permission(request.params, access(request));
      return toWireCollaboratorPermission(user, permission, request.baseUrl);
    },
  });

  app.route({
    ...tableRoute(collaborators.listInvitations),
    handler: async (request, reply) => {
      const window = readPage(request.query);
      const page = await invitations.listForRepository(request.params, access(request), window);
      writeLinkHeader(request, reply, window, page.total);
      return invitationList(page, request.baseUrl);
    },
  });
  app.route({
    ...tableRoute(collaborators.updateInvitation),
    handler: async (request) => {
      const view = await invitations.update(request.params, request.body, access(request));
      return toWireInvitation(view, invitations.now(), request.baseUrl);
    },
  });
  app.route({
    ...tableRoute(collaborators.deleteInvitation),
    handler: async (request, reply) => {
      await invitations.delete(request.params, access(request));
      return noContent(reply);
    },
  });
  app.route({
    ...tableRoute(collaborators.listForUser),
    handler: async (request, reply) => {
      const window = readPage(request.query);
      const page = await invitations.listForUser(access(request), window);
      writeLinkHeader(request, reply, window, page.total);
      return invitationList(page, request.baseUrl);
    },
  });
  app.route({
    ...tableRoute(collaborators.accept),
    handler: async (request, reply) => {
      await invitations.accept(request.params.invitation_id, access(request));
      return noContent(reply);
    },
  });
  app.route({
    ...tableRoute(collaborators.decline),
    handler: async (request, reply) => {
      await invitations.decline(request.params.invitation_id, access(request));
      return noContent(reply);
    },
  });
}
