/**
 * GitHub's repositories as resources (`POST /user/repos`, `/orgs/:org/repos`, `PATCH`/`DELETE /repos/:user/:repo`,
 * `.../forks`, and the lists `/user/repos`, `/users/:user/repos`, `/orgs/:org/repos`): parse -> service -> convert ->
 * reply. Writes are actions (services/actions/repositories.ts, forks.ts); a written repository is answered as
 * `GET /repos/:user/:repo` answers it, read after the action.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import { endpoints } from "../../api/endpoints.js";
import type { ApiVersion } from "../../api/versions.js";
import { toWireParentRepository, toWireRepository, type RepositoryFacts } from "../convert/repository.js";
import { readPage, writeLinkHeader } from "../plugins/pagination.js";
import type { EntryPointService } from "../services/entry-points.js";
import type { ForkService } from "../services/actions/forks.js";
import type { RepositoryListService } from "../services/actions/repository-lists.js";
import type { RepositoryService } from "../services/actions/repositories.js";
import type { RememberingStore } from "../store/remembering-store.js";
import type { Page, RepoRow, Store } from "../store/store.js";
import { actionAccess as access } from "./issues.js";
import { tableRoute } from "./table-route.js";

const { repos } = endpoints;

export interface RepositoryServices {
  repositories: RepositoryService;
  forks: ForkService;
  repositoryLists: RepositoryListService;
  entryPoints: EntryPointService;
  store: Store;
  remembering: RememberingStore;
}

/** The id-based form of the rows on the repository itself (GitHub's `/repositories/{id}`, where renames redirect). */
const BY_ID = { byId: "/repositories/:id" } as const;

export function repositoryRoutes(untyped: FastifyInstance, services: RepositoryServices): void {
  const app = untyped.withTypeProvider<TypeBoxTypeProvider>();
  const { repositories, forks, repositoryLists: lists, entryPoints, store, remembering } = services;

  /** The repository as `GET /repos/:user/:repo` shows it to the caller, read afresh after the request's write. */
  const view = async (
    repo: RepoRow,
    request: FastifyRequest & { apiVersion: ApiVersion },
  ): Promise<ReturnType<typeof toWireRepository>> => {
    const [user, name] = [
      repo.fullName.slice(0, repo.fullName.indexOf("/")),
      repo.fullName.slice(repo.fullName.indexOf("/") + 1),
    ];
    await remembering.refresh();
    const { facts, ...context } = await entryPoints.repository({ user, repo: name }, request.principal);
    return toWireRepository(facts, context, request.baseUrl, request.apiVersion);
  };

  /** A page of repositories as lists show them, with its Link header. */
  const list = async (request: FastifyRequest, reply: FastifyReply, page: Page<RepoRow>) => {
    const window = readPage(request.query as Parameters<typeof readPage>[0]);
    writeLinkHeader(request, reply, window, page.total);
    const rows: RepositoryFacts[] = [];
    for (const repo of page.rows) {
      const owner = await store.users.findById(repo.ownerId);
      rows.push({ repo, owner: owner!, stats: await store.directory.repoStats(repo.id) });
    }
    return rows.map((facts) => toWireParentRepository(facts, request.baseUrl));
  };

  /** The repository's names, from the path or, in the id-based form, from its id. */
  const named = (params: { id: string } | { user: string; repo: string }) =>
    "id" in params ? entryPoints.byWireId("repo", params.id) : Promise.resolve(params);

  const created = async (repo: RepoRow, request: FastifyRequest, reply: FastifyReply) => {
    const body = await view(repo, request);
    return reply.code(201).header("Location", body.url).send(body);
  };

  app.route({
    ...tableRoute(repos.createForAuthenticatedUser),
    handler: async (request, reply) =>
      created(await repositories.create(null, request.body, access(request)), request, reply),
  });
  app.route({
    ...tableRoute(repos.createInOrg),
    handler: async (request, reply) =>
      created(await repositories.create(request.params.org, request.body, access(request)), request, reply),
  });

  // The row's PATCH, GitHub's POST alias (wire notes 1.1), and both at `/repositories/:id`.
  for (const variant of [{}, { method: "POST" }, BY_ID, { ...BY_ID, method: "POST" }] as const) {
    app.route({
      ...tableRoute(repos.update, variant),
      handler: async (request) => {
        const params = await named(request.params);
        return view(await repositories.update(params, request.body ?? {}, access(request)), request);
      },
    });
  }
  for (const variant of [{}, BY_ID] as const) {
    app.route({
      ...tableRoute(repos.delete, variant),
      handler: async (request, reply) => {
        const params = await named(request.params);
        await repositories.delete(params, access(request));
        return reply.code(204).send();
      },
    });
  }

  app.route({
    ...tableRoute(repos.createFork),
    handler: async (request, reply) => {
      const fork = await forks.fork(request.params, request.body ?? {}, access(request));
      return reply.code(202).send(await view(fork, request));
    },
  });
  app.route({
    ...tableRoute(repos.listForks),
    handler: async (request, reply) => {
      const window = readPage(request.query);
      return list(request, reply, await forks.forks(request.params, request.query.sort, request.principal, window));
    },
  });

  app.route({
    ...tableRoute(repos.listForAuthenticatedUser),
    handler: async (request, reply) =>
      list(request, reply, await lists.own(request.principal!, request.query, readPage(request.query))),
  });
  app.route({
    ...tableRoute(repos.listForUser),
    handler: async (request, reply) =>
      list(request, reply, await lists.ofUser(request.params.user, request.query, readPage(request.query))),
  });
  app.route({
    ...tableRoute(repos.listForOrg),
    handler: async (request, reply) =>
      list(
        request,
        reply,
        await lists.ofOrg(request.params.org, request.query, request.principal, readPage(request.query)),
      ),
  });
}
