/**
 * Load config -> open store -> buildApp -> listen -> graceful shutdown. On SIGINT/SIGTERM the listener
 * stops accepting, in-flight requests finish (Fastify's close waits for them), then the database closes.
 */
import type { FastifyInstance } from "fastify";
import { buildApp } from "./app.js";
import type { Config } from "./config.js";
import { openStore } from "./store/open-store.js";
import type { Store } from "./store/store.js";

export interface RunningServer {
  app: FastifyInstance;
  store: Store;
  /** The address actually bound (port 0 resolves to a free port). */
  url: string;
  stop(): Promise<void>;
}

export async function startServer(config: Config, beforeListen?: (store: Store) => Promise<void>): Promise<RunningServer> {
  const store = await openStore(config.db); // migrates on open
  await beforeListen?.(store);
  const app = await buildApp({ config, store });
  const address = await app.listen({ host: config.host, port: config.port });
  let stopping: Promise<void> | undefined;
  const stop = () => (stopping ??= (async () => {
    await app.close();
    await store.close();
  })());
  return { app, store, url: address, stop };
}

/** Stops the server on the first SIGINT or SIGTERM and exits once it has drained. */
export function stopOnSignals(server: RunningServer): void {
  const onSignal = (signal: NodeJS.Signals) => {
    server.app.log.info({ signal }, "shutting down: finishing in-flight requests");
    server.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        server.app.log.error({ err: error }, "shutdown failed");
        process.exit(1);
      },
    );
  };
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
}
