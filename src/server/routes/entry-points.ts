/**
 * The resources GitHub clients fetch before the feeds (PyGithub's get_user, get_organization, get_repo): the API
 * root, accounts, organizations, repositories, the rate limit and the meta information, read-only, one route per
 * endpoint-table row plus GitHub's id-based forms (`/user/:id`, `/organizations/:id`, `/repositories/:id`).
 */
import type { FastifyInstance } from "fastify";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import { endpoints } from "../../api/endpoints.js";
import { tableRoute } from "./table-route.js";
import { repositoryUpdatedAt, toWireRepository } from "../convert/repository.js";
import { toWireOrganization, toWirePrivateUser, toWirePublicUser } from "../convert/user.js";
import type { ApiVersion } from "../../api/versions.js";
import type { Principal } from "../services/authenticator.js";
import { toWireApiOverview, toWireRateLimit, toWireRoot } from "../convert/meta.js";
import type { EntryPointService } from "../services/entry-points.js";
import type { FeedParams, PageDependence, WireIdKind } from "../services/feeds.js";
import type { Repository } from "../../api/schemas.js";
import type { StoreVersion } from "../store/store.js";

const { users, orgs, repos, rateLimit, meta } = endpoints;

/**
 * Who asks for a repository, and how, as the key of its kept answer (EntryPointService.repositoryAnswers): the
 * repository as named, the caller, the base URL and the API version, everything the answer is made from besides the
 * store. Only anonymous callers and tokens whose rights are their row's (a classic or OAuth token's scopes, under the
 * store's `credentials` number) are kept for: a fine-grained or an app's token is granted by rows no number covers,
 * and a password's checks are made every time. null: made afresh.
 */
function repositoryAnswerKey(
  params: FeedParams,
  request: { principal: Principal | null; baseUrl: string; apiVersion: ApiVersion },
): string | null {
  const { principal } = request;
  let caller = "-";
  if (principal !== null) {
    if (principal.kind !== "token" || principal.authorization.fineGrained !== null) return null;
    caller = `${principal.user.id}:${principal.authorization.id}`;
  }
  return `${params.user}\0${params.repo}\0${caller}\0${request.baseUrl}\0${request.apiVersion}`;
}

/** What a repository object depends on besides the request: the store's whole version, and no time. */
const REPOSITORY_DEPENDENCE: PageDependence = Object.freeze({
  received: null,
  from: -Infinity,
  until: Infinity,
  wholeVersion: true,
});

export function entryPointRoutes(untyped: FastifyInstance, entryPoints: EntryPointService): void {
  const app = untyped.withTypeProvider<TypeBoxTypeProvider>();
  app.route({ ...tableRoute(meta.root), handler: async (request) => toWireRoot(request.baseUrl, request.apiVersion) });
  app.route({ ...tableRoute(meta.get), handler: async () => toWireApiOverview() });
  // Never counted ("does not count against your REST API rate limit"); its headers, as GitHub's, and its body report
  // the window the other routes count against, as it stands.
  app.route({
    ...tableRoute(rateLimit.get, { rateLimit: "uncounted" }),
    handler: async (request) => toWireRateLimit(await request.server.rateLimitStatus(request), request.apiVersion),
  });

  app.route({
    ...tableRoute(users.getAuthenticated),
    handler: async (request) => {
      const { account, counts } = await entryPoints.self(request.principal!);
      return toWirePrivateUser(account, counts, request.baseUrl);
    },
  });

  const user = async (login: string, baseUrl: string) => {
    const { account, counts } = await entryPoints.account(login);
    return toWirePublicUser(account, counts, baseUrl);
  };
  const organization = async (
    login: string,
    request: { principal: Principal | null; baseUrl: string; apiVersion: ApiVersion; lastModified: Date | null },
  ) => {
    const { account, counts, asMember } = await entryPoints.organization(login, request.principal);
    request.lastModified = account.updatedAt; // GitHub sends the organization's updated_at as its Last-Modified
    return toWireOrganization(account, counts, request.baseUrl, { asMember, version: request.apiVersion });
  };
  const repository = async (
    params: FeedParams,
    request: {
      principal: Parameters<EntryPointService["repository"]>[1];
      baseUrl: string;
      apiVersion: ApiVersion;
      lastModified: Date | null;
      storeVersion: StoreVersion | null;
      repeatable: PageDependence | null;
    },
  ) => {
    const key = repositoryAnswerKey(params, request);
    // An answer kept under the whole version may be given again before Fastify's pipeline (../repeats/), as it is.
    if (key !== null) request.repeatable = REPOSITORY_DEPENDENCE;
    const kept = key === null ? undefined : entryPoints.repositoryAnswers.get(key, request.storeVersion);
    if (kept !== undefined) {
      request.lastModified = kept.lastModified;
      return kept.wire as Repository;
    }
    const { facts, ...context } = await entryPoints.repository(params, request.principal);
    const lastModified = repositoryUpdatedAt(facts); // GitHub sends the repository's Last-Modified
    request.lastModified = lastModified;
    const wire = toWireRepository(facts, context, request.baseUrl, request.apiVersion);
    return key === null
      ? wire
      : (entryPoints.repositoryAnswers.set(key, request.storeVersion, { wire, lastModified }).wire as Repository);
  };

  app.route({ ...tableRoute(users.getByUsername), handler: (request) => user(request.params.user, request.baseUrl) });
  app.route({ ...tableRoute(orgs.get), handler: (request) => organization(request.params.org, request) });
  app.route({ ...tableRoute(repos.get), handler: (request) => repository(request.params, request) });

  // GitHub's id-based forms: the same resource, found by the wire id its events carry.
  const byWireId = (kind: WireIdKind, request: { params: { id: string } }) =>
    entryPoints.byWireId(kind, request.params.id);
  app.route({
    ...tableRoute(users.getByUsername, { byId: "/user/:id" }),
    handler: async (request) => user((await byWireId("user", request)).user!, request.baseUrl),
  });
  app.route({
    ...tableRoute(orgs.get, { byId: "/organizations/:id" }),
    handler: async (request) => organization((await byWireId("org", request)).org!, request),
  });
  app.route({
    ...tableRoute(repos.get, { byId: "/repositories/:id" }),
    handler: async (request) => repository(await byWireId("repo", request), request),
  });
}
