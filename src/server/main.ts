/**
 * Load config -> open store -> buildApp -> listen -> graceful shutdown. On SIGINT/SIGTERM the listener
 * stops accepting, in-flight requests finish (Fastify's close waits for them), then the database closes.
 */
import type { FastifyInstance } from "fastify";
import { buildApp } from "./app.js";
import { readTlsFiles } from "./tls.js";
import { IN_MEMORY_DB, type Config } from "./config.js";
import { openStoreExplained, unreachable } from "./store/open-failures.js";
import { MemoryWindowCounters, type WindowCounters } from "./counters/counters.js";
import type { LsnFloors } from "./store/postgres/read-scope.js";
import type { Store } from "./store/store.js";
import { StartupError } from "./failures.js";
import { Metrics } from "./metrics.js";
import { startMetricsServer, type MetricsServer } from "./metrics-server.js";
import { setPasswordCost } from "./services/credentials.js";
import { type Clock, ManualClock, wallClock } from "./clock.js";
import { databaseNote, poolerNote, standbyPoolerNotes, type StartupNote } from "./startup-notes.js";
import { secretBox } from "./webhooks/webhooks.js";

export interface RunningServer {
  app: FastifyInstance;
  store: Store;
  /** The address actually bound (port 0 resolves to a free port). */
  url: string;
  /** Where `/metrics` is served when it has a port of its own (`--metrics-port`). */
  metricsUrl: string | undefined;
  stop(): Promise<void>;
}

/** Listening errors in the operator's words, naming the flag that fixes them. */
function listenError(error: unknown, host: string, port: number, what: string, flag: string): unknown {
  const code = (error as { code?: string }).code;
  const where = `${host}:${port}`;
  if (code === "EADDRINUSE")
    return new StartupError(`cannot listen on ${where}: the port is in use; choose another ${what} with ${flag}`);
  if (code === "EACCES")
    return new StartupError(`cannot listen on ${where}: permission denied; choose a port above 1023 with ${flag}`);
  if (code === "EADDRNOTAVAIL" || code === "ENOTFOUND") {
    return new StartupError(`cannot listen on ${where}: no such address on this machine; check --host (or HOST)`);
  }
  return error;
}

export interface StartOptions {
  /**
   * Runs on the opened, migrated store before anything listens (the demo account, `--seed`, `--admin`), with the
   * server's clock and what seals webhook secrets as the server will open them; the notes it returns are logged
   * before the port opens.
   */
  beforeListen?: (
    store: Store,
    clock: () => Date,
    sealSecret: (secret: string) => string,
  ) => Promise<StartupNote[] | undefined>;
  /** The one clock every rule of the server reads; the wall clock (or, under --test-controls, a movable one) unless given. */
  clock?: Clock | ManualClock;
  /**
   * Stop on the first SIGINT or SIGTERM and exit once drained. The handlers are installed before the port opens:
   * "Server listening" is logged inside `listen`, and a signal sent on seeing it must not find Node's default
   * (an exit with no drain and no "stopped" line).
   */
  exitOnSignals?: boolean;
}

