/**
 * GitHub's hooks API, for repositories (`/repos/:user/:repo/hooks...`) and organizations (`/orgs/:org/hooks...`):
 * one set of handlers registered for each family of rows, parse -> service -> convert -> reply.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import { endpoints, type Endpoint } from "../../api/endpoints.js";
import { toWireConfig, toWireDelivery, toWireDeliveryItem, toWireHook, toWireOrgHook } from "../convert/hook.js";
import { readPage, writeCursorLink, writeLinkHeader } from "../plugins/pagination.js";
import type { HookAccess, HookService, Redelivered } from "../services/hooks.js";
import type { HookRow } from "../store/hook-store.js";
import { tableRoute } from "./table-route.js";

const { hooks } = endpoints;

/** The rows of one kind of owner, by what they do; the organization's are the `...ForOrg` ones. */
const FAMILIES = [
  {
    rows: {
      list: hooks.list,
      create: hooks.create,
      get: hooks.get,
      update: hooks.update,
      delete: hooks.delete,
      getConfig: hooks.getConfig,
      updateConfig: hooks.updateConfig,
      ping: hooks.ping,
      listDeliveries: hooks.listDeliveries,
      getDelivery: hooks.getDelivery,
      redeliver: hooks.redeliver,
      redeliverFailed: hooks.redeliverFailed,
    },
    toWire: toWireHook,
  },
  {
    rows: {
      list: hooks.listForOrg,
      create: hooks.createForOrg,
      get: hooks.getForOrg,
      update: hooks.updateForOrg,
      delete: hooks.deleteForOrg,
      getConfig: hooks.getConfigForOrg,
      updateConfig: hooks.updateConfigForOrg,
      ping: hooks.pingForOrg,
      listDeliveries: hooks.listDeliveriesForOrg,
      getDelivery: hooks.getDeliveryForOrg,
      redeliver: hooks.redeliverForOrg,
      redeliverFailed: hooks.redeliverFailedForOrg,
    },
    toWire: toWireOrgHook,
  },
] as const;

const wireRedelivered = (r: Redelivered) => ({ queued: r.queued, hooks: r.hooks, since: r.since.toISOString() });

/** The caller and the scopes this operation's row accepts. */
function access(request: FastifyRequest): HookAccess {
  const endpoint: Endpoint | undefined = request.routeOptions.config.endpoint;
  return {
    principal: request.principal,
    acceptedScopes: endpoint?.acceptedScopes ?? [],
    permissions: endpoint?.permissions ?? [],
  };
}

export function hookRoutes(untyped: FastifyInstance, service: HookService): void {
  const app = untyped.withTypeProvider<TypeBoxTypeProvider>();

  for (const { rows, toWire } of FAMILIES) {
    const wire = (hook: HookRow, path: string, request: FastifyRequest) => toWire(hook, path, request.baseUrl);

    app.route({
      ...tableRoute(rows.list),
      handler: async (request, reply) => {
        const window = readPage(request.query);
        const { scope, page } = await service.list(request.params, access(request), window);
        writeLinkHeader(request, reply, window, page.total);
        return page.rows.map((hook) => wire(hook, scope.path, request));
      },
    });

    app.route({
      ...tableRoute(rows.create),
      handler: async (request, reply) => {
        const { scope, hook } = await service.create(request.params, request.body, access(request));
        const body = wire(hook, scope.path, request);
        return reply.code(201).header("Location", body.url).send(body);
      },
    });

    app.route({
      ...tableRoute(rows.get),
      handler: async (request) => {
        const { scope, hook } = await service.get(request.params, access(request));
        request.lastModified = hook.updatedAt;
        return wire(hook, scope.path, request);
      },
    });

    // The row's PATCH (`method` undefined), and POST: GitHub accepts it wherever PATCH is documented (wire notes 1.1).
    for (const method of [undefined, "POST"] as const) {
      app.route({
        ...tableRoute(rows.update, { method }),
        handler: async (request) => {
          const { scope, hook } = await service.update(request.params, request.body, access(request));
          return wire(hook, scope.path, request);
        },
      });
      app.route({
        ...tableRoute(rows.updateConfig, { method }),
        handler: async (request) =>
          toWireConfig((await service.updateConfig(request.params, request.body, access(request))).config),
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
      ...tableRoute(rows.getConfig),
      handler: async (request) => toWireConfig((await service.get(request.params, access(request))).hook.config),
    });

    app.route({
      ...tableRoute(rows.ping),
      handler: async (request, reply) => {
        await service.ping(request.params, access(request));
        return reply.code(204).send();
      },
    });

    app.route({
      ...tableRoute(rows.listDeliveries),
      handler: async (request, reply) => {
        const { limit } = readPage(request.query);
        const page = await service.listDeliveries(request.params, access(request), limit, request.query.cursor);
        writeCursorLink(request, reply, page.next);
        return page.rows.map(toWireDeliveryItem);
      },
    });

    app.route({
      ...tableRoute(rows.getDelivery),
      handler: async (request) => {
        return toWireDelivery((await service.delivery(request.params, access(request))).delivery);
      },
    });

    app.route({
      ...tableRoute(rows.redeliver),
      handler: async (request, reply) => {
        await service.redeliver(request.params, access(request));
        return reply.code(202).send({});
      },
    });

    app.route({
      ...tableRoute(rows.redeliverFailed),
      handler: async (request, reply) => {
        return reply
          .code(202)
          .send(wireRedelivered(await service.redeliverFailed(request.params, request.body.since, access(request))));
      },
    });
  }

  app.route({
    ...tableRoute(hooks.redeliverAllFailed),
    handler: async (request, reply) =>
      reply.code(202).send(wireRedelivered(await service.redeliverAllFailed(request.body.since, request.principal))),
  });

  app.route({
    ...tableRoute(hooks.test),
    handler: async (request, reply) => {
      await service.test(request.params, access(request));
      return reply.code(204).send();
    },
  });
}
