/**
 * buildApp: the Fastify instance with its plugins and routes, registered explicitly and in order, from the services
 * made in one place (./composition.ts), whose background jobs start when the app is ready and stop when it closes.
 * Order matters for hooks: onRequest runs context -> CORS -> version -> auth -> rate limit, and onSend runs
 * conditional (may turn 200 into 304) -> rate limit (refunds 304s) -> response headers.
 */
import Fastify, { type FastifyInstance, type FastifyServerOptions } from "fastify";
import cors from "@fastify/cors";
import storeVersion from "./plugins/store-version.js";
import requestContext from "./plugins/request-context.js";
import { apiPrefixLayout } from "./plugins/api-prefix.js";
import version from "./plugins/version.js";
import { appRoutes } from "./routes/apps.js";
import { appHookRoutes } from "./routes/app-hook.js";
import auth from "./plugins/auth.js";
import rateLimit from "./plugins/rate-limit.js";
import conditional from "./plugins/conditional.js";
import responseHeaders from "./plugins/response-headers.js";
import bodyParser from "./plugins/body-parser.js";
import errorHandler, { frameworkErrors } from "./plugins/error-handler.js";
import staleIfError, { staleAnswers } from "./plugins/stale-if-error.js";
import { loggerOptions } from "./logging.js";
import { requestId } from "./request-id.js";
import { sharedSchemaCompilers } from "./compiled-schemas.js";
import { clientErrorHandler } from "./client-errors.js";
import { authorizationRoutes } from "./routes/authorizations.js";
import { personalAccessTokenRoutes } from "./routes/personal-access-tokens.js";
import { credentialRoutes } from "./routes/credentials.js";
import { eventRoutes } from "./routes/events.js";
import { entryPointRoutes } from "./routes/entry-points.js";
import { adminRoutes } from "./routes/admin.js";
import { metaRoutes } from "./routes/meta.js";
import { commitRoutes } from "./routes/commits.js";
import { pullRoutes } from "./routes/pulls.js";
import { contentRoutes } from "./routes/contents.js";
import { archiveRoutes } from "./routes/archives.js";
import { smartHttpRoutes } from "./routes/smart-http.js";
import { gitRoutes } from "./routes/git.js";
import { statusRoutes } from "./routes/statuses.js";
import { releaseRoutes } from "./routes/releases.js";
import { commitCommentRoutes } from "./routes/commit-comments.js";
import { branchProtectionRoutes } from "./routes/branch-protection.js";
import { checkRoutes } from "./routes/checks.js";
import { collaboratorRoutes } from "./routes/collaborators.js";
import { graphqlRoutes } from "./routes/graphql.js";
import requestMetrics from "./plugins/request-metrics.js";
import { metricsRoutes } from "./routes/metrics.js";
import { readTlsFiles, type TlsFiles } from "./tls.js";
import openapi from "./plugins/openapi.js";
import { hookRoutes } from "./routes/hooks.js";
import { issueRoutes } from "./routes/issues.js";
import { repositoryIdForms } from "./routes/repository-id-forms.js";
import { callerIssueRoutes, searchRoutes } from "./routes/search.js";
import { commentRoutes } from "./routes/comments.js";
import { activityRoutes } from "./routes/activity.js";
import { labelRoutes } from "./routes/labels.js";
import { repositoryRoutes } from "./routes/repositories.js";
import { registerStreams } from "./streams/lifecycle.js";
import { CONSOLE_PREFIX, consolePlugin } from "./console/plugin.js";
import { appManifestEntryRoutes } from "./routes/app-manifest-entry.js";
import type { TestControls } from "./services/test-controls.js";
import faults from "./plugins/faults.js";
import repeatAnswers from "./plugins/repeat-answers.js";
import type { RepeatedAnswers } from "./repeats/repeated-answers.js";
import { TEST_CONTROLS_PREFIX, testControlRoutes } from "./routes/test-controls.js";
import { OAUTH_PREFIX, oauthRoutes } from "./routes/oauth.js";
import { applicationRoutes } from "./routes/applications.js";
import { makeServices, type ServiceInputs, type Services } from "./composition.js";
import type { Config } from "./config.js";

