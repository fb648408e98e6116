/**
 * A GitHub App's own webhook (`/app/hook/config`, `/app/hook/deliveries...`), with the app's JWT: parse -> service
 * -> convert -> reply, as the repository hooks' routes (./hooks.ts) answer the same operations.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import { endpoints } from "../../api/endpoints.js";
import { toWireConfig, toWireDelivery, toWireDeliveryItem } from "../convert/hook.js";
import { readPage, writeCursorLink } from "../plugins/pagination.js";
import type { AppHookService } from "../services/apps/app-hook.js";
import { tableRoute } from "./table-route.js";

const { appHook } = endpoints;

const appOf = (request: FastifyRequest) => request.githubApp!;

export function appHookRoutes(untyped: FastifyInstance, service: AppHookService): void {
  const app = untyped.withTypeProvider<TypeBoxTypeProvider>();
  app.route({
    ...tableRoute(appHook.getConfig),
    handler: async (request) => toWireConfig((await service.hook(appOf(request))).config),
  });
  app.route({
    ...tableRoute(appHook.updateConfig),
    handler: async (request) => toWireConfig((await service.updateConfig(appOf(request), request.body)).config),
  });
  app.route({
    ...tableRoute(appHook.listDeliveries),
    handler: async (request, reply) => {
      const { limit } = readPage(request.query);
      const page = await service.deliveries(appOf(request), limit, request.query.cursor);
      writeCursorLink(request, reply, page.next);
      return page.rows.map(toWireDeliveryItem);
    },
  });
  app.route({
    ...tableRoute(appHook.getDelivery),
    handler: async (request) => toWireDelivery(await service.delivery(appOf(request), request.params.delivery_id)),
  });
  app.route({
    ...tableRoute(appHook.redeliver),
    handler: async (request, reply) => {
      await service.redeliver(appOf(request), request.params.delivery_id);
      return reply.code(202).send({});
    },
  });
}
