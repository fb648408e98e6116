/**
 * Times every response into the request-duration histogram. The route label is the matched pattern
 * (`/repos/:user/:repo/events`), never the URL: URLs are unbounded and carry logins and `access_token`s.
 */
import fp from "fastify-plugin";
import type { Histogram } from "prom-client";
import { UNMATCHED_ROUTE } from "../metrics.js";
import { isEventStream } from "../streams/resume.js";

export default fp<{ duration: Histogram<"method" | "route" | "status_code"> }>(
  async (app, { duration }) => {
    app.addHook("onResponse", (request, reply, done) => {
      // A live stream's duration is its client's choice, not a response time: metrics.ts counts streams apart.
      if (!isEventStream(reply)) {
        const route = request.is404 ? UNMATCHED_ROUTE : (request.routeOptions.url ?? UNMATCHED_ROUTE);
        duration.observe(
          { method: request.method, route, status_code: String(reply.statusCode) },
          reply.elapsedTime / 1000,
        );
      }
      done();
    });
  },
  { name: "request-metrics" },
);
