/**
 * Authentication for every route: reads the credential forms GitHub clients send, asks the Authenticator
 * for a principal, and enforces the route's rule from the endpoint table. Credentials are never logged.
 */
import fp from "fastify-plugin";
import type { FastifyRequest } from "fastify";
import type { Authenticator, Credentials } from "../services/authenticator.js";
import { isJwtShaped, refusedJwt, type AppJwtVerifier } from "../services/apps/app-jwt.js";
import { notAccessibleByIntegration } from "../services/fine-grained-access.js";
import type { AppRow } from "../store/store.js";

declare module "fastify" {
  interface FastifyRequest {
    /** The GitHub App whose JWT authenticated the request: JWT routes only (`auth: "app"`). */
    githubApp: AppRow | null;
  }
}
import { authenticatedNotAccepted, badCredentials, basicAuthOnly, requiresAuthentication } from "../errors.js";
import { tokenExpirationHeader } from "../convert/time.js";
import { acceptedPermissionsHeader } from "../../api/permissions.js";

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Reads credentials from the request; malformed ones are a 401, never a guess. */
export function readCredentials(request: FastifyRequest): Credentials {
  const authorization = header(request, "authorization");
  if (authorization) {
    const [scheme = "", value = ""] = authorization.trim().split(/\s+/, 2);
    switch (scheme.toLowerCase()) {
      case "token":
      case "bearer":
        if (!value) throw badCredentials();
        return { type: "token", token: value };
      case "basic": {
        const decoded = Buffer.from(value, "base64").toString("utf8");
        const colon = decoded.indexOf(":");
        if (colon < 0) throw badCredentials();
        const otp = header(request, "x-service-otp") ?? header(request, "x-github-otp");
        return { type: "basic", login: decoded.slice(0, colon), password: decoded.slice(colon + 1), otp };
      }
      default:
        throw badCredentials();
    }
  }
  // The node-github 0.2.x client sends tokens in the query string.
  const query = request.query as Record<string, unknown> | undefined;
  const accessToken = query?.access_token;
  if (typeof accessToken === "string") return { type: "token", token: accessToken };
  if (accessToken !== undefined) throw badCredentials();
  return { type: "none" };
}

declare module "fastify" {
  interface FastifyContextConfig {
    /**
     * The route reads an OAuth app's client id and secret itself (Basic or in its body): they are not a login and
     * must not count toward one's lockout, so no credential is read here.
     */
    clientCredentials?: boolean;
  }
}

/**
 * A JWT route takes a GitHub App's JWT and nothing else (GitHub: any other credential "could not be decoded"); a valid
 * JWT elsewhere is the app, which reaches no resource of the ordinary routes (GitHub's 403 "by integration").
 */
async function appOnly(credentials: Credentials, jwt: AppJwtVerifier, now: Date): Promise<AppRow> {
  if (credentials.type !== "token" || !isJwtShaped(credentials.token)) throw refusedJwt("undecodable");
  return jwt.verify(credentials.token, now);
}

export default fp<{ authenticator: Authenticator; appJwt: AppJwtVerifier }>(
  async (app, { authenticator, appJwt }) => {
    app.decorateRequest("principal", null);
    app.decorateRequest("githubApp", null);

    app.addHook("onRequest", async (request, reply) => {
      if (request.routeOptions.config.clientCredentials || request.routeOptions.config.endpoint?.auth === "client") {
        // A malformed header, or a token nobody holds, is the 401 every route answers, before any body is read. A
        // password is not checked here: Basic carries the app's client id and secret, which the route checks itself.
        const credentials = readCredentials(request);
        if (credentials.type === "token") await authenticator.authenticate(credentials, request.receivedAt);
        return;
      }
      const endpoint = request.routeOptions.config.endpoint;
      const credentials = readCredentials(request);
      if (endpoint?.auth === "app") {
        request.githubApp = await appOnly(credentials, appJwt, request.receivedAt);
        return;
      }
      if (credentials.type === "token" && isJwtShaped(credentials.token)) {
        await appJwt.verify(credentials.token, request.receivedAt);
        throw notAccessibleByIntegration();
      }
      const principal = await authenticator.authenticate(credentials, request.receivedAt);
      request.principal = principal;
      if (principal?.kind === "token") {
        // GitHub reports these on token-authenticated responses only (wire notes 3.3): scopes to a classic token, the
        // permissions the operation accepts to a fine-grained one (and no scopes, which it has none of).
        if (principal.authorization.fineGrained) {
          reply.header("X-Accepted-GitHub-Permissions", acceptedPermissionsHeader(endpoint?.permissions ?? []));
          // gh reads an empty X-OAuth-Scopes as an integration's token and skips its scope check (spec section 10).
          const { installationId, userOfApp } = principal.authorization.fineGrained;
          if (installationId !== undefined || userOfApp !== undefined) reply.header("X-OAuth-Scopes", "");
        } else {
          reply.header("X-OAuth-Scopes", principal.authorization.scopes.join(", "));
          reply.header("X-Accepted-OAuth-Scopes", (endpoint?.acceptedScopes ?? []).join(", "));
        }
        // GitHub tells the bearer of an expiring token when it stops working, on every response to it.
        const { expiresAt } = principal.authorization;
        if (expiresAt) reply.header("GitHub-Authentication-Token-Expiration", tokenExpirationHeader(expiresAt));
      }
      if (endpoint?.auth === "required" && !principal) throw requiresAuthentication();
      if (endpoint?.auth === "anonymous" && principal) throw authenticatedNotAccepted(endpoint.documentationUrl);
      if (endpoint?.auth === "password") {
        if (!principal) throw requiresAuthentication();
        if (principal.kind !== "password") throw basicAuthOnly();
      }
    });
  },
  { name: "auth", dependencies: ["request-context"] },
);
