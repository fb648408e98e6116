/**
 * buildApp: the Fastify instance with its plugins and routes, registered explicitly and in order.
 * Order matters for hooks: onRequest runs context -> CORS -> version -> auth -> rate limit, and onSend runs
 * conditional (may turn 200 into 304) -> rate limit (refunds 304s) -> response headers.
 */
import Fastify, { type FastifyInstance, type FastifyServerOptions } from "fastify";
import cors from "@fastify/cors";
import type { Config } from "./config.js";
import type { Store } from "./store/store.js";
import { RememberingStore } from "./store/remembering-store.js";
import storeVersion from "./plugins/store-version.js";
import { MemoryWindowCounters, type WindowCounters } from "./counters/counters.js";
import { Authenticator } from "./services/authenticator.js";
import { AuthorizationService } from "./services/authorizations.js";
import { CredentialRevocationService } from "./services/credential-revocation.js";
import requestContext from "./plugins/request-context.js";
import { apiPrefixLayout } from "./plugins/api-prefix.js";
import version from "./plugins/version.js";
import auth from "./plugins/auth.js";
import rateLimit from "./plugins/rate-limit.js";
import conditional from "./plugins/conditional.js";
import responseHeaders from "./plugins/response-headers.js";
import bodyParser from "./plugins/body-parser.js";
import errorHandler, { frameworkErrors } from "./plugins/error-handler.js";
import staleIfError, { staleAnswers } from "./plugins/stale-if-error.js";
import { StalePages } from "./services/stale-pages.js";
import { loggerOptions } from "./logging.js";
import { requestId } from "./request-id.js";
import { sharedSchemaCompilers } from "./compiled-schemas.js";
import { clientErrorHandler } from "./client-errors.js";
import { authorizationRoutes } from "./routes/authorizations.js";
import { personalAccessTokenRoutes } from "./routes/personal-access-tokens.js";
import { FineGrainedTokenService } from "./services/fine-grained-tokens.js";
import { credentialRoutes } from "./routes/credentials.js";
import { eventRoutes } from "./routes/events.js";
import { entryPointRoutes } from "./routes/entry-points.js";
import { EntryPointService } from "./services/entry-points.js";
import { FeedService } from "./services/feeds.js";
import { IngestService } from "./services/ingest.js";
import { adminRoutes } from "./routes/admin.js";
import { metaRoutes } from "./routes/meta.js";
import { Metrics } from "./metrics.js";
import requestMetrics from "./plugins/request-metrics.js";
import { metricsRoutes } from "./routes/metrics.js";
import { readTlsFiles, type TlsFiles } from "./tls.js";
import openapi from "./plugins/openapi.js";
import { webhooks } from "./webhooks/webhooks.js";
import { hookRoutes } from "./routes/hooks.js";
import { HookService } from "./services/hooks.js";
import { StreamHub } from "./streams/hub.js";
import { registerStreams } from "./streams/lifecycle.js";
import { CONSOLE_PREFIX, consolePlugin } from "./console/plugin.js";
import { loadAssets } from "./console/assets.js";
import { SessionService } from "./services/sessions.js";
import { Retention } from "./services/retention.js";
import { type Clock, ManualClock, wallClock } from "./clock.js";
import { TestControls } from "./services/test-controls.js";
import { FaultList } from "./services/faults.js";
import faults from "./plugins/faults.js";
import repeatAnswers from "./plugins/repeat-answers.js";
import { RepeatedAnswers } from "./repeats/repeated-answers.js";
import { TEST_CONTROLS_PREFIX, testControlRoutes } from "./routes/test-controls.js";

declare module "fastify" {
  interface FastifyInstance {
    /** Answers given again to identical requests (./repeats/); `stop()` sends every request through Fastify. */
    repeatedAnswers: RepeatedAnswers;
    /** Present on test instances only (`--test-controls`, `feedgate/testing`). */
    testControls?: TestControls;
  }
}

