/**
 * Answers the requests a test made faulty (services/faults.ts) before anything else does: no authentication, no
 * rate limit, no route. Registered only on test instances; a server started otherwise has no such hook at all.
 */
import { setTimeout as sleep } from "node:timers/promises";
import fp from "fastify-plugin";
import type { FaultList } from "../services/faults.js";

/** Where the test controls live: a fault never answers them, so a test can always clear what it set. */
const CONTROLS = "/_feedgate/";

export default fp<{ faults: FaultList }>(
  async (app, { faults }) => {
    app.addHook("onRequest", async (request, reply) => {
      if (faults.size === 0) return;
      const path = request.url.split("?", 1)[0]!; // /api/v3 is already taken off (./api-prefix.ts)
      if (path.startsWith(CONTROLS)) return;
      const answer = faults.take(request.method, path, String(request.id));
      if (answer === null) return;
      if (answer.delayMs > 0) await sleep(answer.delayMs);
      reply.code(answer.status).headers(answer.headers);
      if (answer.body === null) return reply.send();
      if (typeof answer.body === "string")
        return reply.type(answer.headers["content-type"] ?? "text/plain; charset=utf-8").send(answer.body);
      return reply.type("application/json; charset=utf-8").send(JSON.stringify(answer.body));
    });
  },
  { name: "faults", dependencies: ["request-context"] },
);
