/**
 * GitHub's pull requests API (`/repos/:user/:repo/pulls...`): parse -> service -> convert -> reply. Writes are actions
 * (services/pulls/), each making its events and webhooks in its own transaction; lists are paged with `Link`.
 */
import type { FastifyInstance } from "fastify";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import { endpoints } from "../../api/endpoints.js";
import { toWireCommitFile, toWireRepositoryCommit } from "../convert/git.js";
import {
  toWirePull,
  toWirePullSimple,
  toWireReview,
  toWireReviewComment,
  type ReviewCommentFacts,
} from "../convert/pull.js";
import { webOrigin } from "../convert/urls.js";
import { toWireSimpleUser } from "../convert/user.js";
import { readPage, writeLinkHeader } from "../plugins/pagination.js";
import type { PullServices } from "../services/pulls/pull-services.js";
import type { PullView } from "../services/pulls/pull-requests.js";
import type { ReviewView } from "../services/pulls/pull-reviews.js";
import { actionAccess } from "./issues.js";
import { tableRoute } from "./table-route.js";

const { pulls } = endpoints;

export function pullRoutes(untyped: FastifyInstance, services: PullServices): void {
  const app = untyped.withTypeProvider<TypeBoxTypeProvider>();
  const service = services.pulls;
  const wire = (view: PullView, baseUrl: string) => toWirePull(view.facts, view.computed, baseUrl);

  app.route({
    ...tableRoute(pulls.list),
    handler: async (request, reply) => {
      const window = readPage(request.query);
      const page = await service.list(request.params, request.query, request.principal, window);
      writeLinkHeader(request, reply, window, page.total);
      return page.rows.map((facts) => toWirePullSimple(facts, request.baseUrl));
    },
  });

  app.route({
    ...tableRoute(pulls.create),
    handler: async (request, reply) => {
      const body = wire(await service.create(request.params, request.body, actionAccess(request)), request.baseUrl);
      return reply.code(201).header("Location", body.url).send(body);
    },
  });

  app.route({
    ...tableRoute(pulls.get),
    handler: async (request) => {
      const view = await service.get(request.params, request.principal);
      request.lastModified = view.facts.issue.issue.updatedAt;
      return wire(view, request.baseUrl);
    },
  });

  // The row's PATCH, and POST: GitHub accepts it wherever PATCH is documented (wire notes 1.1).
  for (const method of [undefined, "POST"] as const) {
    app.route({
      ...tableRoute(pulls.update, { method }),
      handler: async (request) =>
        wire(await service.update(request.params, request.body ?? {}, actionAccess(request)), request.baseUrl),
    });
  }

  app.route({
    ...tableRoute(pulls.listCommits),
    handler: async (request, reply) => {
      const window = readPage(request.query);
      const { repo, rows, total } = await service.commits(request.params, request.principal, window);
      writeLinkHeader(request, reply, window, total);
      return rows.map((commit) => toWireRepositoryCommit(commit, repo.fullName, request.baseUrl));
    },
  });

  app.route({
    ...tableRoute(pulls.listFiles),
    handler: async (request, reply) => {
      const window = readPage(request.query);
      const { repo, head, rows, total } = await service.files(request.params, request.principal, window);
      writeLinkHeader(request, reply, window, total);
      // A file's URLs name the head commit, as GitHub's do.
      return rows.map((file) => toWireCommitFile(file, head, repo.fullName, request.baseUrl));
    },
  });

  app.route({
    ...tableRoute(pulls.checkIfMerged),
    handler: async (request, reply) => {
      await service.checkMerged(request.params, request.principal);
      return reply.code(204).send();
    },
  });

  app.route({
    ...tableRoute(pulls.merge),
    handler: async (request) => {
      const { sha, message } = await services.merges.merge(request.params, request.body, actionAccess(request));
      return { sha, merged: true, message };
    },
  });

  app.route({
    ...tableRoute(pulls.updateBranch),
    handler: async (request, reply) => {
      await services.merges.updateBranch(request.params, request.body, actionAccess(request));
      const { user, repo, pull_number } = request.params;
      // GitHub's url: its web host with the API's path, as api.github.com answers it.
      const url = `${webOrigin(request.baseUrl)}/repos/${user}/${repo}/pulls/${pull_number}`;
      return reply.code(202).send({ message: "Updating pull request branch.", url });
    },
  });

  const reviews = services.reviews;
  const review = (view: ReviewView, baseUrl: string) =>
    toWireReview(view.review, view.author, view.association, view.pull, baseUrl);

  app.route({
    ...tableRoute(pulls.listRequestedReviewers),
    handler: async (request) => ({
      users: (await reviews.requested(request.params, request.principal)).map((u) =>
        toWireSimpleUser(u, request.baseUrl),
      ),
      teams: [],
    }),
  });

  app.route({
    ...tableRoute(pulls.requestReviewers),
    handler: async (request, reply) => {
      const view = await reviews.request(request.params, request.body, actionAccess(request));
      return reply.code(201).send(toWirePullSimple(view.facts, request.baseUrl));
    },
  });

  app.route({
    ...tableRoute(pulls.removeRequestedReviewers),
    handler: async (request) =>
      toWirePullSimple(
        (await reviews.unrequest(request.params, request.body, actionAccess(request))).facts,
        request.baseUrl,
      ),
  });

  app.route({
    ...tableRoute(pulls.listReviews),
    handler: async (request, reply) => {
      const window = readPage(request.query);
      const page = await reviews.list(request.params, request.principal, window);
      writeLinkHeader(request, reply, window, page.total);
      return page.rows.map((view) => review(view, request.baseUrl));
    },
  });

  app.route({
    ...tableRoute(pulls.createReview),
    handler: async (request) =>
      review(await reviews.create(request.params, request.body, actionAccess(request)), request.baseUrl),
  });

  app.route({
    ...tableRoute(pulls.getReview),
    handler: async (request) => review(await reviews.get(request.params, request.principal), request.baseUrl),
  });

  app.route({
    ...tableRoute(pulls.submitReview),
    handler: async (request) =>
      review(await reviews.submit(request.params, request.body, actionAccess(request)), request.baseUrl),
  });

  app.route({
    ...tableRoute(pulls.dismissReview),
    handler: async (request) =>
      review(await reviews.dismiss(request.params, request.body, actionAccess(request)), request.baseUrl),
  });

  const comments = services.comments;
  const comment = (facts: ReviewCommentFacts, baseUrl: string) => toWireReviewComment(facts, baseUrl);

  for (const row of [pulls.listReviewComments, pulls.listReviewCommentsForRepo] as const)
    app.route({
      ...tableRoute(row),
      handler: async (request, reply) => {
        const window = readPage(request.query);
        const page = await comments.list(request.params, request.query, request.principal, window);
        writeLinkHeader(request, reply, window, page.total);
        return page.rows.map((facts) => comment(facts, request.baseUrl));
      },
    });

  app.route({
    ...tableRoute(pulls.createReviewComment),
    handler: async (request, reply) => {
      const body = comment(await comments.create(request.params, request.body, actionAccess(request)), request.baseUrl);
      return reply.code(201).header("Location", body.url).send(body);
    },
  });

  app.route({
    ...tableRoute(pulls.createReplyForReviewComment),
    handler: async (request, reply) => {
      const made = await comments.reply(request.params, request.body.body, actionAccess(request));
      const body = comment(made, request.baseUrl);
      return reply.code(201).header("Location", body.url).send(body);
    },
  });

  app.route({
    ...tableRoute(pulls.getReviewComment),
    handler: async (request) => comment(await comments.get(request.params, request.principal), request.baseUrl),
  });

  app.route({
    ...tableRoute(pulls.updateReviewComment),
    handler: async (request) =>
      comment((await comments.change(request.params, request.body.body, actionAccess(request)))!, request.baseUrl),
  });

  app.route({
    ...tableRoute(pulls.deleteReviewComment),
    handler: async (request, reply) => {
      await comments.change(request.params, null, actionAccess(request));
      return reply.code(204).send();
    },
  });
}