export interface AppDependencies {
  config: Config;
  store: Store;
  /**
   * The one clock every rule reads; the wall clock by default. A ManualClock (the test double's) also sets the `Date`
   * header, and its moves wake waiting webhook retries. Under `--test-controls` the app makes one when given none.
   */
  clock?: Clock | ManualClock;
  counters?: WindowCounters;
  /** Overrides the logger built from the config (tests capture log lines through it). */
  logger?: FastifyServerOptions["loggerInstance"];
  /** Given when `/metrics` is also served elsewhere (`--metrics-port`); otherwise the app makes its own. */
  metrics?: Metrics;
  /** false: no answer is repeated (./repeats/), every request takes the whole pipeline; tests compare the two. */
  repeatAnswers?: boolean;
  /** `--tls-cert`/`--tls-key` as read already (startServer reads them before anything is opened); else read here. */
  tls?: TlsFiles;
}

/** Headers browsers may read, GitHub's E2 list plus E3 additions and this service's OTP header (wire notes 3.5). */
const EXPOSED_HEADERS = [
  "ETag",
  "Link",
  "Location",
  "Retry-After",
  "X-GitHub-OTP",
  "X-Service-OTP",
  "X-RateLimit-Limit",
  "X-RateLimit-Remaining",
  "X-RateLimit-Reset",
  "X-RateLimit-Used",
  "X-RateLimit-Resource",
  "X-OAuth-Scopes",
  "X-Accepted-OAuth-Scopes",
  "X-Accepted-GitHub-Permissions",
  "X-Poll-Interval",
  "X-GitHub-Media-Type",
  "X-GitHub-Request-Id",
  "Last-Modified",
  "Status",
  // A stale page's marks (--stale-if-error): GitHub sends neither.
  "Age",
  "Warning",
];

/**
 * Retention (services/retention.ts) runs while the app is ready and stops when it closes; on the database itself, as
 * the dispatcher does (it runs outside requests). A test's clock moving starts a run at once.
 */
function backgroundRetention(
  app: FastifyInstance,
  store: Store,
  clock: Clock,
  config: Config,
  metrics: Metrics,
  manualClock: ManualClock | undefined,
): Retention {
  const retention = new Retention(
    store.retention,
    clock,
    config.retention,
    {
      pruned: (kind, count) => metrics.retentionPruned.inc({ kind }, count),
      ran: (at) => metrics.retentionLastRun.set(at.getTime() / 1000),
    },
    app.log,
  );
  const stopWatching = manualClock?.onMove(() => retention.wake());
  app.addHook("onReady", async () => retention.start());
  app.addHook("onClose", async () => {
    stopWatching?.();
    await retention.stop();
  });
  return retention;
}

/** The log levels at which Fastify logs every request. */
const LOGS_REQUESTS = new Set(["trace", "debug", "info"]);

/** Node refuses a headers timeout longer than the request timeout; 0 turns either off. */
const requestTimeoutBound = (headersMs: number, requestMs: number) =>
  requestMs > 0 && (headersMs === 0 || headersMs > requestMs) ? requestMs : headersMs;

/**
 * `--tls-cert`/`--tls-key`: Fastify's `https` option, serving HTTPS on the API port (request.protocol, hence
 * request.baseUrl, is then https). Typed as a bare object on purpose: with `https` in its type, Fastify types the
 * instance as an HTTP/2 one that no plugin or route here accepts, while an https.Server hands handlers the very same
 * IncomingMessage and ServerResponse as an http.Server.
 */
function httpsOption(files: TlsFiles | undefined): object {
  return files ? { https: files } : {};
}

