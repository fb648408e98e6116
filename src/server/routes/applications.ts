/**
 * An OAuth app's token management (`/applications/:client_id/...`): the auth plugin reads no credential on these
 * rows (`auth: "client"`); the app's client id and secret come in Basic auth and the service checks them.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import { endpoints } from "../../api/endpoints.js";
import { toWireAuthorization } from "../convert/authorization.js";
import { readCredentials } from "../plugins/auth.js";
import type { AppTokenService } from "../services/oauth/app-tokens.js";
import type { AuthorizationRow, OAuthAppRow } from "../store/store.js";
import { tableRoute } from "./table-route.js";
import { InvalidInputError } from "../failures.js";

/** A DELETE's body, which Fastify validates by no schema (GitHub documents a JSON body even there). */
function accessTokenOf(body: unknown): string {
  const token = (body as { access_token?: unknown } | null)?.access_token;
  if (typeof token !== "string" || token === "")
    throw new InvalidInputError("access_token is required", { field: "access_token", code: "missing_field" });
  return token;
}

export function applicationRoutes(untyped: FastifyInstance, service: AppTokenService, numericIds: boolean): void {
  const app = untyped.withTypeProvider<TypeBoxTypeProvider>();
  const { checkToken, resetToken, deleteToken, deleteGrant } = endpoints.applications;
  // The app's credentials are checked before its body is validated, as every other route's are by the auth plugin:
  // a caller that is no app learns nothing of what a body should hold.
  const callers = new WeakMap<FastifyRequest, OAuthAppRow>();
  const preValidation = async (request: FastifyRequest) => {
    const { client_id: clientId } = request.params as { client_id: string };
    callers.set(request, await service.app(clientId, readCredentials(request)));
  };
  const caller = async (request: FastifyRequest) => callers.get(request)!;
  const wire = (request: FastifyRequest, row: AuthorizationRow, granted: OAuthAppRow, token = "") =>
    toWireAuthorization(row, { baseUrl: request.baseUrl, numericIds }, token, {
      name: granted.name,
      url: granted.url,
      clientId: granted.clientId,
    });

  app.route({
    ...tableRoute(checkToken, { numericIds }),
    preValidation,
    handler: async (request) => {
      const granted = await caller(request);
      // The token checked is the answer's `token`: the app has it already.
      return wire(request, await service.check(granted, request.body.access_token), granted, request.body.access_token);
    },
  });

  app.route({
    ...tableRoute(resetToken, { numericIds }),
    preValidation,
    handler: async (request) => {
      const granted = await caller(request);
      const { row, token } = await service.reset(granted, request.body.access_token);
      return wire(request, row, granted, token);
    },
  });

  app.route({
    ...tableRoute(deleteToken, { numericIds }),
    preValidation,
    handler: async (request, reply) => {
      await service.delete(await caller(request), accessTokenOf(request.body));
      return reply.code(204).send();
    },
  });

  app.route({
    ...tableRoute(deleteGrant, { numericIds }),
    preValidation,
    handler: async (request, reply) => {
      await service.deleteGrant(await caller(request), accessTokenOf(request.body), request.baseUrl);
      return reply.code(204).send();
    },
  });
}
