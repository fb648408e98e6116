/**
 * The Webhooks page's routes. Every rule is the HookService's, as for the hooks API: the signed-in user asks as a
 * password principal would, so the page shows and changes exactly what `GET/POST /repos/:owner/:repo/hooks` would
 * let that user see and change, and anyone else gets the console's not-found page (404, never 403).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { FeedgateFailure } from "../failures.js";
import type { HookAccess, HookOwnerParams } from "../services/hooks.js";
import { pageContext, sendPage, signedIn, type ConsoleServices } from "./context.js";
import { EMPTY_HOOK_FORM, readHookForm, type HookFormValues } from "./hook-form.js";
import { EMPTY_BULK, hooksPage, hooksPath, type BulkRedelivery, type ShownHook } from "./hooks-page.js";

const SIGNED_IN = { config: { consoleAccess: "signed-in" as const } };
/** Deliveries shown per hook: the recent ones, as GitHub's "Recent Deliveries" tab. */
const RECENT_DELIVERIES = 10;
const HOOKS_SHOWN = 100;

type RepoParams = { owner: string; repo: string };
type RedeliverParams = RepoParams & { hook_id: string; delivery_id: string };

/** A password principal: the session proved the password (and the code), so no token scope narrows it. */
const accessOf = (request: FastifyRequest): HookAccess => ({
  principal: { kind: "password", user: signedIn(request).user },
  acceptedScopes: [],
  permissions: [],
});

const ownerOf = (params: RepoParams): HookOwnerParams => ({ user: params.owner, repo: params.repo });

export function hookRoutes(app: FastifyInstance, services: ConsoleServices) {
  const { hooks } = services;

  async function showPage(
    request: FastifyRequest<{ Params: RepoParams }>,
    reply: FastifyReply,
    status: number,
    values: HookFormValues,
    problem: string | null,
    bulk: BulkRedelivery = EMPTY_BULK,
  ) {
    const access = accessOf(request);
    const { scope, page } = await hooks.list(ownerOf(request.params), access, { limit: HOOKS_SHOWN, offset: 0 });
    // The hooks came from list(), which checked the caller's access once for all of them.
    const shown: ShownHook[] = await Promise.all(
      page.rows.map(async (hook) => ({ hook, deliveries: await hooks.recentDeliveries(hook, RECENT_DELIVERIES) })),
    );
    const fullName = scope.path.slice("repos/".length);
    return sendPage(
      reply,
      status,
      hooksPage(pageContext(request, services.assets, services), fullName, shown, values, problem, bulk),
    );
  }

  app.get(
    "/repos/:owner/:repo/hooks",
    SIGNED_IN,
    async (request: FastifyRequest<{ Params: RepoParams; Querystring: { redelivered?: string } }>, reply) => {
      // Set by the redirect after a bulk redelivery: a count, shown as such and nothing else.
      const queued = /^[0-9]{1,9}$/.test(request.query.redelivered ?? "") ? Number(request.query.redelivered) : null;
      const done =
        queued === null ? null : `Queued ${queued} failed ${queued === 1 ? "delivery" : "deliveries"} again.`;
      return showPage(request, reply, 200, EMPTY_HOOK_FORM, null, { ...EMPTY_BULK, done });
    },
  );

  app.post(
    "/repos/:owner/:repo/hooks/redeliver-failed",
    SIGNED_IN,
    async (request: FastifyRequest<{ Params: RepoParams; Body: URLSearchParams }>, reply) => {
      const since = (request.body.get("since") ?? "").trim();
      try {
        const { queued } = await hooks.redeliverFailed(ownerOf(request.params), since, accessOf(request));
        const { owner, repo } = request.params;
        return reply.redirect(`${hooksPath(`${owner}/${repo}`)}?redelivered=${queued}#bulk-heading`, 303);
      } catch (error) {
        if (!(error instanceof FeedgateFailure)) throw error;
        return showPage(request, reply, 422, EMPTY_HOOK_FORM, null, { since, problem: error.problem, done: null });
      }
    },
  );

  app.post(
    "/repos/:owner/:repo/hooks",
    SIGNED_IN,
    async (request: FastifyRequest<{ Params: RepoParams; Body: URLSearchParams }>, reply) => {
      const { secret, ...values } = readHookForm(request.body);
      const access = accessOf(request);
      // A stranger's post is the not-found page, before anything in the form is looked at.
      const scope = await hooks.scope(ownerOf(request.params), access);
      try {
        if (values.events.length === 0)
          throw new FeedgateFailure('Choose at least one event, or "Send me everything".');
        const { hook } = await hooks.create(
          ownerOf(request.params),
          {
            name: "web",
            active: values.active,
            events: [...values.events],
            config: { url: values.url, content_type: values.contentType, secret },
          },
          access,
        );
        // Post/redirect/get: reloading the page does not add the hook again.
        return reply.redirect(`${hooksPath(scope.path.slice("repos/".length))}#hook-${hook.id}`, 303);
      } catch (error) {
        if (!(error instanceof FeedgateFailure)) throw error;
        return showPage(request, reply, 422, values, error.problem);
      }
    },
  );

  app.post(
    "/repos/:owner/:repo/hooks/:hook_id/deliveries/:delivery_id/redeliver",
    SIGNED_IN,
    async (request: FastifyRequest<{ Params: RedeliverParams; Body: URLSearchParams }>, reply) => {
      const { owner, repo, hook_id, delivery_id } = request.params;
      await hooks.redeliver({ user: owner, repo, hook_id, delivery_id }, accessOf(request));
      // Queued, not yet made: the dispatcher sends it in a moment, and the page lists it once it has.
      return reply.redirect(`${hooksPath(`${owner}/${repo}`)}#hook-${hook_id}`, 303);
    },
  );
}
