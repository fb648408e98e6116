/**
 * A repository's branches and commits (`/repos/:user/:repo/branches`, `/commits`, `/compare`, `/merges`): parse ->
 * service -> convert -> reply, paged with `Link` as GitHub's lists are (a commit's files too, GitHub's 300 a page at
 * most; a comparison's commits when paging is asked for). A commit and a comparison answer GitHub's diff and patch
 * media types as git writes them (git/unified-diff.ts, git/format-patch.ts), a commit the SHA one too, unpaged.
 */
import type { FastifyInstance, FastifyReply } from "fastify";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import { endpoints } from "../../api/endpoints.js";
import { toWireComparison } from "../convert/comparison.js";
import { toWireBranch, toWireBranchShort, toWireRepositoryCommit } from "../convert/git.js";
import { toWirePullSimple } from "../convert/pull.js";
import { readPage, writeLinkHeader } from "../plugins/pagination.js";
import type { CodeServices } from "../services/git/code-services.js";
import { actionAccess } from "./issues.js";
import { tableRoute } from "./table-route.js";
import { negotiate, sendAs } from "./media-negotiation.js";
import { unifiedDiff } from "../git/unified-diff.js";
import { formatPatch } from "../git/format-patch.js";

const { branches, commits } = endpoints;

/** The media type parameters of a commit (GitHub's commits documentation) and of a comparison. */
const COMMIT_FORMS = ["diff", "patch", "sha"] as const;
const COMPARE_FORMS = ["diff", "patch"] as const;

/** GitHub's 204 when the base already has the head; the row's schema is the 201's, so the reply is untyped here. */
const nothingToMerge = (reply: FastifyReply) => reply.code(204).send();

export function commitRoutes(untyped: FastifyInstance, services: CodeServices): void {
  const app = untyped.withTypeProvider<TypeBoxTypeProvider>();
  const service = services.commits;

  app.route({
    ...tableRoute(branches.list),
    handler: async (request, reply) => {
      const window = readPage(request.query);
      const { repo, rows, total } = await service.branches(request.params, request.query, request.principal, window);
      writeLinkHeader(request, reply, window, total);
      return rows.map((branch) => toWireBranchShort(branch, repo.fullName, request.baseUrl, true));
    },
  });

  app.route({
    ...tableRoute(branches.get),
    handler: async (request) => {
      const { repo, name, rules, commit } = await service.branch(request.params, request.principal);
      return toWireBranch(name, commit, rules, repo.fullName, request.baseUrl);
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
      const form = negotiate(request, COMMIT_FORMS);
      if (form === "sha") {
        // GitHub's ETag for the SHA form is the SHA, so that a client holding one asks with it (If-None-Match).
        const sha = await service.shaOf(request.params, request.principal);
        return sendAs(reply.header("ETag", `"${sha}"`), "sha", sha);
      }
      if (form) {
        const commit = await service.patched(request.params, request.principal);
        return sendAs(reply, form, form === "diff" ? unifiedDiff(commit.files) : formatPatch([commit]));
      }
      const window = readPage({ ...request.query, per_page: request.query.per_page ?? "300" });
      const { repo, commit, totalFiles } = await service.get(request.params, request.principal, window);
      if (totalFiles > window.perPage) writeLinkHeader(request, reply, window, totalFiles);
      return toWireRepositoryCommit(commit, repo.fullName, request.baseUrl);
    },
  });

  app.route({
    ...tableRoute(commits.compare),
    handler: async (request, reply) => {
      const form = negotiate(request, COMPARE_FORMS);
      if (form === "diff")
        return sendAs(reply, form, unifiedDiff(await services.compare.diff(request.params, request.principal)));
      if (form === "patch")
        return sendAs(reply, form, formatPatch(await services.compare.patch(request.params, request.principal)));
      // Unpaged, GitHub lists the comparison's last commits; asked for a page, it pages them as any list.
      const paged = request.query.page !== undefined || request.query.per_page !== undefined;
      const window = paged ? readPage(request.query) : null;
      const comparison = await services.compare.compare(request.params, request.principal, window);
      if (window) writeLinkHeader(request, reply, window, comparison.aheadBy);
      return toWireComparison(comparison, request.baseUrl);
    },
  });

  app.route({
    ...tableRoute(branches.merge),
    handler: async (request, reply) => {
      const merged = await services.merges.merge(request.params, request.body, actionAccess(request));
      if (!merged) return nothingToMerge(reply);
      const body = toWireRepositoryCommit(merged.commit, merged.repo.fullName, request.baseUrl);
      return reply.code(201).send(body);
    },
  });

  app.route({
    ...tableRoute(commits.listBranchesForHeadCommit),
    handler: async (request) => {
      const { repo, rows } = await services.lookups.branchesWhereHead(request.params, request.principal);
      return rows.map((branch) => toWireBranchShort(branch, repo.fullName, request.baseUrl));
    },
  });

  app.route({
    ...tableRoute(commits.listPullRequestsAssociatedWithCommit),
    handler: async (request, reply) => {
      const window = readPage(request.query);
      const { rows, total } = await services.lookups.pulls(request.params, request.principal, window);
      writeLinkHeader(request, reply, window, total);
      return rows.map((facts) => toWirePullSimple(facts, request.baseUrl));
    },
  });
}
