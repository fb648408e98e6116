/**
 * What the host root's non-API routes share (GitHub's `HOST/login/...` OAuth endpoints, `HOST/settings/apps/new`):
 * within the plugin that calls it, every route is outside the API (no API rate limit, no API credentials: a client id
 * and secret are not a login; not described), and bodies are forms, as browsers and gh post them.
 */
import type { FastifyContextConfig, FastifyInstance, FastifyRequest } from "fastify";

/** Form bodies of at most this size; nothing these routes take is larger. */
export const HOST_ROOT_BODY_LIMIT = 64 * 1024;

export function hostRootRoutes(app: FastifyInstance, config: FastifyContextConfig = {}): void {
  app.addHook("onRoute", (route) => {
    route.config = { rateLimit: false, clientCredentials: true, ...config, ...route.config };
    route.schema = { ...route.schema, hide: true };
  });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    "application/x-www-form-urlencoded",
    { parseAs: "string", bodyLimit: HOST_ROOT_BODY_LIMIT },
    async (_request: FastifyRequest, body: string) => Object.fromEntries(new URLSearchParams(body)),
  );
}
