/** The Fine-grained tokens pages' routes: everything goes through the FineGrainedTokenService, as the API's routes do. */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { isPermissionName, type PermissionGroup, PERMISSIONS } from "../../api/permissions.js";
import { clearCookie, NEW_TOKEN_COOKIE, readCookie, writeCookie } from "./cookies.js";
import { pageContext, sendPage, signedIn, type ConsoleServices, type FormRequest } from "./context.js";
import { DEFAULT_EXPIRATION, expiresAtOf } from "./expiration.js";
import {
  fineGrainedFormPage,
  fineGrainedRevokePage,
  fineGrainedTokensPage,
  type FineGrainedFormValues,
} from "./fine-grained-page.js";
import { formProblem } from "./token-routes.js";

const SIGNED_IN = { config: { consoleAccess: "signed-in" as const } };
/** The sealed new token waits this long for the page that shows it. */
const NEW_TOKEN_SECONDS = 120;
/** A user's fine-grained tokens on one page: GitHub lists them all, and a user has few. */
const LISTED = { limit: 100, offset: 0 };

function formValues(body: URLSearchParams): FineGrainedFormValues {
  const permissions: FineGrainedFormValues["permissions"] = {};
  for (const [key, level] of body) {
    const name = key.startsWith("permission:") ? key.slice("permission:".length) : "";
    if (isPermissionName(name) && level) permissions[name] = level;
  }
  return {
    name: body.get("name") ?? "",
    description: body.get("description") ?? "",
    resourceOwner: body.get("resource_owner") ?? "",
    expiration: body.get("expiration") ?? DEFAULT_EXPIRATION,
    expirationDate: body.get("expiration_date") ?? "",
    repositorySelection: body.get("repository_selection") ?? "none",
    repositories: body.get("repositories") ?? "",
    permissions,
  };
}

/** The form's choices as the API's body groups them. */
function permissionGroups(chosen: FineGrainedFormValues["permissions"]) {
  const groups: Record<PermissionGroup, Record<string, string>> = { repository: {}, organization: {}, other: {} };
  for (const [name, level] of Object.entries(chosen)) {
    if (isPermissionName(name)) groups[PERMISSIONS[name].group][name] = level;
  }
  return groups;
}

export function fineGrainedTokenRoutes(app: FastifyInstance, services: ConsoleServices) {
  const { fineGrainedTokens, assets, sessions, now } = services;
  const context = (request: FastifyRequest) => pageContext(request, assets, services);

  app.get("/fine-grained-tokens", SIGNED_IN, async (request, reply) => {
    const session = signedIn(request);
    // The new token, sealed to this session, is shown by this one response and then forgotten.
    const sealed = readCookie(request, NEW_TOKEN_COOKIE);
    const newToken = sealed ? sessions.unseal(session.id, sealed) : null;
    if (sealed) clearCookie(request, reply, NEW_TOKEN_COOKIE);
    const { rows } = await fineGrainedTokens.list(session.user, LISTED);
    return sendPage(reply, 200, fineGrainedTokensPage(context(request), rows, newToken, now()));
  });

  app.get("/fine-grained-tokens/new", SIGNED_IN, async (request, reply) =>
    sendPage(
      reply,
      200,
      fineGrainedFormPage(
        context(request),
        {
          name: "",
          description: "",
          resourceOwner: signedIn(request).user.login,
          expiration: DEFAULT_EXPIRATION,
          expirationDate: "",
          repositorySelection: "none",
          repositories: "",
          permissions: {},
        },
        null,
      ),
    ),
  );

  app.post("/fine-grained-tokens", SIGNED_IN, async (request: FormRequest, reply: FastifyReply) => {
    const session = signedIn(request);
    const values = formValues(request.body);
    try {
      const { token } = await fineGrainedTokens.create(session.user, {
        name: values.name,
        description: values.description || null,
        resourceOwner: values.resourceOwner || undefined,
        repositorySelection: values.repositorySelection,
        repositories: values.repositories.split(/[\s,]+/).filter(Boolean),
        permissions: permissionGroups(values.permissions),
        expiresAt: expiresAtOf(request.body.get("expiration"), values.expirationDate, now()),
      });
      // Post/redirect/get: the list shows the token once; reloading it (or going back) does not post again.
      writeCookie(request, reply, NEW_TOKEN_COOKIE, sessions.seal(session.id, token), NEW_TOKEN_SECONDS);
      return reply.redirect("/console/fine-grained-tokens", 303);
    } catch (error) {
      const problem = formProblem(error);
      if (problem === null) throw error;
      return sendPage(reply, 422, fineGrainedFormPage(context(request), values, problem));
    }
  });

  app.get(
    "/fine-grained-tokens/:id/revoke",
    SIGNED_IN,
    async (request: FastifyRequest<{ Params: { id: string } }>, reply) =>
      sendPage(
        reply,
        200,
        fineGrainedRevokePage(context(request), await fineGrainedTokens.get(signedIn(request).user, request.params.id)),
      ),
  );

  app.post(
    "/fine-grained-tokens/:id/revoke",
    SIGNED_IN,
    async (request: FastifyRequest<{ Params: { id: string } }>, reply) => {
      await fineGrainedTokens.delete(signedIn(request).user, request.params.id);
      return reply.redirect("/console/fine-grained-tokens", 303);
    },
  );
}
