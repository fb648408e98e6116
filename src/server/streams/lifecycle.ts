/** The hub's place in the app's life: woken by this app's writes, and emptied before the app waits for its requests. */
import type { FastifyInstance } from "fastify";
import type { StreamHub } from "./hub.js";

export function registerStreams(app: FastifyInstance, hub: StreamHub): void {
  // Any write may be an ingest, a deleted token or a changed membership: look at once rather than at the next check.
  app.addHook("onResponse", async (request) => {
    if (request.method !== "GET" && request.method !== "HEAD") hub.wake();
  });
  // Fastify's close waits for requests in flight, and a stream is one until it ends (main.ts's graceful stop).
  app.addHook("preClose", async () => {
    await hub.close();
  });
}