export async function startServer(config: Config, options: StartOptions = {}): Promise<RunningServer> {
  // Whatever has been opened so far is closed again, in reverse order, if a later step fails: a failed start
  // must not leave a pool or a Redis connection (which reconnects forever) holding the process open.
  const closers: (() => Promise<void>)[] = [];
  const clock = options.clock ?? (config.testControls ? new ManualClock(new Date(), true) : wallClock);
  const now: Clock = clock instanceof ManualClock ? clock.now : clock;
  setPasswordCost(config.passwordCost); // before the demo account (beforeListen) is hashed
  try {
    // The certificate first: a wrong path is one line before any database is opened, let alone migrated.
    const tls = readTlsFiles(config.tls);
    // The windows first: with standbys, callers' write positions are kept in the same Redis (store/postgres/read-scope.ts).
    const { counters, floors } = await openCounters(config.redis, config.redisPrefix, closers);
    // migrates on open
    const store = await openStoreExplained(config.db, config.database, config.standbys, floors, config.dbDirect);
    closers.push(() => store.close());
    // One box for what is sealed before the app is made (a world's app webhook secrets) and for the app itself: an
    // in-memory database's key is made by this process only.
    const secrets = secretBox(config);
    const notes = [
      databaseNote(config.db, store.migratedAtOpen),
      poolerNote(config.database.statementTimeoutMs, store.pooledStatementTimeoutMs),
      ...standbyPoolerNotes(config.database.statementTimeoutMs, store.standbys?.().standbys ?? []),
      ...((await options.beforeListen?.(store, now, (secret) => secrets.seal(secret))) ?? []),
    ];
    const metrics = new Metrics(store);
    const app = await buildApp({ config, store, counters, metrics, tls, clock, secrets });
    closers.push(() => app.close());
    if (config.testControls) {
      app.log.warn(
        config.db === IN_MEMORY_DB
          ? "test controls are on: any caller may reset the data, move the clock and make requests fail"
          : "test controls are on with a database that outlives this process: any caller may wipe it through /_feedgate/reset",
      );
    }
    for (const note of notes) if (note) app.log[note.level](note.fields ?? {}, note.msg);
    let stopping: Promise<void> | undefined;
    // Answers sent while stopping close their connection, as Fastify's to requests arriving then do: kept alive, a
    // connection whose request was in flight would hold the close up until the keep-alive timeout (72 s).
    app.addHook("onSend", (_request, reply, payload, done) => {
      if (stopping !== undefined) reply.header("connection", "close");
      done(null, payload);
    });
    const listening = listen(app, metrics, config);
    let metricsServer: MetricsServer | undefined;
    // A stop asked for while the ports are opening waits for them, so that it closes what was opened.
    const stop = () =>
      (stopping ??= (async () => {
        app.repeatedAnswers.stop(); // from now on every answer goes through the hook above
        await listening.catch(() => undefined);
        await app.close(); // stops accepting, lets in-flight requests finish
        await metricsServer?.close(); // scrapes still see the drain
        await store.close(); // then drains the pool / closes the file
        await counters.close();
      })());
    if (options.exitOnSignals) exitOnSignals(app, stop);
    const started = await listening;
    metricsServer = started.metricsServer;
    return { app, store, url: started.address, metricsUrl: metricsServer?.url, stop };
  } catch (error) {
    for (const close of closers.reverse()) await close().catch(() => undefined);
    throw error;
  }
}

/**
 * Windows in Redis when a URL is configured (several instances), with the callers' write positions beside them; else
 * in process (one instance), and the Redis client is not even loaded.
 */
async function openCounters(
  redis: string | undefined,
  prefix: string,
  closers: (() => Promise<void>)[],
): Promise<{ counters: WindowCounters; floors?: LsnFloors }> {
  if (!redis) return { counters: new MemoryWindowCounters() };
  const [{ RedisWindowCounters }, { RedisLsnFloors }] = await Promise.all([
    import("./counters/redis-counters.js"),
    import("./counters/redis-lsn-floors.js"),
  ]);
  const counters = new RedisWindowCounters(redis, prefix);
  closers.push(() => counters.close());
  await counters.connect().catch((error: unknown) => {
    throw unreachable("Redis", redis, "--redis (or FEEDGATE_REDIS)", error);
  });
  return { counters, floors: new RedisLsnFloors(counters.connection, prefix) };
}

/** Opens the API's port, then `/metrics`'s own when it has one; a port in use names the flag that moves it. */
async function listen(
  app: FastifyInstance,
  metrics: Metrics,
  config: Config,
): Promise<{ address: string; metricsServer?: MetricsServer }> {
  const address = await app.listen({ host: config.host, port: config.port }).catch((error: unknown) => {
    throw listenError(error, config.host, config.port, "port", "--port (or PORT)");
  });
  const metricsPort = config.metricsPort;
  if (metricsPort === undefined) return { address };
  const metricsServer = await startMetricsServer(metrics, config.host, metricsPort, app.log).catch((error: unknown) => {
    throw listenError(error, config.host, metricsPort, "metrics port", "--metrics-port");
  });
  return { address, metricsServer };
}

/** Stops the server on the first SIGINT or SIGTERM and exits once it has drained. */
function exitOnSignals(app: FastifyInstance, stop: () => Promise<void>): void {
  const onSignal = (signal: NodeJS.Signals) => {
    app.log.info({ signal }, "shutting down: finishing in-flight requests");
    stop().then(
      () => {
        app.log.info("stopped");
        process.exit(0);
      },
      (error: unknown) => {
        app.log.error({ err: error }, "shutdown failed");
        process.exit(1);
      },
    );
  };
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
}
