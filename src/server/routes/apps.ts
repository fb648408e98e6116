/**
 * GitHub Apps (`/app...`, `/repos|orgs|users/.../installation`, `/installation/...`): parse -> service -> convert ->
 * reply. The JWT routes read the app the auth plugin verified (`request.githubApp`); the installation routes read
 * the installation token's principal.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import { endpoints } from "../../api/endpoints.js";
import { toWireInstallation, toWireInstallationToken, toWireIntegration } from "../convert/app.js";
import { toWireRepository } from "../convert/repository.js";
import type { AppService } from "../services/apps/app-service.js";
import type { ManifestFlow } from "../services/apps/manifest-flow.js";
import type { Narrowing } from "../services/apps/installation-tokens.js";
import type { RepoRow } from "../store/store.js";
import { tableRoute } from "./table-route.js";
import { readPage, writeLinkHeader } from "../plugins/pagination.js";
import type { PageQuery } from "../../api/schemas.js";

const { apps } = endpoints;

const noContent = (reply: FastifyReply) => reply.code(204).send();
const appOf = (request: FastifyRequest) => request.githubApp!;

export function appRoutes(untyped: FastifyInstance, service: AppService, manifests: ManifestFlow): void {
  const app = untyped.withTypeProvider<TypeBoxTypeProvider>();
  const repositories = async (request: FastifyRequest, repos: RepoRow[]) =>
    (await service.repositoryFacts(repos)).map((facts) => toWireRepository(facts, {}, request.baseUrl));

  app.route({
    ...tableRoute(apps.createFromManifest),
    handler: async (request, reply) => {
      const made = await manifests.convert(request.params.code);
      const facts = { app: made.app, owner: made.owner, installationsCount: 0 };
      return reply.code(201).send({
        ...toWireIntegration(facts, request.baseUrl),
        client_secret: made.clientSecret,
        webhook_secret: made.webhookSecret,
        pem: made.pem,
      });
    },
  });
  app.route({
    ...tableRoute(apps.getAuthenticated),
    handler: async (request) => toWireIntegration(await service.app(appOf(request)), request.baseUrl),
  });
  app.route({
    ...tableRoute(apps.listInstallations),
    handler: async (request) =>
      (await service.installations(appOf(request))).map((facts) => toWireInstallation(facts, request.baseUrl)),
  });
  app.route({
    ...tableRoute(apps.getInstallation),
    handler: async (request) =>
      toWireInstallation(await service.installation(appOf(request), request.params.installation_id), request.baseUrl),
  });
  app.route({
    ...tableRoute(apps.deleteInstallation),
    handler: async (request, reply) => {
      await service.uninstall(appOf(request), request.params.installation_id, request.baseUrl);
      return noContent(reply);
    },
  });
  for (const [row, suspend] of [
    [apps.suspendInstallation, true],
    [apps.unsuspendInstallation, false],
  ] as const) {
    app.route({
      ...tableRoute(row),
      handler: async (request, reply) => {
        await service.suspend(appOf(request), request.params.installation_id, suspend);
        return noContent(reply);
      },
    });
  }
  app.route({
    ...tableRoute(apps.createInstallationAccessToken),
    handler: async (request, reply) => {
      const body = request.body ?? {};
      // GitHub's per-request choice of the token's form (spec section 4); the classic form otherwise.
      const stateless = request.headers["x-github-stateless-s2s-token"] === "enabled";
      const narrowing = {
        repositories: body.repositories,
        repository_ids: body.repository_ids?.map((id) => Number(id)),
        permissions: body.permissions as Narrowing["permissions"],
      };
      const minted = await service.mint(appOf(request), request.params.installation_id, narrowing, stateless);
      const repos = minted.repositories && (await repositories(request, minted.repositories));
      return reply.code(201).send(toWireInstallationToken(minted, repos ?? undefined));
    },
  });
  app.route({
    ...tableRoute(apps.getRepoInstallation),
    handler: async (request) =>
      toWireInstallation(
        await service.installationOn(appOf(request), request.params.user, request.params.repo),
        request.baseUrl,
      ),
  });
  app.route({
    ...tableRoute(apps.getOrgInstallation),
    handler: async (request) =>
      toWireInstallation(await service.installationOn(appOf(request), request.params.org), request.baseUrl),
  });
  app.route({
    ...tableRoute(apps.getUserInstallation),
    handler: async (request) =>
      toWireInstallation(await service.installationOn(appOf(request), request.params.user), request.baseUrl),
  });
  app.route({
    ...tableRoute(apps.listReposAccessibleToInstallation),
    handler: async (request) => {
      const { selection, repos } = await service.repositories(request.principal);
      return {
        total_count: repos.length,
        repository_selection: selection,
        repositories: await repositories(request, repos),
      };
    },
  });
  /** A page of `items` by the request's `page` and `per_page`, with GitHub's `Link` header. */
  const pageOf = <T>(request: FastifyRequest, reply: FastifyReply, items: T[]) => {
    const window = readPage(request.query as PageQuery);
    writeLinkHeader(request, reply, window, items.length);
    return items.slice(window.offset, window.offset + window.limit);
  };
  app.route({
    ...tableRoute(apps.listInstallationsForUser),
    handler: async (request, reply) => {
      const installations = await service.ofUser.list(request.principal);
      const shown = [];
      for (const installation of pageOf(request, reply, installations))
        shown.push(toWireInstallation(await service.installationFacts(installation), request.baseUrl));
      return { total_count: installations.length, installations: shown };
    },
  });
  app.route({
    ...tableRoute(apps.listInstallationReposForUser),
    handler: async (request, reply) => {
      const { principal, params } = request;
      const { installation, repos } = await service.ofUser.repositories(principal, params.installation_id);
      return {
        total_count: repos.length,
        repository_selection: installation.repositorySelection,
        repositories: await repositories(request, pageOf(request, reply, repos)),
      };
    },
  });
  for (const [row, change] of [
    [apps.addRepoToInstallation, "add"],
    [apps.removeRepoFromInstallation, "remove"],
  ] as const) {
    app.route({
      ...tableRoute(row),
      handler: async (request, reply) => {
        const { installation_id, repository_id } = request.params;
        await service.repositoriesOf[change](request.principal, installation_id, repository_id, request.baseUrl);
        return noContent(reply);
      },
    });
  }
  app.route({
    ...tableRoute(apps.revokeInstallationAccessToken),
    handler: async (request, reply) => {
      await service.revoke(request.principal);
      return noContent(reply);
    },
  });
}
