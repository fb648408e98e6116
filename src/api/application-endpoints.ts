/**
 * The rows of an OAuth app's token management (https://docs.github.com/rest/apps/oauth-applications), authenticated
 * with Basic `client_id:client_secret` (`auth: "client"`): check, reset and delete one token, delete the whole grant.
 * No Node-only imports.
 */
import type { ParamSpec } from "./params.js";

const DOCS = "https://docs.github.com/rest/apps/oauth-applications";

const clientPath = { client_id: { in: "path", type: "string", required: true } } as const;
const accessToken = {
  ...clientPath,
  access_token: { in: "body", type: "string", required: true, description: "The OAuth token to act on." },
} as const satisfies Record<string, ParamSpec>;

function row<
  const M extends "POST" | "PATCH" | "DELETE",
  const P extends Readonly<Record<string, ParamSpec>>,
  const R extends "Authorization" | "empty",
>(method: M, path: string, params: P, response: R, anchor: string, summary: string) {
  return {
    method,
    path,
    params,
    auth: "client",
    acceptedScopes: [],
    permissions: [],
    response,
    resource: "OauthAccess",
    documentationUrl: `${DOCS}#${anchor}`,
    summary,
    tag: "apps",
  } as const;
}

export const applicationEndpoints = {
  checkToken: row(
    "POST",
    "/applications/:client_id/token",
    accessToken,
    "Authorization",
    "check-a-token",
    "Check a token",
  ),
  resetToken: row(
    "PATCH",
    "/applications/:client_id/token",
    accessToken,
    "Authorization",
    "reset-a-token",
    "Reset a token",
  ),
  deleteToken: row(
    "DELETE",
    "/applications/:client_id/token",
    accessToken,
    "empty",
    "delete-an-app-token",
    "Delete an app token",
  ),
  deleteGrant: row(
    "DELETE",
    "/applications/:client_id/grant",
    accessToken,
    "empty",
    "delete-an-app-authorization",
    "Delete an app authorization",
  ),
} as const;
