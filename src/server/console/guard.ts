/**
 * The console's request checks, in one place: which session the request carries, whether the route lets it in, and,
 * for every state-changing request, that it comes from a console page (CSRF). SameSite=Strict already keeps other
 * sites' requests from carrying the cookie; the checks here hold even for browsers that ignore it:
 * - a POST from another origin is refused by its Origin (or Sec-Fetch-Site) header, the sign-in form included;
 * - a POST under a session must carry the session's CSRF token, which only the session's own pages contain.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import { ApiError } from "../errors.js";
import { readCookie, SESSION_COOKIE } from "./cookies.js";
import { RETURN_TO, type ConsoleServices } from "./context.js";

const forbidden = (message: string) => new ApiError(403, message);

function sameOrigin(request: FastifyRequest): boolean {
  const site = request.headers["sec-fetch-site"];
  if (site !== undefined && site !== "same-origin" && site !== "none") return false;
  const origin = request.headers.origin;
  if (origin === undefined) return true;
  return origin === new URL(request.baseUrl).origin || origin === `${request.protocol}://${request.host}`;
}

export function consoleGuard(services: ConsoleServices) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const id = readCookie(request, SESSION_COOKIE);
    const signedIn = id ? await services.sessions.resolve(id) : null;
    request.consoleSession = id && signedIn ? { id, ...signedIn } : null;

    const write = request.method !== "GET" && request.method !== "HEAD";
    // A form sent with no body at all (no Content-Type, nothing to parse) is an empty form, not a missing one: every
    // handler reads fields from it, and the empty fields get the page's own answer rather than a 500.
    if (write && !(request.body instanceof URLSearchParams)) request.body = new URLSearchParams();
    if (write && !sameOrigin(request)) throw forbidden("Cross-origin request refused.");
    const session = request.consoleSession;
    if (write && session) {
      const body = request.body instanceof URLSearchParams ? request.body : null;
      if (!services.sessions.csrfMatches(session.id, body?.get("csrf") ?? ""))
        throw forbidden("Invalid or missing CSRF token.");
    }

    const access = request.routeOptions.config.consoleAccess ?? "anyone";
    const allowed =
      access === "anyone" ||
      (access === "pending" ? session?.session.verified === false : session?.session.verified === true);
    if (allowed) return;
    if (write) throw forbidden("Sign in to continue.");
    // An OAuth app's page comes back after the sign-in, with its query: the app's request is not lost.
    const back = request.routeOptions.config.returnAfterSignIn
      ? `?${RETURN_TO}=${encodeURIComponent(request.url)}`
      : "";
    return reply.redirect(`/console/sign-in${back}`, 303);
  };
}