declare module "fastify" {
  interface FastifyInstance {
    /** Answers given again to identical requests (./repeats/); `stop()` sends every request through Fastify. */
    repeatedAnswers: RepeatedAnswers;
    /** Present on test instances only (`--test-controls`, `feedgate/testing`). */
    testControls?: TestControls;
  }
}

/** What the services are made from (./composition.ts), and what only the Fastify instance takes. */
export interface AppDependencies extends Omit<ServiceInputs, "log" | "listeningOrigin"> {
  /** Overrides the logger built from the config (tests capture log lines through it). */
  logger?: FastifyServerOptions["loggerInstance"];
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

export async function buildApp({ tls, logger, ...dependencies }: AppDependencies) {
  const { app, layout } = createFastify(dependencies.config, { tls, logger });
  const services = makeServices({ ...dependencies, log: app.log, listeningOrigin: () => app.listeningOrigin });
  await registerApp(app, layout, services);
  app.addHook("onReady", async () => services.background.start());
  app.addHook("onClose", async () => services.background.stop());
  return app;
}

/** The Fastify instance with its options, before any plugin or route; `layout` is registered by registerApp. */
export function createFastify(config: Config, { tls, logger }: Pick<AppDependencies, "tls" | "logger">) {
  const layout = apiPrefixLayout([CONSOLE_PREFIX, TEST_CONTROLS_PREFIX, OAUTH_PREFIX]);
  const timeouts = serverTimeouts(config);
  const app = Fastify({
    ...httpsOption(tls ?? readTlsFiles(config.tls)),
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
    requestTimeout: timeouts.requestTimeout,
    keepAliveTimeout: timeouts.keepAliveTimeout,
    connectionTimeout: timeouts.connectionTimeout,
    http: timeouts.http,
    // Types are checked as sent: GitHub answers `"note": 5` with 422, it does not coerce it to "5".
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false, allErrors: true } },
    schemaController: sharedSchemaCompilers,
  });
  return { app, layout };
}

/** How long a socket may take, as Fastify sets them on its server (and ./shared-app.ts on each instance's own). */
export function serverTimeouts(config: Config) {
  return {
    // Node answers 408 and closes the socket when the headers, or the whole request, take longer than this.
    requestTimeout: config.timeouts.requestMs,
    keepAliveTimeout: config.timeouts.keepAliveMs,
    connectionTimeout: config.timeouts.idleMs,
    http: {
      headersTimeout: requestTimeoutBound(config.timeouts.headersMs, config.timeouts.requestMs),
      // Node checks those two timeouts this often (30 s by default, far coarser than the timeouts themselves).
      connectionsCheckingInterval: 1000,
    },
  };
}

/**
 * Everything an app serves, registered from `services`: the pipeline, the routes, the console, OAuth and the test
 * controls. Their background jobs are the caller's to start and stop (buildApp ties them to the app's life).
 */
export async function registerApp(
  app: FastifyInstance,
  layout: ReturnType<typeof apiPrefixLayout>,
  services: Services,
): Promise<void> {
  const { config } = services;
  app.decorate("repeatedAnswers", services.repeatedAnswers);
  if (services.testControls) app.decorate("testControls", services.testControls);

  // Before any route: it learns which routes stay out of the /api/v3 layout as they are registered.
  await app.register(layout.plugin);
  await registerPipeline(app, services);
  registerRoutes(app, services);
  await app.register(consolePlugin(consoleServices(services)), { prefix: CONSOLE_PREFIX });
  await app.register(oauthRoutes(services.oauth), { prefix: OAUTH_PREFIX });
  await app.register(appManifestEntryRoutes());
  if (services.testControls) testControlRoutes(app, services.testControls);
  // With a port of its own, the API port answers /metrics with the ordinary 404.
  if (config.metricsPort === undefined) metricsRoutes(app, services.metrics);
}

/**
 * The plugins every request goes through, in order: its context, the faults a test made (before anything else of a
 * request), metrics, the store's version, CORS, stale pages, conditional answers, the API version, authentication,
 * the rate limit, the response headers, repeated answers, the body parser, the error handler, and the OpenAPI
 * description (before the routes: it is generated from the routes registered after it).
 */
