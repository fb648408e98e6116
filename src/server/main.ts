/**
 * Load config -> open store -> buildApp -> listen -> graceful shutdown. On SIGINT/SIGTERM the listener
 * stops accepting, in-flight requests finish (Fastify's close waits for them), then the database closes.
 */
import type { FastifyInstance } from "fastify";
import { buildApp } from "./app.js";
import type { Config } from "./config.js";
import { openStore } from "./store/open-store.js";
import { MemoryWindowCounters, type WindowCounters } from "./counters/counters.js";
import { RedisWindowCounters } from "./counters/redis-counters.js";
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
  let counters: WindowCounters;
  try {
    await beforeListen?.(store);
    counters = await openCounters(config.redis, config.redisPrefix);
  } catch (error) {
    await store.close();
    throw error;
  }
  const app = await buildApp({ config, store, counters });
  const address = await app.listen({ host: config.host, port: config.port });
  let stopping: Promise<void> | undefined;
  const stop = () => (stopping ??= (async () => {
    await app.close(); // stops accepting, lets in-flight requests finish
    await store.close(); // then drains the pool / closes the file
    await counters.close();
  })());
  return { app, store, url: address, stop };
}

/** Windows in Redis when a URL is configured (several instances), else in process (one instance). */
async function openCounters(redis: string | undefined, prefix: string): Promise<WindowCounters> {
  if (!redis) return new MemoryWindowCounters();
  const counters = new RedisWindowCounters(redis, prefix);
  await counters.connect();
  return counters;
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
