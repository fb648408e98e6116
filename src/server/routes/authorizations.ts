/**
 * The authorizations family (spec 4.1): list, get, create, update, delete. Handlers are
 * parse -> service -> convert -> reply; the auth plugin has already required password Basic auth.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import { endpoints } from "../../api/endpoints.js";
import { tableRoute } from "./table-route.js";
import { toWireAuthorization, type WireOptions } from "../convert/authorization.js";
import type { AuthorizationService } from "../services/authorizations.js";
import { readPage, writeLinkHeader } from "../plugins/pagination.js";
import type { AuthorizationRow, OAuthAppRow, UserRow } from "../store/store.js";

const grantingApp = (apps: Map<number, OAuthAppRow>, row: AuthorizationRow) => {
  const app = row.oauthAppId === null ? undefined : apps.get(row.oauthAppId);
  return app && { name: app.name, url: app.url, clientId: app.clientId };
};

/** The password-authenticated user; the auth plugin guarantees one on these routes. */
function caller(request: FastifyRequest): UserRow {
  return request.principal!.user;
}

/** @param numericIds `--numeric-ids`: ids serialized (and sent) as integers rather than strings. */
export function authorizationRoutes(
  untyped: FastifyInstance,
  service: AuthorizationService,
  numericIds: boolean,
): void {
  const app = untyped.withTypeProvider<TypeBoxTypeProvider>();
  const { getAll, get, create, update } = endpoints.authorization;
  // `numericIds` in every route: responses are serialized through their kind's schema, whose id must be the type this
  // mode sends, or fast-json-stringify would turn it into the other.
  const wire = (request: FastifyRequest): WireOptions => ({ baseUrl: request.baseUrl, numericIds });
  /** The rows as the wire shows them, each with the OAuth app it was granted to, if any. */
  const shown = async (request: FastifyRequest, rows: AuthorizationRow[]) => {
    const apps = await service.appsOf(rows);
    return rows.map((row) => toWireAuthorization(row, wire(request), "", grantingApp(apps, row)));
  };

  app.route({
    ...tableRoute(getAll, { numericIds }),
    handler: async (request, reply) => {
      const window = readPage(request.query);
      const { rows, total } = await service.list(caller(request), window);
      writeLinkHeader(request, reply, window, total);
      return shown(request, rows);
    },
  });

  app.route({
    ...tableRoute(get, { numericIds }),
    handler: async (request) => {
      const row = await service.get(caller(request), request.params.id);
      request.lastModified = row.updatedAt;
      return (await shown(request, [row]))[0];
    },
  });

  app.route({
    ...tableRoute(create, { numericIds }),
    handler: async (request, reply) => {
      const { row, token } = await service.create(caller(request), request.body);
      const body = toWireAuthorization(row, wire(request), token);
      return reply.code(201).header("Location", body.url).send(body);
    },
  });

  // The row's PATCH (`method` undefined), and POST: GitHub accepts it wherever PATCH is documented (wire notes 1.1).
  for (const method of [undefined, "POST"] as const) {
    app.route({
      ...tableRoute(update, { numericIds, method }),
      handler: async (request) =>
        (await shown(request, [await service.update(caller(request), request.params.id, request.body)]))[0],
    });
  }

  app.route({
    ...tableRoute(endpoints.authorization.delete, { numericIds }),
    handler: async (request, reply) => {
      await service.delete(caller(request), request.params.id);
      return reply.code(204).send();
    },
  });
}
