/**
 * GitHub's starring, watching and following (`/user/starred...`, `.../stargazers`, `.../subscription`,
 * `.../subscribers`, `/user/subscriptions`, `/user/following...`, `/users/:user/followers`...): parse -> service ->
 * convert -> reply. Writes are actions (services/actions/activity.ts).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import { endpoints, type Endpoint } from "../../api/endpoints.js";
import { toWireStargazer, toWireStarredRepository, toWireSubscription } from "../convert/activity.js";
import { toWireParentRepository } from "../convert/repository.js";
import { toWireSimpleUser } from "../convert/user.js";
import { readPage, writeLinkHeader } from "../plugins/pagination.js";
import type { ActivityService } from "../services/actions/activity.js";
import type { ActionAccess } from "../services/actions/repository-access.js";
import type { Page, UserRow } from "../store/store.js";
import { tableRoute } from "./table-route.js";

const { activity } = endpoints;

/** GitHub's media type for stars with their times (`application/vnd.github.star+json`, `.v3.` too). */
const STAR_JSON = /application\/vnd\.github(\.v3)?\.star\+json/;
const withTimes = (request: FastifyRequest) => STAR_JSON.test(request.headers.accept ?? "");

function access(request: FastifyRequest): ActionAccess {
  const endpoint: Endpoint | undefined = request.routeOptions.config.endpoint;
  return {
    principal: request.principal,
    acceptedScopes: endpoint?.acceptedScopes ?? [],
    permissions: endpoint?.permissions ?? [],
  };
}

/** 204. A reply is a thenable that settles once sent: returned from a handler, never awaited inside one. */
const noContent = (reply: FastifyReply) => reply.code(204).send();

export function activityRoutes(untyped: FastifyInstance, service: ActivityService): void {
  const app = untyped.withTypeProvider<TypeBoxTypeProvider>();

  /** A page of accounts as simple users, with its Link header. */
  const people = async (
    request: FastifyRequest,
    reply: FastifyReply,
    read: (window: ReturnType<typeof readPage>) => Promise<Page<UserRow>>,
  ) => {
    const window = readPage(request.query as Parameters<typeof readPage>[0]);
    const page = await read(window);
    writeLinkHeader(request, reply, window, page.total);
    return page.rows.map((user) => toWireSimpleUser(user, request.baseUrl));
  };

  app.route({
    ...tableRoute(activity.star),
    handler: async (request, reply) => {
      await service.star(request.params, access(request));
      return noContent(reply);
    },
  });
  app.route({
    ...tableRoute(activity.unstar),
    handler: async (request, reply) => {
      await service.unstar(request.params, access(request));
      return noContent(reply);
    },
  });
  app.route({
    ...tableRoute(activity.checkStarred),
    handler: async (request, reply) => {
      await service.checkStarred(request.params, access(request));
      return noContent(reply);
    },
  });
  for (const row of [activity.listStarred, activity.listStarredForUser] as const) {
    app.route({
      ...tableRoute(row),
      handler: async (request, reply) => {
        const window = readPage(request.query);
        const login = "user" in request.params ? (request.params.user as string) : null;
        const page = await service.starred(login, request.query, access(request), window);
        writeLinkHeader(request, reply, window, page.total);
        const repos = page.rows.map(({ facts }) => toWireParentRepository(facts, request.baseUrl));
        return withTimes(request) ? repos.map((repo, i) => toWireStarredRepository(page.rows[i]!.star, repo)) : repos;
      },
    });
  }
  app.route({
    ...tableRoute(activity.listStargazers),
    handler: async (request, reply) => {
      const window = readPage(request.query);
      const page = await service.stargazers(request.params, request.principal, window);
      writeLinkHeader(request, reply, window, page.total);
      return withTimes(request)
        ? page.rows.map((row) => toWireStargazer(row, request.baseUrl))
        : page.rows.map((row) => toWireSimpleUser(row.user, request.baseUrl));
    },
  });

  app.route({
    ...tableRoute(activity.setSubscription),
    handler: async (request) => {
      const { row, repo } = await service.setSubscription(request.params, request.body ?? {}, access(request));
      return toWireSubscription(row, repo.fullName, request.baseUrl);
    },
  });
  app.route({
    ...tableRoute(activity.getSubscription),
    handler: async (request) => {
      const { row, repo } = await service.subscription(request.params, access(request));
      return toWireSubscription(row, repo.fullName, request.baseUrl);
    },
  });
  app.route({
    ...tableRoute(activity.deleteSubscription),
    handler: async (request, reply) => {
      await service.deleteSubscription(request.params, access(request));
      return noContent(reply);
    },
  });
  app.route({
    ...tableRoute(activity.listWatchers),
    handler: async (request, reply) =>
      people(request, reply, (window) => service.subscribers(request.params, request.principal, window)),
  });
  for (const row of [activity.listWatched, activity.listWatchedForUser] as const) {
    app.route({
      ...tableRoute(row),
      handler: async (request, reply) => {
        const window = readPage(request.query);
        const login = "user" in request.params ? (request.params.user as string) : null;
        const page = await service.watched(login, access(request), window);
        writeLinkHeader(request, reply, window, page.total);
        return page.rows.map((facts) => toWireParentRepository(facts, request.baseUrl));
      },
    });
  }

  app.route({
    ...tableRoute(activity.follow),
    handler: async (request, reply) => {
      await service.follow(request.params.user, access(request));
      return noContent(reply);
    },
  });
  app.route({
    ...tableRoute(activity.unfollow),
    handler: async (request, reply) => {
      await service.unfollow(request.params.user, access(request));
      return noContent(reply);
    },
  });
  app.route({
    ...tableRoute(activity.checkFollowing),
    handler: async (request, reply) => {
      await service.checkFollowing(null, request.params.user, access(request));
      return noContent(reply);
    },
  });
  app.route({
    ...tableRoute(activity.checkFollowingForUser),
    handler: async (request, reply) => {
      await service.checkFollowing(request.params.user, request.params.target, access(request));
      return noContent(reply);
    },
  });
  const lists = [
    [activity.listFollowers, "followers"],
    [activity.listFollowing, "following"],
    [activity.listFollowersForUser, "followers"],
    [activity.listFollowingForUser, "following"],
  ] as const;
  for (const [row, which] of lists) {
    app.route({
      ...tableRoute(row),
      handler: async (request, reply) => {
        const login = "user" in request.params ? (request.params.user as string) : null;
        return people(request, reply, (window) => service.people(login, which, access(request), window));
      },
    });
  }
}
