/**
 * The console's OAuth pages: the web flow's consent (`/login/oauth/authorize` sends people here) and the device flow's
 * code entry (`/login/device`). The flows' services decide; these routes only turn their answers into pages and
 * redirects. Both ask a signed-out visitor to sign in first and come back with the request.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { CONTENT_SECURITY_POLICY_FOR } from "./security-policy.js";
import type { AuthorizeQuery } from "../services/oauth/web-flow.js";
import { pageContext, sendPage, signedIn, type ConsoleServices, type FormRequest } from "./context.js";
import { authorizedAppsPage, authorizePage, deviceCodePage, deviceConsentPage, deviceDonePage } from "./oauth-pages.js";
import { errorPage } from "./sign-in-page.js";

const SIGNED_IN = { consoleAccess: "signed-in", returnAfterSignIn: true } as const;

/** The authorize request's fields, as the query or the consent form carries them. */
const AUTHORIZE_FIELDS = [
  "client_id",
  "redirect_uri",
  "scope",
  "state",
  "login",
  "allow_signup",
  "code_challenge",
  "code_challenge_method",
] as const;

function authorizeFields(get: (name: string) => string | null | undefined): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const name of AUTHORIZE_FIELDS) {
    const value = get(name);
    if (typeof value === "string") fields[name] = value;
  }
  return fields;
}

export function oauthRoutes(app: FastifyInstance, services: ConsoleServices) {
  const { web, device } = services.oauth;
  const render = (request: FastifyRequest) => pageContext(request, services.assets, services);
  const notFound = (request: FastifyRequest, reply: FastifyReply) =>
    sendPage(reply, 404, errorPage(render(request), 404, "Not Found"));

  app.get("/login/oauth/authorize", { config: SIGNED_IN }, async (request, reply) => {
    const query = request.query as Record<string, string | undefined>;
    const fields = authorizeFields((name) => query[name]);
    const outcome = await web.check(fields as AuthorizeQuery);
    if ("notFound" in outcome) return notFound(request, reply);
    if ("redirect" in outcome) return reply.redirect(outcome.redirect, 302);
    // The consent form's answer redirects to the app: the page's form-action must allow its origin.
    reply.header("Content-Security-Policy", CONTENT_SECURITY_POLICY_FOR(new URL(outcome.consent.redirectTo).origin));
    return sendPage(reply, 200, authorizePage(render(request), outcome.consent.app, outcome.consent.scopes, fields));
  });

  app.post("/login/oauth/authorize", { config: SIGNED_IN }, async (request: FormRequest, reply) => {
    const outcome = await web.check(authorizeFields((name) => request.body.get(name)) as AuthorizeQuery);
    if ("notFound" in outcome) return notFound(request, reply);
    if ("redirect" in outcome) return reply.redirect(outcome.redirect, 303);
    const approved = request.body.get("decision") === "authorize";
    return reply.redirect(await web.decide(outcome.consent, signedIn(request).user.id, approved), 303);
  });

  app.get("/login/device", { config: SIGNED_IN }, async (request, reply) =>
    sendPage(reply, 200, deviceCodePage(render(request), null)),
  );

  app.post("/login/device", { config: SIGNED_IN }, async (request: FormRequest, reply) => {
    const typed = request.body.get("user_code") ?? "";
    const pending = await device.pending(typed);
    if (!pending)
      return sendPage(reply, 422, deviceCodePage(render(request), "Invalid or expired code. Check it and try again."));
    return sendPage(
      reply,
      200,
      deviceConsentPage(render(request), pending.app, pending.code.scopes, pending.code.userCode),
    );
  });

  app.post("/login/device/authorize", { config: SIGNED_IN }, async (request: FormRequest, reply) => {
    const approved = request.body.get("decision") === "authorize";
    const decided = await device.decide(request.body.get("user_code") ?? "", signedIn(request).user.id, approved);
    if (!decided)
      return sendPage(reply, 422, deviceCodePage(render(request), "Invalid or expired code. Check it and try again."));
    return sendPage(reply, 200, deviceDonePage(render(request), approved));
  });

  app.get("/applications", { config: { consoleAccess: "signed-in" } }, async (request, reply) =>
    sendPage(
      reply,
      200,
      authorizedAppsPage(render(request), await services.oauth.apps.authorizedBy(signedIn(request).user)),
    ),
  );

  app.post("/applications/revoke", { config: { consoleAccess: "signed-in" } }, async (request: FormRequest, reply) => {
    await services.oauth.apps.revokeGrant(request.body.get("client_id") ?? "", signedIn(request).user, request.baseUrl);
    return reply.redirect("/console/applications", 303);
  });
}
