/**
 * Probes for load balancers: `/healthz` says the process is up; `/readyz` that the database and the shared
 * counters (Redis, when configured) answer. Neither counts against rate limits, and neither is API: both are
 * served at `/` only, not under `/api/v3` (plugins/api-prefix.ts).
 */
import type { FastifyInstance } from "fastify";
import type { WindowCounters } from "../counters/counters.js";
import type { Store } from "../store/store.js";
import { documented } from "../openapi/route-doc.js";
import { HEALTHZ, READYZ } from "./meta-openapi.js";

/** How long a dependency may take to answer before the instance is reported not ready. */
const READY_TIMEOUT_MS = 2000;

async function check(name: string, probe: () => Promise<void>): Promise<[string, string]> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("timed out")), READY_TIMEOUT_MS);
  });
  try {
    await Promise.race([probe(), timeout]);
    return [name, "ok"];
  } catch (error) {
    return [name, (error as Error).message || "unreachable"];
  } finally {
    clearTimeout(timer);
  }
}

export function metaRoutes(app: FastifyInstance, store: Store, counters: WindowCounters): void {
  app.get("/healthz", { config: { rateLimit: false, rootOnly: true }, schema: documented(HEALTHZ) }, async () => ({
    status: "ok",
  }));

  app.get(
    "/readyz",
    { config: { rateLimit: false, rootOnly: true }, schema: documented(READYZ) },
    async (_request, reply) => {
      const checks = Object.fromEntries(
        await Promise.all([check("database", () => store.ping()), check("counters", () => counters.ping())]),
      );
      const ready = Object.values(checks).every((result) => result === "ok");
      return reply.code(ready ? 200 : 503).send({ status: ready ? "ok" : "unavailable", checks });
    },
  );
}
