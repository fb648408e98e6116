/**
 * The event feeds (spec 4.2): ten feeds and repository issue events, one route per endpoint-table row.
 * Pages are sent as the stored JSON text, never parsed and re-serialized when the envelope is complete.
 */
import type { FastifyInstance } from "fastify";
import { endpoints } from "../../api/endpoints.js";
import { requestSchema, type PageQuery } from "../../api/schemas.js";
import { toWireEventsJson } from "../convert/event.js";
import type { FeedName, FeedParams, FeedService } from "../services/feeds.js";
import { readPage, writeLinkHeader } from "../plugins/pagination.js";

/** GitHub asks pollers to wait this long between requests (wire notes 2.6). */
const POLL_INTERVAL_SECONDS = "60";

export function eventRoutes(app: FastifyInstance, feeds: FeedService): void {
  for (const [name, endpoint] of Object.entries(endpoints.events)) {
    app.route({
      method: endpoint.method,
      url: endpoint.path,
      config: { endpoint },
      schema: { params: requestSchema(endpoint, "path"), querystring: requestSchema(endpoint, "query") },
      handler: async (request, reply) => {
        const window = readPage(request.query as PageQuery);
        const page = await feeds.page(name as FeedName, request.params as FeedParams, request.principal, window);
        request.lastModified = page.newest;
        writeLinkHeader(request, reply, window, page.total);
        reply.header("X-Poll-Interval", POLL_INTERVAL_SECONDS);
        return reply.type("application/json; charset=utf-8").send(toWireEventsJson(page.rows, request.baseUrl));
      },
    });
  }
}
