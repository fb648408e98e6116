/**
 * The resources GitHub clients fetch before the feeds (PyGithub's get_user, get_organization, get_repo): the API
 * root, accounts, organizations, repositories, the rate limit and the meta information, read-only, one route per
 * endpoint-table row plus GitHub's id-based forms (`/user/:id`, `/organizations/:id`, `/repositories/:id`).
 */
import type { FastifyInstance } from "fastify";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import { Type } from "@sinclair/typebox";
import { endpoints, type Endpoint } from "../../api/endpoints.js";
import { requestSchema } from "../../api/schemas.js";
import { toWireRepository } from "../convert/repository.js";
import { toWireOrganization, toWirePrivateUser, toWirePublicUser } from "../convert/user.js";
import { toWireApiOverview, toWireRateLimit, toWireRoot } from "../convert/meta.js";
import type { EntryPointService } from "../services/entry-points.js";
import type { FeedParams, WireIdKind } from "../services/feeds.js";

const { users, orgs, repos, rateLimit, meta } = endpoints;
const ById = Type.Object({ id: Type.String() });

export function entryPointRoutes(untyped: FastifyInstance, entryPoints: EntryPointService): void {
  const app = untyped.withTypeProvider<TypeBoxTypeProvider>();
  const route = <E extends Endpoint>(endpoint: E) => ({ config: { endpoint }, schema: { params: requestSchema(endpoint, "path") } });

  app.get(meta.root.path, route(meta.root), async (request) => toWireRoot(request.baseUrl));
  app.get(meta.get.path, route(meta.get), async () => toWireApiOverview());
  // Never counted, and so without rate-limit headers of its own: it reports the window the other routes count against.
  app.get(rateLimit.get.path, { config: { endpoint: rateLimit.get, rateLimit: false } },
    async (request) => toWireRateLimit(await request.server.rateLimitStatus(request)));

  app.get(users.getAuthenticated.path, route(users.getAuthenticated), async (request) => {
    const { account, counts } = await entryPoints.self(request.principal!);
    return toWirePrivateUser(account, counts, request.baseUrl);
  });

  const user = async (login: string, baseUrl: string) => {
    const { account, counts } = await entryPoints.account(login);
    return toWirePublicUser(account, counts, baseUrl);
  };
  const organization = async (login: string, baseUrl: string) => {
    const { account, counts } = await entryPoints.organization(login);
    return toWireOrganization(account, counts, baseUrl);
  };
  const repository = async (params: FeedParams, request: { principal: Parameters<EntryPointService["repository"]>[1]; baseUrl: string }) => {
    const { facts, ...context } = await entryPoints.repository(params, request.principal);
    return toWireRepository(facts, context, request.baseUrl);
  };

  app.get(users.getByUsername.path, route(users.getByUsername), (request) => user(request.params.user, request.baseUrl));
  app.get(orgs.get.path, route(orgs.get), (request) => organization(request.params.org, request.baseUrl));
  app.get(repos.get.path, route(repos.get), (request) => repository(request.params, request));

  // GitHub's id-based forms: the same resource, found by the wire id its events carry.
  const byId = (path: string, endpoint: Endpoint, kind: WireIdKind,
    serve: (params: FeedParams, request: Parameters<typeof repository>[1]) => Promise<unknown>) =>
    app.get(path, { config: { endpoint }, schema: { params: ById } },
      async (request) => serve(await entryPoints.byWireId(kind, request.params.id), request));
  byId("/user/:id", users.getByUsername, "user", (params, request) => user(params.user!, request.baseUrl));
  byId("/organizations/:id", orgs.get, "org", (params, request) => organization(params.org!, request.baseUrl));
  byId("/repositories/:id", repos.get, "repo", repository);
}
