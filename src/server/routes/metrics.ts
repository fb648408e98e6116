/**
 * `GET /metrics`: the Prometheus text format, for scrapers. Like the probes it neither counts against rate
 * limits nor carries their headers: a scrape every few seconds would otherwise spend a client IP's window. Not API
 * either: served at `/metrics` only, never under `/api/v3` (plugins/api-prefix.ts).
 */
import type { FastifyInstance } from "fastify";
import type { Metrics } from "../metrics.js";

export function metricsRoutes(app: FastifyInstance, metrics: Metrics): void {
  app.get("/metrics", {
    config: { rateLimit: false, rootOnly: true },
    // After the API's own onSend hooks (route hooks run last): a cache that kept a scrape for the API's
    // 60 seconds would hand out stale numbers.
    onSend: async (_request, reply, payload) => {
      reply.header("Cache-Control", "no-store");
      return payload;
    },
  }, async (_request, reply) => {
    const { contentType, text } = await metrics.exposition();
    return reply.type(contentType).send(text);
  });
}