async function registerPipeline(app: FastifyInstance, services: Services): Promise<void> {
  const { config, metrics } = services;
  await app.register(requestContext, {
    clock: services.clock,
    baseUrl: config.baseUrl,
    dateHeader: services.manualClock !== undefined,
  });
  if (services.faults) await app.register(faults, { faults: services.faults });
  await app.register(requestMetrics, { duration: metrics.requestDuration });
  // The services see the store through what it remembers; this plugin keeps that current, request by request.
  await app.register(storeVersion, { remembering: services.remembering, store: services.store });
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
  await app.register(staleIfError, { pages: services.stalePages });
  await app.register(conditional);
  await app.register(version);
  await app.register(auth, { authenticator: services.authenticator, appJwt: services.appJwt });
  await app.register(rateLimit, { counters: services.counters, ...config.rateLimit, refused: metrics.rateLimited });
  await app.register(responseHeaders);
  await app.register(repeatAnswers, { answers: services.repeatedAnswers });
  await app.register(bodyParser);
  await app.register(errorHandler, { degrade: staleAnswers(services.stalePages, metrics.staleResponses) });
  await app.register(openapi, { numericIds: config.numericIds, testControls: config.testControls });
}

/** The families also served at `/repositories/{id}/...` (./routes/repository-id-forms.ts), where renames redirect. */
const ID_FORM_TAGS: ReadonlySet<string> = new Set(["issues", "repos", "activity"]);

/** The API's routes, each family from its services. */
function registerRoutes(app: FastifyInstance, services: Services): void {
  const { config, store } = services;
  authorizationRoutes(app, services.authorizations, config.numericIds);
  personalAccessTokenRoutes(app, services.fineGrainedTokens);
  applicationRoutes(app, services.oauth.tokens, config.numericIds);
  credentialRoutes(app, services.credentialRevocation);
  registerStreams(app, services.streams);
  eventRoutes(app, services.feeds, config.numericIds, services.streams);
  entryPointRoutes(app, services.entryPoints);
  adminRoutes(app, services.ingest, config.adminBodyLimit, (secret) => services.webhooks.secrets.seal(secret));
  hookRoutes(app, services.hooks);
  // Before the families it serves in GitHub's `/repositories/{id}/...` form: it learns their routes as they are added.
  repositoryIdForms(app, ID_FORM_TAGS, (id) => services.feeds.paramsByWireId("repo", id));
  issueRoutes(app, services.issues, config.numericIds);
  searchRoutes(app, services.issueSearch);
  callerIssueRoutes(app, services.callerIssues);
  commentRoutes(app, services);
  activityRoutes(app, services.activity);
  labelRoutes(app, services);
  repositoryRoutes(app, services);
  collaboratorRoutes(app, services);
  gitRoutes(app, services.code);
  contentRoutes(app, services.code);
  archiveRoutes(app, services.code);
  smartHttpRoutes(app, services.code);
  commitRoutes(app, services.code);
  pullRoutes(app, services.pulls);
  statusRoutes(app, services.checks);
  checkRoutes(app, services.checks);
  releaseRoutes(app, services.releases);
  commitCommentRoutes(app, services);
  branchProtectionRoutes(app, services.branchProtection);
  appRoutes(app, services.apps, services.manifests);
  appHookRoutes(app, services.appHook);
  graphqlRoutes(app, services.graphql);
  metaRoutes(app, store, services.counters);
}

function consoleServices(services: Services): Parameters<typeof consolePlugin>[0] {
  const { store } = services;
  return {
    sessions: services.sessions,
    authenticator: services.authenticator,
    authorizations: services.authorizations,
    fineGrainedTokens: services.fineGrainedTokens,
    assets: services.consoleAssets,
    users: store.users,
    feeds: services.feeds,
    streams: services.streams,
    now: services.clock,
    hooks: services.hooks,
    issues: services.issues,
    tokenCounts: store.authorizations,
    oauth: services.oauth,
    appInstaller: services.apps.installer,
    manifests: services.manifests,
    developerSettings: services.developerSettings,
  };
}
