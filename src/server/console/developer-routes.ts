/**
 * The console's Developer settings (services/apps/developer-settings.ts decides): the list, and registering an OAuth
 * app. The GitHub App form shares its path with the manifest flow's confirmation (`/settings/apps/new`, as on GitHub):
 * app-manifest-routes.ts hands it the requests that carry no manifest.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { isPermissionName, type GrantedPermissions } from "../../api/permissions.js";
import { InvalidInputError } from "../failures.js";
import { pageContext, sendPage, signedIn, type ConsoleServices, type FormRequest } from "./context.js";
import {
  developerSettingsPage,
  gitHubAppRegisteredPage,
  newGitHubAppPage,
  newOAuthAppPage,
  oauthAppRegisteredPage,
} from "./developer-pages.js";

const SIGNED_IN = { consoleAccess: "signed-in", returnAfterSignIn: true } as const;

const render = (request: FastifyRequest, services: ConsoleServices) => pageContext(request, services.assets, services);

export function developerRoutes(app: FastifyInstance, services: ConsoleServices) {
  app.get("/settings/developers", { config: SIGNED_IN }, async (request, reply) =>
    sendPage(
      reply,
      200,
      developerSettingsPage(render(request, services), await services.developerSettings.owned(signedIn(request).user)),
    ),
  );

  app.get("/settings/applications/new", { config: SIGNED_IN }, async (request, reply) =>
    sendPage(reply, 200, newOAuthAppPage(render(request, services), null)),
  );

  app.post("/settings/applications/new", { config: SIGNED_IN }, async (request: FormRequest, reply) => {
    const { body } = request;
    try {
      const { app: made, clientSecret } = await services.developerSettings.newOAuthApp(signedIn(request).user, {
        name: body.get("name") ?? "",
        url: body.get("url") ?? "",
        callbackUrl: body.get("callback_url") ?? "",
        deviceFlow: body.get("device_flow") === "on",
      });
      return sendPage(reply, 201, oauthAppRegisteredPage(render(request, services), made, clientSecret));
    } catch (error) {
      if (!(error instanceof InvalidInputError)) throw error;
      return sendPage(reply, 422, newOAuthAppPage(render(request, services), error.message));
    }
  });
}

/** `GET /console/settings/apps/new` without a manifest: GitHub's "Register new GitHub App" form. */
export function showNewGitHubApp(request: FastifyRequest, reply: FastifyReply, services: ConsoleServices) {
  return sendPage(reply, 200, newGitHubAppPage(render(request, services), null));
}

/** The form posted: the app registered, and its secrets and private key shown this once. */
export async function registerGitHubApp(request: FormRequest, reply: FastifyReply, services: ConsoleServices) {
  const { body } = request;
  const permissions: GrantedPermissions = {};
  for (const [field, level] of body.entries()) {
    const name = field.startsWith("permission:") ? field.slice("permission:".length) : "";
    if (isPermissionName(name) && (level === "read" || level === "write")) permissions[name] = level;
  }
  try {
    const made = await services.developerSettings.newGitHubApp(signedIn(request).user, {
      name: body.get("name") ?? "",
      url: body.get("url") ?? "",
      callbackUrl: body.get("callback_url") ?? "",
      webhookUrl: body.get("webhook_url") ?? "",
      permissions,
      events: body.getAll("events"),
    });
    return sendPage(reply, 201, gitHubAppRegisteredPage(render(request, services), made));
  } catch (error) {
    if (!(error instanceof InvalidInputError)) throw error;
    return sendPage(reply, 422, newGitHubAppPage(render(request, services), error.message));
  }
}
