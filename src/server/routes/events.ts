/**
 * The event feeds (spec 4.2): ten feeds and repository issue events, one route per endpoint-table row, plus
 * GitHub's id-based forms of the same feeds. Pages are sent as the stored JSON text, never parsed and
 * re-serialized when the envelope is complete.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import { endpoints } from "../../api/endpoints.js";
import type { PageQuery } from "../../api/schemas.js";
import { toWireEventsBytes } from "../convert/event.js";
import type { FeedName, FeedParams, FeedService, WireIdKind } from "../services/feeds.js";
import { readPage, writeLinkHeader } from "../plugins/pagination.js";
import { strongEtag } from "../plugins/conditional.js";
import type { StoredEvent } from "../store/store.js";
import type { StreamHub } from "../streams/hub.js";
import { wantsStream } from "../streams/resume.js";
import { tableRoute } from "./table-route.js";

/** GitHub asks pollers to wait this long between requests (wire notes 2.6). */
const POLL_INTERVAL_SECONDS = "60";

/**
 * GitHub's canonical paths by numeric id (wire notes 2.5): its own `Link` headers point at them, so clients
 * that stored such a URL, or replay GitHub's, reach the same feed here.
 */
const ID_PATHS: { path: string; feed: FeedName; by: WireIdKind }[] = [
  { path: "/repositories/:id/events", feed: "getFromRepo", by: "repo" },
  { path: "/repositories/:id/issues/events", feed: "getFromRepoIssues", by: "repo" },
  { path: "/organizations/:id/events", feed: "getFromOrg", by: "org" },
  { path: "/user/:id/events", feed: "getFromUser", by: "user" },
  { path: "/user/:id/events/public", feed: "getFromUserPublic", by: "user" },
  { path: "/user/:id/received_events", feed: "getReceived", by: "user" },
  { path: "/user/:id/received_events/public", feed: "getReceivedPublic", by: "user" },
];

/**
 * A page's JSON text and ETag, computed once per cached page and base URL: polls of an unchanged feed then cost
 * neither the rendering nor the hashing. Keyed weakly by the rows, so entries leave with the page cache's.
 */
const rendered = new WeakMap<StoredEvent[], Map<string, { json: Buffer; etag: string }>>();

/**
 * Kept as bytes: encoding a page of some 100 KB to UTF-8 on every send would be a large share of a feed request's CPU.
 * `integerIds` needs no place in the key: it follows from the app's mode and the feed, and rows belong to one of each.
 */
function render(rows: StoredEvent[], baseUrl: string, integerIds: boolean): { json: Buffer; etag: string } {
  let byBase = rendered.get(rows);
  if (!byBase) rendered.set(rows, (byBase = new Map()));
  let page = byBase.get(baseUrl);
  if (!page) {
    const json = toWireEventsBytes(rows, baseUrl, integerIds);
    byBase.set(baseUrl, (page = { json, etag: strongEtag(json) }));
  }
  return page;
}

/** The table's feed names, typed as such (Object.keys types its answer as plain strings). */
const FEED_NAMES = Object.keys(endpoints.events) as FeedName[];

/** @param numericIds `--numeric-ids`: issue-event ids as integers, as GitHub sent them; event ids stay strings. */
export function eventRoutes(
  untyped: FastifyInstance,
  feeds: FeedService,
  numericIds: boolean,
  streams: StreamHub,
): void {
  const app = untyped.withTypeProvider<TypeBoxTypeProvider>();
  const integerIds = (name: FeedName) => numericIds && endpoints.events[name].response === "IssueEvent[]";

  async function serve(
    request: FastifyRequest,
    reply: FastifyReply,
    name: FeedName,
    params: FeedParams,
    query: PageQuery,
  ) {
    // `Accept: text/event-stream`: the feed's new events, live (server/streams/); with streams off, the page as ever.
    if (streams.enabled && wantsStream(request))
      return streams.serve(request, reply, { feed: name, params, integerIds: integerIds(name) });
    const window = readPage(query);
    const page = await feeds.page(name, params, request.principal, window);
    request.lastModified = page.newest;
    request.repeatable = page.dependence;
    writeLinkHeader(request, reply, window, page.total);
    reply.header("X-Poll-Interval", POLL_INTERVAL_SECONDS);
    const { json, etag } = render(page.rows, request.baseUrl, integerIds(name));
    return reply.type("application/json; charset=utf-8").header("ETag", etag).send(json);
  }

  // Pages leave as bytes (render above), which Fastify sends as they are: the response schema serializes nothing here.
  for (const name of FEED_NAMES) {
    app.route({
      ...tableRoute(endpoints.events[name], { numericIds }),
      handler: (request, reply) => serve(request, reply, name, request.params, request.query),
    });
  }

  for (const { path, feed, by } of ID_PATHS) {
    app.route({
      ...tableRoute(endpoints.events[feed], { numericIds, byId: path }),
      handler: async (request, reply) =>
        serve(request, reply, feed, await feeds.paramsByWireId(by, request.params.id), request.query),
    });
  }
}
