/** The console's install page for a GitHub App (GitHub's `/apps/{slug}/installations/new`); app-installer.ts decides. */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { InvalidInputError } from "../failures.js";
import { appInstalledPage, appInstallPage } from "./app-install-page.js";
import { pageContext, sendPage, signedIn, type ConsoleServices, type FormRequest } from "./context.js";
import { errorPage } from "./sign-in-page.js";

const SIGNED_IN = { consoleAccess: "signed-in", returnAfterSignIn: true } as const;

export function appInstallRoutes(app: FastifyInstance, services: ConsoleServices) {
  const render = (request: FastifyRequest) => pageContext(request, services.assets, services);
  const slugOf = (request: FastifyRequest) => (request.params as { slug: string }).slug;

  app.get("/apps/:slug/installations/new", { config: SIGNED_IN }, async (request, reply) => {
    const found = await services.appInstaller.targets(slugOf(request), signedIn(request).user);
    if (!found) return sendPage(reply, 404, errorPage(render(request), 404, "Not Found"));
    return sendPage(reply, 200, appInstallPage(render(request), found.app, found.targets, null));
  });

  app.post("/apps/:slug/installations/new", { config: SIGNED_IN }, async (request: FormRequest, reply) => {
    const { user } = signedIn(request);
    const found = await services.appInstaller.targets(slugOf(request), user);
    if (!found) return sendPage(reply, 404, errorPage(render(request), 404, "Not Found"));
    const choice = {
      login: request.body.get("account") ?? "",
      selection: request.body.get("selection") ?? "all",
      repositories: request.body.getAll("repositories"),
    };
    try {
      const installation = await services.appInstaller.install(found.app, user, choice);
      return sendPage(reply, 201, appInstalledPage(render(request), found.app, installation, choice.login));
    } catch (error) {
      if (!(error instanceof InvalidInputError)) throw error;
      return sendPage(reply, 422, appInstallPage(render(request), found.app, found.targets, error.message));
    }
  });
}
