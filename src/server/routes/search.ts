/** GitHub's issue search (`GET /search/issues`) and the caller's issues: parse -> service -> convert -> reply. */
import type { FastifyInstance } from "fastify";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import { endpoints } from "../../api/endpoints.js";
import { toWireIssue, toWireIssueWithRepository } from "../convert/issue.js";
import { readPage, writeLinkHeader } from "../plugins/pagination.js";
import type { IssueSearchService } from "../services/search/issue-search.js";
import type { CallerIssueService } from "../services/search/caller-issues.js";
import { tableRoute } from "./table-route.js";

/** Every match scores the same: feedgate ranks by the sort asked for, or by the last update. */
const SCORE = 1;

export function searchRoutes(untyped: FastifyInstance, service: IssueSearchService): void {
  const app = untyped.withTypeProvider<TypeBoxTypeProvider>();
  app.route({
    ...tableRoute(endpoints.search.issuesAndPullRequests),
    handler: async (request, reply) => {
      const window = readPage(request.query);
      const { total, items } = await service.search(request.query, request.principal, window);
      writeLinkHeader(request, reply, window, total);
      return {
        total_count: total,
        incomplete_results: false,
        items: items.map((facts) => ({ ...toWireIssue(facts, request.baseUrl), score: SCORE })),
      };
    },
  });
}

/** The caller's issues across repositories (`GET /issues`, `/user/issues`, `/orgs/:org/issues`). */
export function callerIssueRoutes(untyped: FastifyInstance, service: CallerIssueService): void {
  const app = untyped.withTypeProvider<TypeBoxTypeProvider>();
  const { issueLists } = endpoints;
  const rows = [
    { row: issueLists.listForAuthenticatedUser, scope: () => ({ kind: "all" }) as const },
    { row: issueLists.listForOwnedAndMemberRepos, scope: () => ({ kind: "own" }) as const },
  ];
  for (const { row, scope } of rows) {
    app.route({
      ...tableRoute(row),
      handler: async (request, reply) => {
        const window = readPage(request.query);
        const { total, items } = await service.list(scope(), request.query, request.principal!, window);
        writeLinkHeader(request, reply, window, total);
        return items.map(({ facts, repository }) => toWireIssueWithRepository(facts, repository, request.baseUrl));
      },
    });
  }
  app.route({
    ...tableRoute(issueLists.listForOrg),
    handler: async (request, reply) => {
      const window = readPage(request.query);
      const scope = { kind: "org", org: request.params.org } as const;
      const { total, items } = await service.list(scope, request.query, request.principal!, window);
      writeLinkHeader(request, reply, window, total);
      return items.map(({ facts, repository }) => toWireIssueWithRepository(facts, repository, request.baseUrl));
    },
  });
}
