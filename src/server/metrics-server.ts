/**
 * `/metrics` on a port of its own (`--metrics-port`), so that scrapers reach it on an internal interface or
 * port while the API port, open to clients, does not serve it. A second, bare Fastify: no API plugins apply.
 */
import Fastify, { type FastifyBaseLogger } from "fastify";
import type { Metrics } from "./metrics.js";
import { metricsRoutes } from "./routes/metrics.js";

export interface MetricsServer {
  /** The address actually bound (port 0 resolves to a free port). */
  url: string;
  close(): Promise<void>;
}

export async function startMetricsServer(metrics: Metrics, host: string, port: number, logger: FastifyBaseLogger)
  : Promise<MetricsServer> {
  const server = Fastify({ loggerInstance: logger });
  metricsRoutes(server, metrics);
  const url = await server.listen({ host, port });
  return { url, close: () => server.close() };
}
