/**
 * The credentials family: `POST /credentials/revoke`. The auth plugin has refused authenticated callers and the
 * rate-limit plugin counted the request in the row's own window; the body's list was checked against the row.
 */
import type { FastifyInstance } from "fastify";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import { endpoints } from "../../api/endpoints.js";
import { tableRoute } from "./table-route.js";
import type { CredentialRevocationService } from "../services/credential-revocation.js";

export function credentialRoutes(untyped: FastifyInstance, service: CredentialRevocationService): void {
  const app = untyped.withTypeProvider<TypeBoxTypeProvider>();

  app.route({
    ...tableRoute(endpoints.credentials.revoke),
    handler: async (request, reply) => {
      const revoked = await service.revoke(request.body.credentials);
      request.log.info({ revoked }, "credentials revoked");
      // 202 and an empty object whatever was revoked: GitHub's answer, which says nothing of which tokens existed.
      return reply.code(202).send({});
    },
  });
}
