/**
 * Many instances served by one Fastify app (issue 47): registering the routes, their schemas and serializers and the
 * plugins is most of what building an app costs (tens of milliseconds), and it is the same for every instance of the
 * same settings. So the test double builds that once per process and settings, with stand-ins for the services
 * (./instance-scope.ts), and makes per instance only what is its own: its services (database, clock, faults,
 * windows, hooks, streams, apps) and an HTTP server whose requests run for that instance.
 *
 * What Fastify's lifecycle did per app is done per instance here, in the same order: the background jobs start
 * before the server listens; closing empties the streams and stops repeated answers (their preClose hooks), stops
 * the server (idle sockets at once, requests in flight awaited), then the jobs (the app's onClose).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from "fastify";
import lightMyRequest from "light-my-request";
import { createFastify, registerApp, serverTimeouts } from "./app.js";
import { clientErrorHandler } from "./client-errors.js";
import { makeServices, type ServiceInputs, type Services } from "./composition.js";
import type { Config } from "./config.js";
import { InstanceScope } from "./instance-scope.js";

interface SharedApp {
  app: FastifyInstance;
  scope: InstanceScope<Services>;
}

/** One app per settings (the config as JSON, the port aside: each instance listens on its own). */
const appsBySettings = new Map<string, Promise<SharedApp>>();

/** What makes two instances' settings the same: every setting but the port (test doubles park stores by it too). */
export const settingsKey = (config: Config) => JSON.stringify({ ...config, port: 0 });

/** An instance: its services, and its server on the shared app. */
export interface Instance {
  readonly services: Services;
  /** The shared app, seen from this instance: `server`, `inject`, `close` and the decorations are the instance's. */
  readonly app: FastifyInstance;
  /** Listens on `host:port` (0: a free port) and answers with the origin, `http://host:port`. */
  listen(host: string, port: number): Promise<string>;
  close(): Promise<void>;
}

export type InstanceInputs = Omit<ServiceInputs, "log" | "listeningOrigin">;

/**
 * An instance of `inputs.config`'s app, its background jobs started. The first of its settings in this process
 * builds the app, registered for it; the next ones only make their services.
 */
export async function startInstance(inputs: InstanceInputs): Promise<Instance> {
  let origin: string | undefined;
  const listeningOrigin = () => {
    if (origin === undefined) throw new Error("the instance is not listening yet");
    return origin;
  };
  const key = settingsKey(inputs.config);
  let shared = appsBySettings.get(key);
  let services: Services;
  if (shared === undefined) {
    const { app, layout } = createFastify(inputs.config, {});
    services = makeServices({ ...inputs, log: app.log, listeningOrigin });
    const scope = new InstanceScope<Services>();
    const built = scope.run(services, async () => {
      await registerApp(app, layout, scope.standIn());
      await app.ready();
      return { app, scope };
    });
    appsBySettings.set(key, built);
    // A failed build is not kept: the next start tries again (and says why again).
    built.catch(() => appsBySettings.delete(key));
    shared = built;
  } else {
    const { app } = await shared;
    services = makeServices({ ...inputs, log: app.log, listeningOrigin });
  }
  const { app, scope } = await shared;
  await scope.run(services, () => services.background.start());
  // Fastify's own listener, as the server it made would call it; each request run for this instance.
  const fastify = app.routing as Listener;
  const server = instanceServer(app, inputs.config, (request, response) =>
    scope.run(services, () => services.repeatedAnswers.handle(request, response, fastify)),
  );
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= scope.run(services, async () => {
      await services.streams.close();
      services.repeatedAnswers.stop();
      await closeServer(server);
      await services.background.stop();
    }));
  // Fastify's inject() waits for the app's ready() first, on a promise made for the first instance: its requests
  // would run for none. light-my-request is what inject() calls, here with the listener run for this instance.
  const inject = (options: InjectOptions | string) =>
    lightMyRequest((request, response) => scope.run(services, () => fastify(request, response)), options);
  return {
    services,
    app: instanceView(app, { server, inject, close, listeningOrigin, services }),
    async listen(host, port) {
      await new Promise<void>((resolve, reject) => {
        server.once("error", reject);
        server.listen(port, host, () => {
          server.off("error", reject);
          resolve();
        });
      });
      const { port: bound } = server.address() as { port: number };
      origin = `http://${host}:${bound}`;
      return origin;
    },
    close,
  };
}

type Listener = (request: IncomingMessage, response: ServerResponse) => void;

/** An HTTP server as Fastify makes its own (./app.ts's timeouts, the client error handler), handing requests on. */
function instanceServer(app: FastifyInstance, config: Config, listener: Listener): Server {
  const timeouts = serverTimeouts(config);
  const server = createServer(timeouts.http, listener);
  server.keepAliveTimeout = timeouts.keepAliveTimeout;
  server.requestTimeout = timeouts.requestTimeout;
  server.setTimeout(timeouts.connectionTimeout);
  server.on("clientError", (error: Error, socket: Socket) => clientErrorHandler.call(app, error, socket));
  return server;
}

/** As Fastify closes its server: no new connections, idle ones closed now, the rest once their requests end. */
async function closeServer(server: Server): Promise<void> {
  if (!server.listening) return;
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  await closed;
}

interface InstanceParts {
  server: Server;
  inject: (options: InjectOptions | string) => Promise<LightMyRequestResponse>;
  close: () => Promise<void>;
  listeningOrigin: () => string;
  services: Services;
}

/**
 * The shared app as an instance's tests see it (`fg.app`): its server, `inject()` and `close()` are the instance's,
 * and so are `testControls` and `repeatedAnswers`; anything else is the shared app's.
 */
function instanceView(app: FastifyInstance, parts: InstanceParts): FastifyInstance {
  const own: Record<PropertyKey, unknown> = {
    server: parts.server,
    inject: parts.inject,
    close: parts.close,
    testControls: parts.services.testControls,
    repeatedAnswers: parts.services.repeatedAnswers,
  };
  return new Proxy(app, {
    get(target, property) {
      if (property === "listeningOrigin") return parts.listeningOrigin();
      if (Object.hasOwn(own, property)) return own[property];
      const value = Reflect.get(target, property);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