export async function buildApp({
  config,
  store: databaseStore,
  clock: givenClock = wallClock,
  counters,
  logger,
  metrics = new Metrics(databaseStore),
  tls = readTlsFiles(config.tls),
  repeatAnswers: repeating = true,
}: AppDependencies) {
  const manualClock =
    givenClock instanceof ManualClock
      ? givenClock
      : config.testControls
        ? new ManualClock(givenClock(), true)
        : undefined;
  const clock: Clock = manualClock?.now ?? (givenClock as Clock);
  const layout = apiPrefixLayout([CONSOLE_PREFIX, TEST_CONTROLS_PREFIX]);
  const app = Fastify({
    ...httpsOption(tls),
    ...(logger ? { loggerInstance: logger } : { logger: loggerOptions(config.logLevel, config.logFormat) }),
    bodyLimit: config.bodyLimit,
    genReqId: requestId,
    // Every API route is also served under /api/v3, GitHub Enterprise's layout (./plugins/api-prefix.ts).
    rewriteUrl: layout.rewriteUrl,
    frameworkErrors,
    clientErrorHandler,
    // A hop count trusts that many proxies nearest this server, the socket's peer first, as Express does. Fastify
    // refuses the number form on purpose (it cannot check the peer); the flag's help and docs/configuration.md say the same:
    // a hop count is for a server that only its proxies can reach, and addresses are the safer choice.
    trustProxy:
      typeof config.trustProxy === "number"
        ? (
            (hops: number) => (_address: string, hop: number) =>
              hop < hops
          )(config.trustProxy)
        : config.trustProxy,
    // Node answers 408 and closes the socket when the headers, or the whole request, take longer than this.
    requestTimeout: config.timeouts.requestMs,
    keepAliveTimeout: config.timeouts.keepAliveMs,
    connectionTimeout: config.timeouts.idleMs,
    http: {
      headersTimeout: requestTimeoutBound(config.timeouts.headersMs, config.timeouts.requestMs),
      // Node checks those two timeouts this often (30 s by default, far coarser than the timeouts themselves).
      connectionsCheckingInterval: 1000,
    },
    // Types are checked as sent: GitHub answers `"note": 5` with 422, it does not coerce it to "5".
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false, allErrors: true } },
    schemaController: sharedSchemaCompilers,
  });
  const sharedCounters = counters ?? new MemoryWindowCounters();
  // The services see the store through what it remembers; the plugin below keeps that current, request by request.
  const remembering = new RememberingStore(databaseStore);
  const store = remembering.store;

  // Before any route: it learns which routes stay out of the /api/v3 layout as they are registered.
  await app.register(layout.plugin);
  await app.register(requestContext, { clock, baseUrl: config.baseUrl, dateHeader: manualClock !== undefined });
  // Checked before anything else of a request: registered on test instances only.
  const faultList = config.testControls ? new FaultList() : undefined;
  if (faultList) await app.register(faults, { faults: faultList });
  await app.register(requestMetrics, { duration: metrics.requestDuration });
  await app.register(storeVersion, { remembering });
  await app.register(cors, {
    origin: "*",
    methods: ["GET", "POST", "PATCH", "PUT", "DELETE"],
    exposedHeaders: EXPOSED_HEADERS,
    allowedHeaders: [
      "Authorization",
      "Content-Type",
      "If-Match",
      "If-Modified-Since",
      "If-None-Match",
      "X-GitHub-OTP",
      "X-Service-OTP",
      "X-Requested-With",
      "X-GitHub-Api-Version",
    ],
    maxAge: 86400,
  });
  // Before the conditional plugin, whose 304s it counts as the database confirming a page (./plugins/stale-if-error.ts).
  const stalePages = new StalePages(config.feeds.staleIfErrorMs, config.feeds.cacheBytes, clock);
  await app.register(staleIfError, { pages: stalePages });
  await app.register(conditional);
  await app.register(version);
  const authenticator = new Authenticator(store, sharedCounters, config.loginLockout, metrics.loginFailures);
  await app.register(auth, { authenticator });
  await app.register(rateLimit, { counters: sharedCounters, ...config.rateLimit, refused: metrics.rateLimited });
  await app.register(responseHeaders);
  const repeatedAnswers = new RepeatedAnswers(
    {
      clock,
      version: () => remembering.refresh(true),
      receivedVersion: (userId) => store.events.receivedVersion(userId),
      counters: sharedCounters,
      dateHeader: manualClock !== undefined,
      requestId,
      duration: metrics.requestDuration,
      repeated: metrics.repeatedAnswers,
      bypassed: () => faultList !== undefined && faultList.size > 0,
    },
    repeating && !LOGS_REQUESTS.has(app.log.level),
  ); // a logged request is logged by Fastify: none is answered around it
  app.decorate("repeatedAnswers", repeatedAnswers);
  await app.register(repeatAnswers, { answers: repeatedAnswers });
  await app.register(bodyParser);
  await app.register(errorHandler, { degrade: staleAnswers(stalePages, metrics.staleResponses) });
  // Before the routes: the description is generated from the routes registered after it.
  await app.register(openapi, { numericIds: config.numericIds, testControls: config.testControls });

  const expiry = { maxLifetimeMs: config.tokenMaxLifetimeMs };
  const authorizations = new AuthorizationService(store, clock, expiry);
  authorizationRoutes(app, authorizations, config.numericIds);
  const fineGrainedTokens = new FineGrainedTokenService(store, clock, expiry);
  personalAccessTokenRoutes(app, fineGrainedTokens);
  credentialRoutes(app, new CredentialRevocationService(store));
  const feeds = new FeedService(store, config.feeds, clock, () => remembering.version, metrics.feedCacheRequests);
  const streams = new StreamHub(
    store.events,
    remembering,
    feeds,
    authenticator,
    config.streams,
    app.log,
    { open: metrics.openStreams, resumed: metrics.streamsResumed, gaps: metrics.streamGaps },
    clock,
  );
  registerStreams(app, streams);
  eventRoutes(app, feeds, config.numericIds, streams);
  entryPointRoutes(app, new EntryPointService(store, feeds));
  // The dispatcher reads the database itself: it runs outside requests, where remembered answers are not refreshed.
  const hooks = webhooks(
    app,
    config,
    databaseStore,
    clock,
    manualClock && ((listener) => manualClock.onMove(listener)),
    metrics.registry,
  );
  const ingest = new IngestService(store, clock, metrics.eventsIngested, () => hooks.dispatcher.wake(), {
    webhooks: { maxQueue: config.webhooks.maxQueue },
  });
  adminRoutes(app, ingest, config.adminBodyLimit);
  backgroundRetention(app, databaseStore, clock, config, metrics, manualClock);
  const hookService = new HookService(store, clock, hooks.secrets, hooks.deliveries);
  hookRoutes(app, hookService);
  metaRoutes(app, store, sharedCounters);
  await app.register(
    consolePlugin({
      sessions: new SessionService(store, clock),
      authenticator,
      authorizations,
      fineGrainedTokens,
      assets: loadAssets(),
      users: store.users,
      feeds,
      streams,
      now: clock,
      hooks: hookService,
      tokenCounts: store.authorizations,
    }),
    { prefix: CONSOLE_PREFIX },
  );
  if (faultList) {
    const controls = new TestControls({
      store: databaseStore,
      clock: manualClock!,
      counters: sharedCounters,
      faults: faultList,
      ingest,
    });
    hooks.dispatcher.onAttempt((attempt) => controls.recordAttempt(attempt));
    testControlRoutes(app, controls);
    app.decorate("testControls", controls);
    // What a reset returns to: the database as it stands once the app is ready (a world seeded before it was built).
    app.addHook("onReady", () => controls.markStart());
  }
  // With a port of its own, the API port answers /metrics with the ordinary 404.
  if (config.metricsPort === undefined) metricsRoutes(app, metrics);

  return app;
}
