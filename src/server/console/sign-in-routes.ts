/**
 * Signing in and out. Credentials go through the Authenticator, as Basic auth's do, so a wrong password or code
 * counts toward the same lockout; the console only turns its answers into pages.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { ApiError } from "../errors.js";
import type { UserRow } from "../store/store.js";
import { clearCookie, SESSION_COOKIE, writeCookie } from "./cookies.js";
import {
  pageContext,
  RETURN_TO,
  returnPath,
  sendPage,
  signedIn,
  type ConsoleServices,
  type FormRequest,
} from "./context.js";
import { signInPage, twoFactorPage } from "./sign-in-page.js";

const INCORRECT = "Incorrect username or password.";

/** The Authenticator's refusals as the sign-in page words them; null for failures that are not the user's. */
function refusal(error: unknown): { status: number; message: string } | null {
  if (!(error instanceof ApiError)) return null;
  switch (error.code) {
    case "FEEDGATE_BAD_CREDENTIALS":
    case "FEEDGATE_OTP_REQUIRED":
      return { status: 401, message: INCORRECT };
    case "FEEDGATE_LOGIN_ATTEMPTS_EXCEEDED":
    case "FEEDGATE_ACCOUNT_SUSPENDED":
      return { status: 403, message: error.message };
    default:
      return null;
  }
}

const isOtpChallenge = (error: unknown) => error instanceof ApiError && error.code === "FEEDGATE_OTP_REQUIRED";

export function signInRoutes(app: FastifyInstance, services: ConsoleServices) {
  const { sessions, authenticator, assets } = services;
  const render = (request: FastifyRequest) => pageContext(request, assets, services);

  /** Replaces whatever session the browser had with a new one (a fresh id after each step: no session fixation). */
  async function startSession(request: FastifyRequest, reply: FastifyReply, user: UserRow, verified: boolean) {
    if (request.consoleSession) await sessions.end(request.consoleSession.id);
    writeCookie(request, reply, SESSION_COOKIE, await sessions.start(user, verified));
  }

  app.get("/", async (request, reply) =>
    reply.redirect(request.consoleSession?.session.verified ? "/console/activity" : "/console/sign-in", 303),
  );

  /** Where a sign-in (or its second step) goes once done: the page it was asked for, given in the query or form. */
  const backTo = (request: FastifyRequest) =>
    returnPath(
      request.body instanceof URLSearchParams
        ? request.body.get(RETURN_TO)
        : (request.query as Record<string, string | undefined>)[RETURN_TO],
    );

  app.get("/sign-in", async (request, reply) => {
    if (request.consoleSession?.session.verified) return reply.redirect(backTo(request), 303);
    return sendPage(reply, 200, signInPage(render(request), null, "", backTo(request)));
  });

  app.post("/sign-in", async (request: FormRequest, reply) => {
    const login = request.body.get("login") ?? "";
    const password = request.body.get("password") ?? "";
    try {
      const principal = await authenticator.authenticate(
        { type: "basic", login, password, otp: undefined },
        request.receivedAt,
      );
      // A token given as the password.
      if (principal?.kind !== "password") throw new ApiError(401, INCORRECT, { code: "FEEDGATE_BAD_CREDENTIALS" });
      await startSession(request, reply, principal.user, true);
      return reply.redirect(backTo(request), 303);
    } catch (error) {
      if (isOtpChallenge(error)) {
        // The password is proven; the session stays unverified until the code is.
        const user = await services.users.findByLogin(login);
        if (user) {
          await startSession(request, reply, user, false);
          const back = backTo(request);
          const query = back === "/console/" ? "" : `?${RETURN_TO}=${encodeURIComponent(back)}`;
          return reply.redirect(`/console/two-factor${query}`, 303);
        }
      }
      const refused = refusal(error);
      if (!refused) throw error;
      return sendPage(reply, refused.status, signInPage(render(request), refused.message, login, backTo(request)));
    }
  });

  app.get("/two-factor", { config: { consoleAccess: "pending" } }, async (request, reply) =>
    sendPage(reply, 200, twoFactorPage(render(request), null, backTo(request))),
  );

  app.post("/two-factor", { config: { consoleAccess: "pending" } }, async (request: FormRequest, reply) => {
    const session = signedIn(request);
    try {
      const principal = await authenticator.secondFactor(
        session.user.id,
        request.body.get("otp") ?? "",
        request.receivedAt,
      );
      await startSession(request, reply, principal.user, true);
      return reply.redirect(backTo(request), 303);
    } catch (error) {
      const refused = refusal(error);
      if (!refused) throw error;
      const message = refused.status === 401 ? "Incorrect authentication code." : refused.message;
      return sendPage(reply, refused.status, twoFactorPage(render(request), message, backTo(request)));
    }
  });

  // Any session may end, a pending one too.
  app.post("/sign-out", async (request, reply) => {
    if (request.consoleSession) await sessions.end(request.consoleSession.id);
    clearCookie(request, reply, SESSION_COOKIE);
    return reply.redirect("/console/sign-in", 303);
  });
}
