/**
 * The GraphQL service, loaded by the first GraphQL request: graphql-js and GitHub's schema, built from its SDL, are
 * a large part of a start that most servers and test doubles never use. Answers are the service's own.
 */
import type { Principal } from "../services/authenticator.js";
import type { GraphServices } from "./graph-context.js";
import type { GraphqlService, GraphReply, GraphRequest } from "./graphql-service.js";

export type GraphqlRunner = Pick<GraphqlService, "run">;

export function graphqlOnUse(services: GraphServices): GraphqlRunner {
  let service: Promise<GraphqlService> | undefined;
  return {
    async run(request: GraphRequest, principal: Principal, baseUrl: string): Promise<GraphReply> {
      service ??= import("./graphql-service.js").then(({ GraphqlService }) => new GraphqlService(services));
      return (await service).run(request, principal, baseUrl);
    },
  };
}
