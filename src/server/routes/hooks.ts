/**
 * GitHub's hooks API, for repositories (`/repos/:user/:repo/hooks...`) and organizations (`/orgs/:org/hooks...`):
 * one set of handlers registered for each family of rows, parse -> service -> convert -> reply.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import { Type } from "@sinclair/typebox";
import { endpoints, type Endpoint } from "../../api/endpoints.js";
import { Accepted, Hook, HookDelivery, HookDeliveryItem, OrgHook, WebhookConfig } from "../../api/schemas.js";
import { toWireConfig, toWireDelivery, toWireDeliveryItem, toWireHook, toWireOrgHook } from "../convert/hook.js";
import { readPage, writeCursorLink, writeLinkHeader } from "../plugins/pagination.js";
import type { HookAccess, HookService } from "../services/hooks.js";
import type { HookRow } from "../store/hook-store.js";
import { route } from "./route-options.js";

const { hooks } = endpoints;

/** The rows of one kind of owner, by what they do; the organization's are the `...ForOrg` ones. */
const FAMILIES = [
  {
    rows: {
      list: hooks.list, create: hooks.create, get: hooks.get, update: hooks.update, delete: hooks.delete,
      getConfig: hooks.getConfig, updateConfig: hooks.updateConfig, ping: hooks.ping, listDeliveries: hooks.listDeliveries,
      getDelivery: hooks.getDelivery, redeliver: hooks.redeliver,
    },
    schema: Hook,
    toWire: toWireHook,
  },
  {
    rows: {
      list: hooks.listForOrg, create: hooks.createForOrg, get: hooks.getForOrg, update: hooks.updateForOrg,
      delete: hooks.deleteForOrg, getConfig: hooks.getConfigForOrg, updateConfig: hooks.updateConfigForOrg,
      ping: hooks.pingForOrg, listDeliveries: hooks.listDeliveriesForOrg, getDelivery: hooks.getDeliveryForOrg,
      redeliver: hooks.redeliverForOrg,
    },
    schema: OrgHook,
    toWire: toWireOrgHook,
  },
] as const;

/** The caller and the scopes this operation's row accepts. */
function access(request: FastifyRequest): HookAccess {
  const endpoint: Endpoint | undefined = request.routeOptions.config.endpoint;
  return { principal: request.principal, acceptedScopes: endpoint?.acceptedScopes ?? [] };
}

export function hookRoutes(untyped: FastifyInstance, service: HookService): void {
  const app = untyped.withTypeProvider<TypeBoxTypeProvider>();

  for (const { rows, schema, toWire } of FAMILIES) {
    const wire = (hook: HookRow, path: string, request: FastifyRequest) => toWire(hook, path, request.baseUrl);

    app.route({
      ...route(rows.list, { 200: Type.Array(schema) }),
      handler: async (request, reply) => {
        const window = readPage(request.query);
        const { scope, page } = await service.list(request.params, access(request), window);
        writeLinkHeader(request, reply, window, page.total);
        return page.rows.map((hook) => wire(hook, scope.path, request));
      },
    });

    app.route({
      ...route(rows.create, { 201: schema }),
      handler: async (request, reply) => {
        const { scope, hook } = await service.create(request.params, request.body, access(request));
        const body = wire(hook, scope.path, request);
        return reply.code(201).header("Location", body.url).send(body);
      },
    });

    app.route({
      ...route(rows.get, { 200: schema }),
      handler: async (request) => {
        const { scope, hook } = await service.get(request.params, access(request));
        request.lastModified = hook.updatedAt;
        return wire(hook, scope.path, request);
      },
    });

    // GitHub accepts POST wherever PATCH is documented (wire notes 1.1), for clients that cannot send PATCH.
    for (const method of ["PATCH", "POST"] as const) {
      app.route({
        ...route(rows.update, { 200: schema }), method,
        handler: async (request) => {
          const { scope, hook } = await service.update(request.params, request.body, access(request));
          return wire(hook, scope.path, request);
        },
      });
      app.route({
        ...route(rows.updateConfig, { 200: WebhookConfig }), method,
        handler: async (request) =>
          toWireConfig((await service.updateConfig(request.params, request.body, access(request))).config),
      });
    }

    app.route({
      ...route(rows.delete, {}),
      handler: async (request, reply) => {
        await service.delete(request.params, access(request));
        return reply.code(204).send();
      },
    });

    app.route({
      ...route(rows.getConfig, { 200: WebhookConfig }),
      handler: async (request) => toWireConfig((await service.get(request.params, access(request))).hook.config),
    });

    app.route({
      ...route(rows.ping, {}),
      handler: async (request, reply) => {
        await service.ping(request.params, access(request));
        return reply.code(204).send();
      },
    });

    app.route({
      ...route(rows.listDeliveries, { 200: Type.Array(HookDeliveryItem) }),
      handler: async (request, reply) => {
        const { limit } = readPage(request.query);
        const page = await service.listDeliveries(request.params, access(request), limit, request.query.cursor);
        writeCursorLink(request, reply, page.next);
        return page.rows.map(toWireDeliveryItem);
      },
    });

    app.route({
      ...route(rows.getDelivery, { 200: HookDelivery }),
      handler: async (request) => {
        return toWireDelivery((await service.delivery(request.params, access(request))).delivery);
      },
    });

    app.route({
      ...route(rows.redeliver, { 202: Accepted }),
      handler: async (request, reply) => {
        await service.redeliver(request.params, access(request));
        return reply.code(202).send({});
      },
    });
  }

  app.route({
    ...route(hooks.test, {}),
    handler: async (request, reply) => {
      await service.test(request.params, access(request));
      return reply.code(204).send();
    },
  });
}
