/**
 * GitHub Apps' checks (`/repos/:user/:repo/check-runs`, `/check-suites`, `/commits/:ref/check-runs` and
 * `/check-suites`): parse -> service -> convert -> reply. A commit's runs and suites are `{total_count, ...}` objects,
 * paged with `Link` as GitHub's; a rerequest answers 201 with an empty object; a suite made by its app 201, one it
 * had already 200.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import { endpoints } from "../../api/endpoints.js";
import {
  toWireAnnotation,
  toWireCheckRun,
  toWireCheckSuite,
  toWireCheckSuitePreference,
  type CheckAppFacts,
} from "../convert/check.js";
import { readPage, writeLinkHeader } from "../plugins/pagination.js";
import type { CheckServices } from "../services/checks/check-services.js";
import type { CheckRunRow, RepoRow } from "../store/store.js";
import { actionAccess as access } from "./issues.js";
import { tableRoute } from "./table-route.js";

const { checks } = endpoints;

const runOf = (request: FastifyRequest, found: { repo: RepoRow; run: CheckRunRow; app: CheckAppFacts }) =>
  toWireCheckRun(found.run, found.app, found.repo.fullName, request.baseUrl);

/** A reply with a status the row's schema does not fix (201 made, 200 found), so untyped here. */
const sent = (reply: FastifyReply, status: number, body: unknown) => reply.code(status).send(body);

export function checkRoutes(untyped: FastifyInstance, services: CheckServices): void {
  const app = untyped.withTypeProvider<TypeBoxTypeProvider>();
  const { runs, suites } = services;

  app.route({
    ...tableRoute(checks.create),
    handler: async (request, reply) => {
      const body = runOf(request, await runs.create(request.params, request.body, access(request)));
      return reply.code(201).header("Location", body.url).send(body);
    },
  });

  app.route({
    ...tableRoute(checks.get),
    handler: async (request) => runOf(request, await runs.get(request.params, request.principal)),
  });

  app.route({
    ...tableRoute(checks.update),
    handler: async (request) => runOf(request, await runs.update(request.params, request.body, access(request))),
  });

  app.route({
    ...tableRoute(checks.listAnnotations),
    handler: async (request, reply) => {
      const window = readPage(request.query);
      const { repo, run, rows, total } = await runs.annotations(request.params, request.principal, window);
      writeLinkHeader(request, reply, window, total);
      return rows.map((a) => toWireAnnotation(a, run.headSha, repo.fullName, request.baseUrl));
    },
  });

  app.route({
    ...tableRoute(checks.rerequestRun),
    handler: async (request, reply) => {
      await runs.rerequest(request.params, access(request));
      return reply.code(201).send({});
    },
  });

  app.route({
    ...tableRoute(checks.listForRef),
    handler: async (request, reply) => {
      const window = readPage(request.query);
      const { repo, rows, total } = await runs.forRef(request.params, request.query, request.principal, window);
      writeLinkHeader(request, reply, window, total);
      return { total_count: total, check_runs: rows.map(({ run, app }) => runOf(request, { repo, run, app })) };
    },
  });

  app.route({
    ...tableRoute(checks.getSuite),
    handler: async (request) => toWireCheckSuite(await suites.get(request.params, request.principal), request.baseUrl),
  });

  app.route({
    ...tableRoute(checks.listForSuite),
    handler: async (request, reply) => {
      const window = readPage(request.query);
      const { repo, rows, total } = await runs.forSuite(request.params, request.query, request.principal, window);
      writeLinkHeader(request, reply, window, total);
      return { total_count: total, check_runs: rows.map(({ run, app }) => runOf(request, { repo, run, app })) };
    },
  });

  app.route({
    ...tableRoute(checks.rerequestSuite),
    handler: async (request, reply) => {
      await suites.rerequest(request.params, access(request));
      return reply.code(201).send({});
    },
  });

  app.route({
    ...tableRoute(checks.createSuite),
    handler: async (request, reply) => {
      const { facts, made } = await suites.create(request.params, request.body, access(request));
      return sent(reply, made ? 201 : 200, toWireCheckSuite(facts, request.baseUrl));
    },
  });

  app.route({
    ...tableRoute(checks.setSuitesPreferences),
    handler: async (request) => {
      const { preferences, repository } = await suites.setPreferences(request.params, request.body, access(request));
      return toWireCheckSuitePreference(preferences, repository, request.baseUrl);
    },
  });

  app.route({
    ...tableRoute(checks.listSuitesForRef),
    handler: async (request, reply) => {
      const window = readPage(request.query);
      const { rows, total } = await suites.forRef(request.params, request.query, request.principal, window);
      writeLinkHeader(request, reply, window, total);
      return { total_count: total, check_suites: rows.map((facts) => toWireCheckSuite(facts, request.baseUrl)) };
    },
  });
}
