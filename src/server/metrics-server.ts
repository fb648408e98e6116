/**
 * `/metrics` on a port of its own (`--metrics-port`), so that scrapers reach it on an internal interface or
 * port while the API port, open to clients, does not serve it. A second, bare Fastify: no API plugins apply.
 *
 * It stays plain HTTP when `--tls-cert` puts the API port on HTTPS: the port exists to be bound where only scrapers
 * reach it, the numbers carry no credentials or request data (route patterns, counts), and a scraper then needs no
 * CA of ours; Prometheus's own default scheme is http. Without `--metrics-port`, `/metrics` is on the API port and
 * so behind its TLS.
 */
import Fastify, { type FastifyBaseLogger } from "fastify";
import type { Metrics } from "./metrics.js";
import { metricsRoutes } from "./routes/metrics.js";

export interface MetricsServer {
  /** The address actually bound (port 0 resolves to a free port). */
  url: string;
  close(): Promise<void>;
}

export async function startMetricsServer(
  metrics: Metrics,
  host: string,
  port: number,
  logger: FastifyBaseLogger,
): Promise<MetricsServer> {
  const server = Fastify({ loggerInstance: logger });
  metricsRoutes(server, metrics);
  const url = await server.listen({ host, port });
  return { url, close: () => server.close() };
}
