/**
 * HTTP ingest for site administrators: `POST /admin/events` (NDJSON or a JSON array) and `POST /admin/world`
 * (a world document). Anyone else gets 404, so the routes do not reveal themselves. Bodies may be larger than
 * the API's limit, up to their own, and gzipped (`Content-Encoding: gzip`).
 *
 * A body is all or nothing: one bad line refuses the whole body and writes nothing, where `feedgate import`
 * reports and skips bad lines (unless --strict). A client that gets an error knows nothing was written and can
 * resend the body once fixed, instead of working out which part went in.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { ApiError, notFound, validationFailed } from "../errors.js";
import type { Principal } from "../services/authenticator.js";
import { eventsFromText, isNdjsonOfObjects } from "../services/ingest-body.js";
import type { IngestService } from "../services/ingest.js";
import { FeedgateFailure, UnparsableEntryError } from "../failures.js";
import { checkedUtf8, decodeBody, parseJsonBody } from "../plugins/body-parser.js";
import { decodeContentEncoding } from "../plugins/content-encoding.js";
import type { IngestResult } from "../store/store.js";
import { documented } from "../openapi/route-doc.js";
import { INGEST_EVENTS, SEED_WORLD } from "./admin-openapi.js";

/** A site admin with a password, or a site admin's token that carries the `site_admin` scope. */
function isSiteAdmin(principal: Principal | null): boolean {
  if (!principal?.user.siteAdmin) return false;
  return principal.kind === "password" || principal.authorization.scopes.includes("site_admin");
}

const wireSummary = (r: IngestResult) => ({
  events_added: r.eventsAdded,
  events_skipped: r.eventsSkipped,
  issue_events_added: r.issueEventsAdded,
  issue_events_skipped: r.issueEventsSkipped,
  // Said only when it happened: hooks whose queue was full (--webhook-max-queue) got no delivery of some events.
  ...(r.hooksFull ? { webhook_queues_full: r.hooksFull } : {}),
});

/** Ingest problems name the entry: `events[3].repo.name: must be "owner/name"`, or `line 7` that is not JSON. */
async function ingesting(work: () => Promise<IngestResult>) {
  try {
    return wireSummary(await work());
  } catch (error) {
    if (error instanceof UnparsableEntryError) {
      throw new ApiError(400, "Problems parsing JSON", {
        errors: [
          {
            resource: "Ingest",
            field: error.field ?? "body",
            code: error.code,
            message: `not JSON; ${NOTHING_WRITTEN}`,
          },
        ],
      });
    }
    if (!(error instanceof FeedgateFailure)) throw error;
    throw validationFailed([
      {
        resource: "Ingest",
        field: error.field ?? "body",
        code: error.code,
        message: `${error.problem}; ${NOTHING_WRITTEN}`,
      },
    ]);
  }
}

/** Said with every refusal of a body, since `feedgate import` of the same lines would have skipped the bad ones. */
const NOTHING_WRITTEN = "nothing was written: a body is ingested whole or not at all";

/**
 * The body as text. An empty one is refused: an ingest of nothing is almost always a client that lost its body on
 * the way (an unset variable, a failed pipe), and answering 200 `events_added: 0` would hide that.
 */
function text(request: FastifyRequest, expected: string): string {
  const body = decodeBody(bytes(request));
  if (body.trim() === "") throw new ApiError(400, `Body is empty: send ${expected}`);
  return body;
}

/** The body as received (its encoding undone, checked to be UTF-8); none is an empty one. */
const bytes = (request: FastifyRequest): Buffer => (Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0));

export function adminRoutes(
  app: FastifyInstance,
  ingest: IngestService,
  bodyLimit: number,
  sealSecret: (secret: string) => string,
): void {
  // biome-ignore lint/nursery/noMisusedPromises: Fastify awaits an async plugin (its types allow both forms)
  app.register(async (admin) => {
    admin.removeAllContentTypeParsers();
    // Kept as bytes: an NDJSON body of events is handed on as received (IngestService.ingestNdjson).
    admin.addContentTypeParser("*", { parseAs: "buffer", bodyLimit }, async (_request: unknown, body: Buffer) =>
      checkedUtf8(body),
    );
    // Before the body is read: a stranger's large upload is refused without being received.
    admin.addHook("onRequest", async (request) => {
      if (!isSiteAdmin(request.principal)) throw notFound();
    });
    admin.addHook("preParsing", decodeContentEncoding(bodyLimit));

    admin.post("/admin/events", { schema: documented(INGEST_EVENTS) }, async (request) => {
      const body = bytes(request);
      if (isNdjsonOfObjects(body)) return ingesting(() => ingest.ingestNdjson(body));
      return ingesting(async () => {
        const { events, lines } = await eventsFromText(
          text(request, "the events as NDJSON (one a line) or a JSON array, plain or gzipped"),
        );
        if (!Array.isArray(events)) throw new ApiError(400, "Body should be NDJSON or a JSON array of events");
        return ingest.ingestEvents(events, lines ?? undefined);
      });
    });

    admin.post("/admin/world", { schema: documented(SEED_WORLD) }, async (request) => {
      const doc = parseJsonBody(text(request, "a world document (a JSON object), plain or gzipped"));
      return ingesting(() => ingest.seedWorld(doc, { baseDir: undefined, sealSecret }));
    });
  });
}
