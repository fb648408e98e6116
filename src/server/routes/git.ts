/**
 * Git data (`/repos/:user/:repo/git/...`): parse -> service -> convert -> reply. Objects are written as they are
 * made; ref writes are pushes of the action log (services/git/git-refs.ts), each with its events and webhooks.
 */
import type { FastifyInstance } from "fastify";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import { endpoints } from "../../api/endpoints.js";
import { toWireGitCommit, toWireRef, toWireTag, toWireTree, toWireBlob } from "../convert/git.js";
import type { CodeServices } from "../services/git/code-services.js";
import { actionAccess as access } from "./issues.js";
import { tableRoute } from "./table-route.js";

const { git } = endpoints;

/** GitHub lists a tree's whole depth for any `recursive` value given, `0` and `false` included. */
const isRecursive = (value: string | undefined) => value !== undefined;

export function gitRoutes(untyped: FastifyInstance, services: CodeServices): void {
  const app = untyped.withTypeProvider<TypeBoxTypeProvider>();
  const { objects, refs } = services;

  app.route({
    ...tableRoute(git.createBlob),
    handler: async (request, reply) => {
      const { repo, sha } = await objects.createBlob(request.params, request.body, access(request));
      const url = `${request.baseUrl}/repos/${repo.fullName}/git/blobs/${sha}`;
      return reply.code(201).header("Location", url).send({ url, sha });
    },
  });

  app.route({
    ...tableRoute(git.getBlob),
    handler: async (request) => {
      const { repo, sha, value } = await objects.getBlob(request.params, request.principal);
      return toWireBlob(sha, value, repo.fullName, request.baseUrl);
    },
  });

  app.route({
    ...tableRoute(git.createTree),
    handler: async (request, reply) => {
      const { repo, sha, value } = await objects.createTree(request.params, request.body, access(request));
      const body = toWireTree(sha, value, repo.fullName, request.baseUrl);
      return reply.code(201).header("Location", body.url).send(body);
    },
  });

  app.route({
    ...tableRoute(git.getTree),
    handler: async (request) => {
      const recursive = isRecursive(request.query.recursive);
      const { repo, sha, value } = await objects.getTree(request.params, request.principal, recursive);
      return toWireTree(sha, value, repo.fullName, request.baseUrl);
    },
  });

  app.route({
    ...tableRoute(git.createCommit),
    handler: async (request, reply) => {
      const { repo, sha, value } = await objects.createCommit(request.params, request.body, access(request));
      const body = toWireGitCommit(sha, value, repo.fullName, request.baseUrl);
      return reply.code(201).header("Location", body.url).send(body);
    },
  });

  app.route({
    ...tableRoute(git.getCommit),
    handler: async (request) => {
      const { repo, sha, value } = await objects.getCommit(request.params, request.principal);
      return toWireGitCommit(sha, value, repo.fullName, request.baseUrl);
    },
  });

  app.route({
    ...tableRoute(git.createTag),
    handler: async (request, reply) => {
      const { repo, sha, value } = await objects.createTag(request.params, request.body, access(request));
      const body = toWireTag(sha, value, repo.fullName, request.baseUrl);
      return reply.code(201).header("Location", body.url).send(body);
    },
  });

  app.route({
    ...tableRoute(git.getTag),
    handler: async (request) => {
      const { repo, sha, value } = await objects.getTag(request.params, request.principal);
      return toWireTag(sha, value, repo.fullName, request.baseUrl);
    },
  });

  app.route({
    ...tableRoute(git.getRef),
    handler: async (request) => {
      const { repo, ref } = await refs.get(request.params, request.principal);
      return toWireRef(ref.ref, ref.type, repo.fullName, request.baseUrl);
    },
  });

  app.route({
    ...tableRoute(git.listMatchingRefs),
    handler: async (request) => {
      const { repo, refs: found } = await refs.matching(request.params, request.principal);
      return found.map(({ ref, type }) => toWireRef(ref, type, repo.fullName, request.baseUrl));
    },
  });

  app.route({
    ...tableRoute(git.createRef),
    handler: async (request, reply) => {
      const { repo, ref } = await refs.create(request.params, request.body, access(request));
      const body = toWireRef(ref.ref, ref.type, repo.fullName, request.baseUrl);
      return reply.code(201).header("Location", body.url).send(body);
    },
  });

  // The row's PATCH, and POST: GitHub accepts it wherever PATCH is documented (wire notes 1.1).
  for (const method of [undefined, "POST"] as const) {
    app.route({
      ...tableRoute(git.updateRef, { method }),
      handler: async (request) => {
        const { repo, ref } = await refs.update(request.params, request.body, access(request));
        return toWireRef(ref.ref, ref.type, repo.fullName, request.baseUrl);
      },
    });
  }

  app.route({
    ...tableRoute(git.deleteRef),
    handler: async (request, reply) => {
      await refs.delete(request.params, access(request));
      return reply.code(204).send();
    },
  });
}
