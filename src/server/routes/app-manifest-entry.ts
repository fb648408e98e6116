/**
 * Where an app's developer sends a browser with a manifest (GitHub's `HOST/settings/apps/new`, and
 * `HOST/organizations/{org}/settings/apps/new` for an organization's app): a form post with the `manifest` field,
 * `state` in the query. Host root only, as GitHub serves it; the console confirms it (it has the sign-in), so the
 * manifest goes along in the console page's query, which a sign-in keeps.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { hostRootRoutes } from "./host-root.js";

/** The console's confirmation page (console/app-manifest-routes.ts). */
export const CONSOLE_NEW_APP = "/console/settings/apps/new";

export function appManifestEntryRoutes() {
  return async (app: FastifyInstance) => {
    // Not under /api/v3 either: a browser's page (the OAuth routes' prefix is kept out of the layout instead).
    hostRootRoutes(app, { rootOnly: true });

    const toConsole = (request: FastifyRequest, reply: FastifyReply) => {
      const query = request.query as Record<string, unknown>;
      const body = (request.body ?? {}) as Record<string, unknown>;
      // `:id` as the API's `/organizations/:id/events` names the segment (one name per position): here a login.
      const org = (request.params as { id?: string }).id;
      const fields = new URLSearchParams();
      for (const [name, value] of Object.entries({
        manifest: body.manifest ?? query.manifest,
        state: query.state,
        org,
      }))
        if (typeof value === "string") fields.set(name, value);
      return reply.redirect(`${CONSOLE_NEW_APP}?${fields}`, 303);
    };
    for (const path of ["/settings/apps/new", "/organizations/:id/settings/apps/new"]) {
      app.get(path, toConsole);
      app.post(path, toConsole);
    }
  };
}
