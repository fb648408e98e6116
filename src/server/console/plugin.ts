/**
 * The console, served under /console/ by the API's own process: server-rendered pages, one script and one
 * stylesheet (assets.ts). An encapsulated plugin, so its form parser, error pages and headers stay out of the API:
 * the API keeps reading JSON, answering errors in GitHub's shape, and ignoring cookies.
 *
 * Mounted at CONSOLE_PREFIX, which the API prefix layout leaves out of `/api/v3` (GitHub Enterprise has no console
 * there), and exempt from the API's rate limit: the sign-in form is guarded by the login lockout, the rest by the session.
 */
import type { FastifyInstance, FastifyRequest, RouteOptions } from "fastify";
import { ApiError, GENERAL_DOCS, serviceUnavailable } from "../errors.js";
import { StoreUnavailableError } from "../failures.js";
import type { ConsoleServices } from "./context.js";
import { appInstallRoutes } from "./app-install-routes.js";
import { appManifestRoutes } from "./app-manifest-routes.js";
import { developerRoutes } from "./developer-routes.js";
import { pageContext, sendPage } from "./context.js";
import { consoleGuard } from "./guard.js";
import { hookRoutes } from "./hook-routes.js";
import { issueRoutes } from "./issue-routes.js";
import { errorPage } from "./sign-in-page.js";
import { signInRoutes } from "./sign-in-routes.js";
import { tokenRoutes } from "./token-routes.js";
import { fineGrainedTokenRoutes } from "./fine-grained-routes.js";
import { activityRoutes } from "./activity-routes.js";
import { userRoutes } from "./user-routes.js";
import { oauthRoutes } from "./oauth-routes.js";
import { CONTENT_SECURITY_POLICY } from "./security-policy.js";

export { CONTENT_SECURITY_POLICY };

/** Where the console is mounted: registered under it, and kept out of the `/api/v3` layout (app.ts). */
export const CONSOLE_PREFIX = "/console";

const YEAR_SECONDS = 365 * 24 * 3600;

function clientError(error: unknown): number | null {
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  return typeof status === "number" && status >= 400 && status < 500 ? status : null;
}

export function consolePlugin(services: ConsoleServices) {
  return async (app: FastifyInstance) => {
    app.decorateRequest("consoleSession", null);
    app.addHook("onRoute", (route: RouteOptions) => {
      route.config = { rateLimit: false, ...route.config };
      // Web pages, not API: out of the API's description.
      route.schema = { ...route.schema, hide: true };
    });
    // Forms, not JSON: each field with all its values (a checkbox per scope).
    app.removeAllContentTypeParsers();
    app.addContentTypeParser(
      "application/x-www-form-urlencoded",
      { parseAs: "string", bodyLimit: 64 * 1024 },
      async (_request: FastifyRequest, body: string) => new URLSearchParams(body),
    );
    app.addHook("preHandler", consoleGuard(services));

    // After the API's own onSend hooks (this context's run after its parent's): the console's headers win.
    app.addHook("onSend", async (request, reply, payload) => {
      // A page that posts to another origin (an OAuth app's consent) has set a policy of its own.
      if (!reply.hasHeader("Content-Security-Policy")) reply.header("Content-Security-Policy", CONTENT_SECURITY_POLICY);
      reply.header("X-Frame-Options", "DENY");
      reply.header("Referrer-Policy", "same-origin");
      reply.header("Cross-Origin-Opener-Policy", "same-origin");
      reply.removeHeader("Access-Control-Allow-Origin");
      reply.removeHeader("Access-Control-Expose-Headers");
      const asset = request.routeOptions.url === "/console/assets/:name" && reply.statusCode === 200;
      // Pages show one user's tokens and feeds: no cache keeps them. Assets never change under their name.
      reply.header("Cache-Control", asset ? `public, max-age=${YEAR_SECONDS}, immutable` : "no-store");
      return payload;
    });

    app.setErrorHandler(async (error, request, reply) => {
      const known =
        error instanceof ApiError
          ? error
          : error instanceof StoreUnavailableError
            ? error.store === "the database"
              ? new ApiError(503, "The database is unavailable. Try again shortly.")
              : serviceUnavailable(error.store, error.cause)
            : // Fastify's own 4xx (a body that is not a form, too large, badly encoded): the request's fault, not ours.
              clientError(error)
              ? new ApiError(clientError(error)!, "Bad request")
              : null;
      if (!known || known.statusCode >= 500) request.log.error({ err: error }, "console error");
      const status = known?.statusCode ?? 500;
      // API credentials sent to a page (the auth plugin refused them): answered as the API answers them, in JSON.
      if (known && request.headers.authorization !== undefined) {
        for (const [name, value] of Object.entries(known.options.headers ?? {})) reply.header(name, value);
        return reply.code(status).send(known.body(GENERAL_DOCS));
      }
      return sendPage(
        reply,
        status,
        errorPage(
          pageContext(request, services.assets, services),
          status,
          known && status < 500 ? known.message : status === 503 ? known!.message : "Something went wrong.",
        ),
      );
    });
    app.setNotFoundHandler(async (request, reply) =>
      sendPage(reply, 404, errorPage(pageContext(request, services.assets, services), 404, "Not Found")),
    );

    app.get("/assets/:name", async (request, reply) => {
      const asset = services.assets.byUrl.get(request.url.split("?")[0]!);
      if (!asset)
        return sendPage(reply, 404, errorPage(pageContext(request, services.assets, services), 404, "Not Found"));
      return reply.type(asset.contentType).send(asset.body);
    });
    signInRoutes(app, services);
    tokenRoutes(app, services);
    fineGrainedTokenRoutes(app, services);
    activityRoutes(app, services);
    hookRoutes(app, services);
    issueRoutes(app, services);
    userRoutes(app, services);
    oauthRoutes(app, services);
    appInstallRoutes(app, services);
    appManifestRoutes(app, services);
    developerRoutes(app, services);
  };
}
