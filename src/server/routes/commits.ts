/**
 * A repository's branches and commits (`/repos/:user/:repo/branches`, `/commits`): parse -> service -> convert ->
 * reply, paged with `Link` as GitHub's lists are (a commit's files too, GitHub's 300 a page at most).
 */
import type { FastifyInstance } from "fastify";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import { endpoints } from "../../api/endpoints.js";
import { toWireBranch, toWireBranchShort, toWireRepositoryCommit } from "../convert/git.js";
import { readPage, writeLinkHeader } from "../plugins/pagination.js";
import type { CodeServices } from "../services/git/code-services.js";
import { tableRoute } from "./table-route.js";

const { branches, commits } = endpoints;

export function commitRoutes(untyped: FastifyInstance, services: CodeServices): void {
  const app = untyped.withTypeProvider<TypeBoxTypeProvider>();
  const service = services.commits;

  app.route({
    ...tableRoute(branches.list),
    handler: async (request, reply) => {
      const window = readPage(request.query);
      const { repo, rows, total } = await service.branches(request.params, request.principal, window);
      writeLinkHeader(request, reply, window, total);
      return rows.map((branch) => toWireBranchShort(branch, repo.fullName, request.baseUrl));
    },
  });

  app.route({
    ...tableRoute(branches.get),
    handler: async (request) => {
      const { repo, name, commit } = await service.branch(request.params, request.principal);
      return toWireBranch(name, commit, repo.fullName, request.baseUrl);
    },
  });

  app.route({
    ...tableRoute(commits.list),
    handler: async (request, reply) => {
      const window = readPage(request.query);
      const { repo, rows, total } = await service.list(request.params, request.query, request.principal, window);
      writeLinkHeader(request, reply, window, total);
      return rows.map((commit) => toWireRepositoryCommit(commit, repo.fullName, request.baseUrl));
    },
  });

  app.route({
    ...tableRoute(commits.get),
    handler: async (request, reply) => {
      const window = readPage({ ...request.query, per_page: request.query.per_page ?? "300" });
      const { repo, commit, totalFiles } = await service.get(request.params, request.principal, window);
      if (totalFiles > window.perPage) writeLinkHeader(request, reply, window, totalFiles);
      return toWireRepositoryCommit(commit, repo.fullName, request.baseUrl);
    },
  });
}
