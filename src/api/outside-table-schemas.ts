/**
 * The bodies of the routes outside the endpoint table (the probes, the admin ingest), named in the OpenAPI document
 * beside the response kinds' shapes: wire facts like the rest of this folder, read by the routes that answer with them
 * and by the document.
 */
import { Type } from "@sinclair/typebox";

const count = Type.Integer({ minimum: 0 });

export const Health = Type.Object({ status: Type.Literal("ok") });

export const Readiness = Type.Object({
  status: Type.Union([Type.Literal("ok"), Type.Literal("unavailable")]),
  checks: Type.Record(Type.String(), Type.String(), { description: '"ok", or what went wrong, by dependency' }),
});

/** What `POST /admin/events` and `POST /admin/world` added and skipped. */
export const IngestSummary = Type.Object({
  events_added: count,
  events_skipped: count,
  issue_events_added: count,
  issue_events_skipped: count,
});

/** The document's names for them, in the order the document lists them. */
export const OUTSIDE_TABLE_SCHEMAS = { Health, Readiness, IngestSummary };
