/**
 * The Activity pages: the signed-in user's received feed at /console/activity, and the feeds of a user, a repository
 * and an organization. Each page has two companions under its path, for console.js:
 * - `<path>/items?page=N&type=T`: a page of items as JSON ("Load more" without a reload);
 * - `<path>/stream`: the feed's new events, live, through the API's StreamHub with the session's user as principal.
 * Both send items as JSON (sentence segments) that the script renders with textContent: the browser never parses
 * markup it was sent, so not even a server-side escaping slip could become script; the page itself is rendered by
 * the escaping `html` tag. Companions refuse a request without a session with 401 rather than the pages' redirect to
 * the sign-in form, which an EventSource or fetch would follow to an HTML page.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { ApiError } from "../errors.js";
import type { StreamFormat } from "../streams/registry.js";
import { readItems, sessionPrincipal, type FeedView } from "./activity-feed.js";
import { activityItem } from "./activity-item.js";
import { activityPage } from "./activity-page.js";
import { pageContext, pageOf, sendPage, signedIn, type ConsoleServices } from "./context.js";
import { EVENT_TYPES } from "./event-sentence.js";
import { issuesPath } from "./issue-routes.js";

const SIGNED_IN = { config: { consoleAccess: "signed-in" as const } };

type Query = { page?: string; type?: string };

/**
 * A console stream lives this long, then its EventSource reconnects (after the last event it had) through the guard:
 * a session that expired by time meanwhile ends its stream within this. Sign-out ends it at once (the hub rechecks).
 */
const STREAM_LEASE_MS = 5 * 60_000;
type Params = Record<string, string>;

interface ViewSpec {
  /** The route, under /console. */
  route: string;
  view(params: Params, login: string): FeedView;
  heading(params: Params): string;
  description: string;
  /** Pages the signed-in user may also open from here (a repository's Webhooks, for those who may manage them). */
  related?(
    params: Params,
    request: FastifyRequest,
    services: ConsoleServices,
  ): Promise<{ href: string; text: string }[]>;
}

const VIEWS: ViewSpec[] = [
  {
    route: "/activity",
    heading: () => "Activity",
    description: "What you, the people you follow and the repositories you watch did.",
    view: (_p, login) => ({ feed: "getReceived", params: { user: login }, path: "/console/activity" }),
  },
  {
    route: "/users/:user",
    heading: (p) => p.user!,
    description: "Everything this account did that you may see.",
    view: (p) => ({
      feed: "getFromUser",
      params: { user: p.user! },
      path: `/console/users/${encodeURIComponent(p.user!)}`,
    }),
  },
  {
    route: "/repos/:owner/:repo",
    heading: (p) => `${p.owner!}/${p.repo!}`,
    description: "Events in this repository.",
    view: (p) => ({
      feed: "getFromRepo",
      params: { user: p.owner!, repo: p.repo! },
      path: `/console/repos/${encodeURIComponent(p.owner!)}/${encodeURIComponent(p.repo!)}`,
    }),
    // The hooks API's own rule decides who sees the link, so the link and the Webhooks page never disagree.
    related: async (p, request, services) => {
      const manages = await services.hooks
        .scope(
          { user: p.owner!, repo: p.repo! },
          { principal: sessionPrincipal(signedIn(request).user), acceptedScopes: [], permissions: [] },
        )
        .then(
          () => true,
          () => false,
        );
      const issues = { href: issuesPath(p.owner!, p.repo!), text: "Issues" };
      return manages
        ? [
            issues,
            {
              href: `/console/repos/${encodeURIComponent(p.owner!)}/${encodeURIComponent(p.repo!)}/hooks`,
              text: "Webhooks",
            },
          ]
        : [issues];
    },
  },
  {
    route: "/orgs/:org",
    heading: (p) => p.org!,
    description: "Public events in this organization's repositories.",
    view: (p) => ({ feed: "getFromOrg", params: { org: p.org! }, path: `/console/orgs/${encodeURIComponent(p.org!)}` }),
  },
];

/** `?type=T`: one of the types the filter offers, else none. */
const typeOf = (query: Query) => (query.type && EVENT_TYPES.includes(query.type) ? query.type : null);

type Request = FastifyRequest<{ Params: Params; Querystring: Query }>;

/** The companions' check: a signed-in session, or 401. */
function sessionUser(request: FastifyRequest) {
  const session = request.consoleSession;
  if (!session?.session.verified) throw new ApiError(401, "Sign in to continue.");
  return session.user;
}

export function activityRoutes(app: FastifyInstance, services: ConsoleServices) {
  const { feeds, streams, now } = services;
  /** Live events as the console's items: rendered once per delivery, whatever the number of streams. */
  const format: StreamFormat = {
    name: "console",
    kind: () => "activity",
    data: (row) => JSON.stringify(activityItem(row, now())),
  };

  for (const spec of VIEWS) {
    app.get(spec.route, SIGNED_IN, async (request: Request, reply: FastifyReply) => {
      const { user } = signedIn(request);
      const view = spec.view(request.params, user.login);
      const type = typeOf(request.query);
      const items = await readItems(feeds, view, user, pageOf(request.query), type, now());
      const related = (await spec.related?.(request.params, request, services)) ?? [];
      return sendPage(
        reply,
        200,
        activityPage(
          pageContext(request, services.assets, services),
          { heading: spec.heading(request.params), description: spec.description, path: view.path, type, related },
          items,
        ),
      );
    });

    app.get(`${spec.route}/items`, async (request: Request, reply: FastifyReply) => {
      const user = sessionUser(request);
      const items = await readItems(
        feeds,
        spec.view(request.params, user.login),
        user,
        pageOf(request.query),
        typeOf(request.query),
        now(),
      );
      return reply.type("application/json; charset=utf-8").send(JSON.stringify(items));
    });

    app.get(`${spec.route}/stream`, async (request: Request, reply: FastifyReply) => {
      const user = sessionUser(request);
      if (!streams.enabled) throw new ApiError(404, "Live streams are turned off on this server.");
      const view = spec.view(request.params, user.login);
      const sessionId = request.consoleSession!.id;
      const lease = {
        stillValid: async () => (await services.sessions.resolve(sessionId)) !== null,
        endsAt: now().getTime() + STREAM_LEASE_MS,
      };
      return streams.serve(
        request,
        reply,
        { feed: view.feed, params: view.params, integerIds: false, format, lease },
        sessionPrincipal(user),
      );
    });
  }
}
