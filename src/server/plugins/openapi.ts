/**
 * The API description: `GET /openapi.json` (OpenAPI 3.1, generated on its first request from the routes the server
 * registers and the endpoint table: ../openapi-description.ts; tests/server/openapi.test.ts builds it over every
 * route, so a route it cannot describe fails there, not at a user's start) and `GET /docs`, a browsable reference served
 * from @fastify/swagger-ui's own files, no CDN. Registered before the routes, so that @fastify/swagger's
 * onRoute hook sees every one. Neither counts against rate limits, as the probes do not.
 */
import fp from "fastify-plugin";
import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import { openapiOptions, servedDocument } from "../openapi-description.js";
import { documented, jsonResponse } from "../openapi/route-doc.js";

const DOCUMENT_DOC = documented({
  operationId: "meta.openapi",
  tag: "meta",
  summary: "This API description",
  security: "optional",
  description: "OpenAPI 3.1, generated from the routes and schemas the server registers. `/docs` browses it.",
  success: { 200: jsonResponse({ type: "object" }, "The OpenAPI document") },
});

/** Everything from this origin, nothing from elsewhere; swagger-ui's default adds `upgrade-insecure-requests`, which breaks plain-HTTP hosts. */
const DOCS_CSP = {
  "default-src": "'self'",
  "base-uri": "'self'",
  "object-src": "'none'",
  "frame-ancestors": "'self'",
  "img-src": ["'self'", "data:"],
  "style-src": ["'self'", "'unsafe-inline'"],
};

/**
 * @param numericIds `--numeric-ids`: the ids this server sends, integers or strings, as the document describes them.
 * @param testControls `--test-controls`: whether the document has their tag.
 */
export default fp<{ numericIds: boolean; testControls: boolean }>(
  async (app, { numericIds, testControls }) => {
    await app.register(swagger, openapiOptions(numericIds, testControls));

    app.get("/openapi.json", { config: { rateLimit: false }, schema: DOCUMENT_DOC }, async (request) =>
      servedDocument(app.swagger() as unknown as Record<string, unknown>, request.baseUrl),
    );

    await app.register(async (docs) => {
      docs.addHook("onRoute", (route) => {
        route.config = { ...route.config, rateLimit: false };
      });
      await docs.register(swaggerUi, {
        routePrefix: "/docs",
        staticCSP: DOCS_CSP,
        theme: { title: "feedgate API" },
        transformSpecificationClone: false,
        transformSpecification: (document, request) => servedDocument(document, request.baseUrl),
      });
    });
  },
  { name: "openapi", dependencies: ["request-context"] },
);
