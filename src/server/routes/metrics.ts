/**
 * `GET /metrics`: the Prometheus text format, for scrapers. Like the probes it neither counts against rate
 * limits nor carries their headers: a scrape every few seconds would otherwise spend a client IP's window. Not API
 * either: served at `/metrics` only, never under `/api/v3` (plugins/api-prefix.ts).
 */
import type { FastifyInstance } from "fastify";
import type { Metrics } from "../metrics.js";
import { documented } from "../openapi/route-doc.js";

const METRICS_DOC = documented({
  operationId: "meta.metrics",
  tag: "meta",
  summary: "Prometheus metrics",
  security: "optional",
  description: "The Prometheus text format. Absent here when `--metrics-port` serves it on a port of its own.",
  conditional: false,
  success: { 200: { description: "Metrics", content: { "text/plain": { schema: { type: "string" } } } } },
});

export function metricsRoutes(app: FastifyInstance, metrics: Metrics): void {
  app.get(
    "/metrics",
    {
      config: { rateLimit: false, rootOnly: true },
      schema: METRICS_DOC,
      // After the API's own onSend hooks (route hooks run last): a cache that kept a scrape for the API's
      // 60 seconds would hand out stale numbers.
      onSend: async (_request, reply, payload) => {
        reply.header("Cache-Control", "no-store");
        return payload;
      },
    },
    async (_request, reply) => {
      const { contentType, text } = await metrics.exposition();
      return reply.type(contentType).send(text);
    },
  );
}
