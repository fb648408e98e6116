/**
 * GitHub's GraphQL endpoint: `POST /graphql` (api.github.com's, and `/api/v3/graphql` with every route) and GitHub
 * Enterprise Server's `POST /api/graphql`, where gh asks `query UserCurrent{viewer{login}}` once `gh auth login` has
 * a token. Every request needs credentials, with GitHub's own 401 for GraphQL.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { ApiError } from "../errors.js";
import type { GraphRequest } from "../graphql/graphql-service.js";
import type { GraphqlRunner } from "../graphql/graphql-on-use.js";
import { documented } from "../openapi/route-doc.js";
import { GRAPHQL, GRAPHQL_ENTERPRISE } from "./graphql-openapi.js";

const AUTHENTICATING = "https://docs.github.com/graphql/guides/forming-calls-with-graphql#authenticating-with-graphql";

export function graphqlRoutes(app: FastifyInstance, service: GraphqlRunner): void {
  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    if (!request.principal)
      throw new ApiError(401, "This endpoint requires you to be authenticated.", { documentationUrl: AUTHENTICATING });
    const body = (request.body ?? {}) as GraphRequest;
    const { status, body: answer } = await service.run(
      typeof body === "object" ? body : {},
      request.principal,
      request.baseUrl,
    );
    return reply.code(status).send(answer);
  };
  app.post("/graphql", { schema: documented(GRAPHQL) }, handler);
  // GitHub Enterprise Server's GraphQL sits beside its REST prefix, not under it.
  app.post("/api/graphql", { schema: documented(GRAPHQL_ENTERPRISE), config: { rootOnly: true } }, handler);
}
