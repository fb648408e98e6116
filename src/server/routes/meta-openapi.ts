/** The probes' OpenAPI description (./meta.ts registers them): their bodies and what each answer means. */
import { Health, Readiness } from "../../api/outside-table-schemas.js";
import { ErrorBody } from "../../api/schemas.js";
import { jsonResponse, type RouteDoc } from "../openapi/route-doc.js";

export const HEALTHZ: RouteDoc = {
  operationId: "meta.healthz",
  tag: "meta",
  summary: "Liveness probe",
  security: "optional",
  description: "200 while the process is up, whatever the database does.",
  success: { 200: jsonResponse(Health, "The process is up") },
};

export const READYZ: RouteDoc = {
  operationId: "meta.readyz",
  tag: "meta",
  summary: "Readiness probe",
  security: "optional",
  description: "200 when the database and the rate-limit store answer, 503 otherwise.",
  success: {
    200: jsonResponse(Readiness, "Ready"),
    503: jsonResponse({ anyOf: [Readiness, ErrorBody] }, "Not ready: the failing dependencies"),
  },
};
