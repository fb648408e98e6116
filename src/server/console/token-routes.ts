/** The Tokens pages' routes: everything goes through the AuthorizationService, as the API's routes do. */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { ApiError } from "../errors.js";
import { FeedgateFailure } from "../failures.js";
import { clearCookie, NEW_TOKEN_COOKIE, readCookie, writeCookie } from "./cookies.js";
import { pageContext, pageOf, sendPage, signedIn, type ConsoleServices, type FormRequest } from "./context.js";
import { revokePage, tokenFormPage, tokensPage, type TokenFormValues } from "./tokens-page.js";
import { DEFAULT_EXPIRATION, expiresAtOf } from "./expiration.js";

/** Tokens listed a page: a user with more pages through them (`?page=N`). */
const TOKENS_PER_PAGE = 100;

const SIGNED_IN = { config: { consoleAccess: "signed-in" as const } };
/** The sealed new token waits this long for the page that shows it. */
const NEW_TOKEN_SECONDS = 120;

const formValues = (body: URLSearchParams): TokenFormValues => ({
  note: body.get("note") ?? "",
  noteUrl: body.get("note_url") ?? "",
  scopes: body.getAll("scopes"),
  expiration: body.get("expiration") ?? DEFAULT_EXPIRATION,
  expirationDate: body.get("expiration_date") ?? "",
});
const EMPTY_FORM: TokenFormValues = {
  note: "",
  noteUrl: "",
  scopes: [],
  expiration: DEFAULT_EXPIRATION,
  expirationDate: "",
};

/** What the API would answer 422 (or 4xx) for, as one line for the form. */
export function formProblem(error: unknown): string | null {
  if (error instanceof FeedgateFailure) return error.problem;
  if (error instanceof ApiError && error.statusCode < 500) {
    const { errors = [] } = error.options;
    return [
      error.message,
      ...(typeof errors === "string" ? [errors] : errors.map((e) => e.message)).filter(Boolean),
    ].join(": ");
  }
  return null;
}

export function tokenRoutes(app: FastifyInstance, services: ConsoleServices) {
  const { authorizations, assets, sessions, now } = services;
  const context = (request: FastifyRequest) => pageContext(request, assets, services);

  async function showForm(
    request: FastifyRequest,
    reply: FastifyReply,
    values: TokenFormValues,
    id: string | null,
    error: unknown,
  ) {
    const problem = formProblem(error);
    if (problem === null) throw error;
    const editing = id === null ? null : await authorizations.get(signedIn(request).user, id);
    return sendPage(reply, 422, tokenFormPage(context(request), values, editing, problem));
  }

  app.get("/tokens", SIGNED_IN, async (request: FastifyRequest<{ Querystring: { page?: string } }>, reply) => {
    const session = signedIn(request);
    // The new token, sealed to this session, is shown by this one response and then forgotten.
    const sealed = readCookie(request, NEW_TOKEN_COOKIE);
    const newToken = sealed ? sessions.unseal(session.id, sealed) : null;
    if (sealed) clearCookie(request, reply, NEW_TOKEN_COOKIE);
    const number = pageOf(request.query);
    const { rows, total } = await authorizations.list(session.user, {
      limit: TOKENS_PER_PAGE,
      offset: (number - 1) * TOKENS_PER_PAGE,
    });
    const pages = { number, last: Math.max(1, Math.ceil(total / TOKENS_PER_PAGE)) };
    return sendPage(reply, 200, tokensPage(context(request), rows, newToken, pages, now()));
  });

  app.get("/tokens/new", SIGNED_IN, async (request, reply) =>
    sendPage(reply, 200, tokenFormPage(context(request), EMPTY_FORM, null, null)),
  );

  app.post("/tokens", SIGNED_IN, async (request: FormRequest, reply) => {
    const session = signedIn(request);
    const values = formValues(request.body);
    try {
      const expiresAt = expiresAtOf(request.body.get("expiration"), values.expirationDate, now());
      const { token } = await authorizations.create(session.user, {
        note: values.note || undefined,
        note_url: values.noteUrl || undefined,
        scopes: [...values.scopes],
        ...(expiresAt === undefined ? {} : { expires_at: expiresAt }),
      });
      // Post/redirect/get: the list shows the token once; reloading it (or going back) does not post again.
      writeCookie(request, reply, NEW_TOKEN_COOKIE, sessions.seal(session.id, token), NEW_TOKEN_SECONDS);
      return reply.redirect("/console/tokens", 303);
    } catch (error) {
      return showForm(request, reply, values, null, error);
    }
  });

  app.get("/tokens/:id/edit", SIGNED_IN, async (request: FastifyRequest<{ Params: { id: string } }>, reply) => {
    const row = await authorizations.get(signedIn(request).user, request.params.id);
    return sendPage(
      reply,
      200,
      tokenFormPage(
        context(request),
        { ...EMPTY_FORM, note: row.note ?? "", noteUrl: row.noteUrl ?? "", scopes: row.scopes },
        row,
        null,
      ),
    );
  });

  app.post(
    "/tokens/:id",
    SIGNED_IN,
    async (request: FastifyRequest<{ Params: { id: string }; Body: URLSearchParams }>, reply) => {
      const values = formValues(request.body);
      try {
        await authorizations.update(signedIn(request).user, request.params.id, {
          note: values.note || null,
          note_url: values.noteUrl || null,
          scopes: [...values.scopes],
        });
        return reply.redirect("/console/tokens", 303);
      } catch (error) {
        return showForm(request, reply, values, request.params.id, error);
      }
    },
  );

  app.get("/tokens/:id/revoke", SIGNED_IN, async (request: FastifyRequest<{ Params: { id: string } }>, reply) =>
    sendPage(
      reply,
      200,
      revokePage(context(request), await authorizations.get(signedIn(request).user, request.params.id)),
    ),
  );

  app.post("/tokens/:id/revoke", SIGNED_IN, async (request: FastifyRequest<{ Params: { id: string } }>, reply) => {
    await authorizations.delete(signedIn(request).user, request.params.id);
    return reply.redirect("/console/tokens", 303);
  });
}
