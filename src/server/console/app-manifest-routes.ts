/**
 * The manifest flow's confirmation on the console (services/apps/manifest-flow.ts decides); without a manifest, the
 * same path is GitHub's "Register new GitHub App" form (developer-routes.ts).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { InvalidInputError } from "../failures.js";
import { parseManifest, type AppManifest } from "../services/apps/manifest-flow.js";
import { appManifestPage, type ManifestFields } from "./app-manifest-page.js";
import { CONTENT_SECURITY_POLICY_FOR } from "./security-policy.js";
import { registerGitHubApp, showNewGitHubApp } from "./developer-routes.js";
import { pageContext, sendPage, signedIn, type ConsoleServices, type FormRequest } from "./context.js";

const SIGNED_IN = { consoleAccess: "signed-in", returnAfterSignIn: true } as const;

export function appManifestRoutes(app: FastifyInstance, services: ConsoleServices) {
  const render = (request: FastifyRequest) => pageContext(request, services.assets, services);

  /** The page with the manifest, or with why it cannot be confirmed (422). */
  async function show(request: FastifyRequest, reply: FastifyReply, fields: ManifestFields, problem: string | null) {
    const { user } = signedIn(request);
    let owner = user.login;
    let manifest: AppManifest | null = null;
    try {
      owner = (await services.manifests.owner(user, fields.org)).login;
      manifest = parseManifest(fields.manifest);
    } catch (error) {
      if (!(error instanceof InvalidInputError)) throw error;
      problem ??= error.message;
    }
    // The confirmation's answer redirects to the app: the page's form-action must allow its origin.
    if (manifest?.redirectUrl)
      reply.header("Content-Security-Policy", CONTENT_SECURITY_POLICY_FOR(new URL(manifest.redirectUrl).origin));
    return sendPage(reply, problem ? 422 : 200, appManifestPage(render(request), owner, manifest, fields, problem));
  }

  app.get("/settings/apps/new", { config: SIGNED_IN }, async (request, reply) => {
    const query = request.query as Record<string, string | undefined>;
    if (query.manifest === undefined) return showNewGitHubApp(request, reply, services);
    return show(request, reply, { manifest: query.manifest ?? "", state: query.state, org: query.org }, null);
  });

  app.post("/settings/apps/new", { config: SIGNED_IN }, async (request: FormRequest, reply) => {
    if (!request.body.has("manifest")) return registerGitHubApp(request, reply, services);
    const fields: ManifestFields = {
      manifest: request.body.get("manifest") ?? "",
      state: request.body.get("state") ?? undefined,
      org: request.body.get("org") ?? undefined,
    };
    try {
      const owner = await services.manifests.owner(signedIn(request).user, fields.org);
      return reply.redirect(await services.manifests.confirm(owner, fields.manifest, fields.state), 303);
    } catch (error) {
      if (!(error instanceof InvalidInputError)) throw error;
      return show(request, reply, fields, error.message);
    }
  });
}
