/**
 * GitHub's `/repositories/{id}/...` form of a repository's routes: the same operation, the repository found by its
 * numeric id (GitHub's own `Link` headers use these paths for issue lists). Registered beside each route of the
 * families named, as it is added: the id is resolved before the handler and the request goes on with the names in
 * its params (`user`, `repo`), so the row's own handler and answers serve it unchanged. An id no visible
 * repository has is the resource's 404; a segment that is not a number, another of GitHub's routes (the 404 of a
 * path without a route).
 */
import { Type, type TObject } from "@sinclair/typebox";
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from "fastify";
import type { Endpoint } from "../../api/endpoints.js";
import type { FeedParams } from "../services/feeds.js";

const BY_NAME = "/repos/:user/:repo/";
const BY_ID = "/repositories/:id/";

export function repositoryIdForms(
  app: FastifyInstance,
  tags: ReadonlySet<string>,
  byId: (id: string) => Promise<FeedParams>,
): void {
  const forms: RouteOptions[] = [];
  app.addHook("onRoute", (route) => {
    const endpoint = (route.config as { endpoint?: Endpoint } | undefined)?.endpoint;
    // Fastify adds a GET's HEAD route itself, for the form's GET as for the route's.
    if (!endpoint || !tags.has(endpoint.tag) || !route.url.startsWith(BY_NAME) || route.method === "HEAD") return;
    const {
      path: _path,
      prefix: _prefix,
      routePath: _routePath,
      ...options
    } = route as RouteOptions & {
      path?: string;
      prefix?: string;
      routePath?: string;
    };
    forms.push({ ...options, url: route.url.replace(BY_NAME, BY_ID) });
  });
  // Loaded once every route of this level is registered: each form is made of its route as registered.
  app.register((scope, _options, done) => {
    for (const form of forms) {
      scope.route({
        ...form,
        // Its own path's params: the id, then the route's others. The names take the id's place after validation.
        schema: { ...form.schema, params: idParams(form.schema?.params as TObject | undefined) },
        onRequest: [numericIdOnly, ...asList(form.onRequest)],
        preHandler: [
          async (request: FastifyRequest) => {
            const { id, ...rest } = request.params as { id: string };
            request.params = { ...(await byId(id)), ...rest };
          },
          ...asList(form.preHandler),
        ],
      });
    }
    done();
  });
}

/** The route's path params with the repository's id in place of its names. */
function idParams(params: TObject | undefined): TObject {
  const { user: _user, repo: _repo, ...others } = params?.properties ?? {};
  return Type.Object({ id: Type.String(), ...others });
}

const asList = <T>(hooks: T | T[] | undefined): T[] =>
  hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks];

async function numericIdOnly(request: FastifyRequest, reply: FastifyReply) {
  if (/^[0-9]+$/.test((request.params as { id?: string }).id ?? "")) return;
  reply.callNotFound();
  return reply;
}
