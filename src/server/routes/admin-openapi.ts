/** The admin ingest routes' OpenAPI description (./admin.ts registers them): what they take and what they answer. */
import { IngestSummary } from "../../api/outside-table-schemas.js";
import { Event } from "../../api/schemas.js";
import { jsonResponse, type RouteDoc } from "../openapi/route-doc.js";

export const INGEST_EVENTS: RouteDoc = {
  operationId: "admin.ingestEvents",
  tag: "admin",
  summary: "Ingest events",
  security: "siteAdmin",
  description:
    "Site administrators only (Basic auth, or a token with `site_admin`); anyone else gets 404. " +
    "Events already stored (by id) are skipped; an event without `created_at` is stamped with the time it arrives. " +
    "All or nothing: one bad line refuses the whole body (400 or 422) and " +
    "writes nothing (`feedgate import` skips bad lines instead). An empty body is 400. `Content-Encoding: gzip` is " +
    "accepted, the body limit counting inflated bytes (413); other encodings are 415.",
  body: {
    content: {
      "application/x-ndjson": { schema: { type: "string", description: "One event per line, as GH Archive has them" } },
      "application/json": { schema: { type: "array", items: Event } },
    },
  },
  success: { 200: jsonResponse(IngestSummary, "What was added and skipped") },
};

export const SEED_WORLD: RouteDoc = {
  operationId: "admin.seedWorld",
  tag: "admin",
  summary: "Load a world document",
  security: "siteAdmin",
  description:
    "Site administrators only; anyone else gets 404. A world document as `feedgate seed` reads it " +
    "(users, orgs, repos, tokens, events, issue_events; not events_files), in one transaction: an error writes " +
    "nothing. An empty body is 400; `Content-Encoding: gzip` is accepted as for `/admin/events`.",
  body: { content: { "application/json": { schema: { type: "object", description: "A world document" } } } },
  success: { 200: jsonResponse(IngestSummary, "What was added and skipped") },
};
