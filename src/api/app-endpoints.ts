/**
 * GitHub Apps' rows of the endpoint table (./endpoints.ts spreads them in as `apps`): what an app does with its JWT
 * (`auth: "app"`: the app itself, its installations, minting installation tokens) and what an installation token does
 * as the installation (https://docs.github.com/rest/apps). No Node-only imports.
 */
import { DIGITS, paging, type ParamSpec } from "./params.js";
import type { ResponseKind } from "./responses.js";

const APPS = "https://docs.github.com/rest/apps/apps";
const INSTALLATIONS = "https://docs.github.com/rest/apps/installations";

const required = { in: "path", type: "string", required: true } as const;
const installationPath = {
  installation_id: { in: "path", type: "string", required: true, pattern: DIGITS },
} as const satisfies Record<string, ParamSpec>;
const installationRepositoryPath = {
  ...installationPath,
  repository_id: { in: "path", type: "string", required: true, pattern: DIGITS },
} as const satisfies Record<string, ParamSpec>;
const tokenBody = {
  repositories: { in: "body", type: "array", maxItems: 500 },
  repository_ids: { in: "body", type: "array", maxItems: 500 },
  permissions: { in: "body", type: "object" },
} as const satisfies Record<string, ParamSpec>;

function row<
  const M extends "GET" | "POST" | "PUT" | "DELETE",
  const P extends Readonly<Record<string, ParamSpec>>,
  const R extends ResponseKind,
  const A extends "app" | "required" | "optional",
>(method: M, path: string, params: P, auth: A, response: R, docs: string, summary: string) {
  return {
    method,
    path,
    params,
    auth,
    acceptedScopes: [],
    permissions: [],
    response,
    resource: "Installation",
    documentationUrl: docs,
    summary,
    tag: "apps",
  } as const;
}

export const appEndpoints = {
  getAuthenticated: row(
    "GET",
    "/app",
    {},
    "app",
    "Integration",
    `${APPS}#get-the-authenticated-app`,
    "Get the authenticated app",
  ),
  listInstallations: row(
    "GET",
    "/app/installations",
    { ...paging, since: { in: "query", type: "string" }, outdated: { in: "query", type: "string" } },
    "app",
    "Installation[]",
    `${APPS}#list-installations-for-the-authenticated-app`,
    "List installations for the authenticated app",
  ),
  getInstallation: row(
    "GET",
    "/app/installations/:installation_id",
    installationPath,
    "app",
    "Installation",
    `${APPS}#get-an-installation-for-the-authenticated-app`,
    "Get an installation for the authenticated app",
  ),
  deleteInstallation: row(
    "DELETE",
    "/app/installations/:installation_id",
    installationPath,
    "app",
    "empty",
    `${APPS}#delete-an-installation-for-the-authenticated-app`,
    "Delete an installation for the authenticated app",
  ),
  suspendInstallation: row(
    "PUT",
    "/app/installations/:installation_id/suspended",
    installationPath,
    "app",
    "empty",
    `${APPS}#suspend-an-app-installation`,
    "Suspend an app installation",
  ),
  unsuspendInstallation: row(
    "DELETE",
    "/app/installations/:installation_id/suspended",
    installationPath,
    "app",
    "empty",
    `${APPS}#unsuspend-an-app-installation`,
    "Unsuspend an app installation",
  ),
  createInstallationAccessToken: row(
    "POST",
    "/app/installations/:installation_id/access_tokens",
    { ...installationPath, ...tokenBody },
    "app",
    "InstallationToken",
    `${APPS}#create-an-installation-access-token-for-an-app`,
    "Create an installation access token for an app",
  ),
  getRepoInstallation: row(
    "GET",
    "/repos/:user/:repo/installation",
    { user: required, repo: required },
    "app",
    "Installation",
    `${APPS}#get-a-repository-installation-for-the-authenticated-app`,
    "Get a repository installation for the authenticated app",
  ),
  getOrgInstallation: row(
    "GET",
    "/orgs/:org/installation",
    { org: required },
    "app",
    "Installation",
    `${APPS}#get-an-organization-installation-for-the-authenticated-app`,
    "Get an organization installation for the authenticated app",
  ),
  getUserInstallation: row(
    "GET",
    "/users/:user/installation",
    { user: required },
    "app",
    "Installation",
    `${APPS}#get-a-user-installation-for-the-authenticated-app`,
    "Get a user installation for the authenticated app",
  ),
  listReposAccessibleToInstallation: row(
    "GET",
    "/installation/repositories",
    paging,
    "required",
    "InstallationRepositories",
    `${INSTALLATIONS}#list-repositories-accessible-to-the-app-installation`,
    "List repositories accessible to the app installation",
  ),
  revokeInstallationAccessToken: row(
    "DELETE",
    "/installation/token",
    {},
    "required",
    "empty",
    `${INSTALLATIONS}#revoke-an-installation-access-token`,
    "Revoke an installation access token",
  ),
  // The manifest flow's last step: the app's server turns the code it was sent back with into the app. No credential:
  // the code is the proof (an hour, once).
  createFromManifest: row(
    "POST",
    "/app-manifests/:code/conversions",
    { code: { in: "path", type: "string", required: true } },
    "optional",
    "AppManifestConversion",
    `${APPS}#create-a-github-app-from-a-manifest`,
    "Create a GitHub App from a manifest",
  ),
  // A GitHub App's user token (`ghu_`) reading what its app is installed on that its user reaches.
  listInstallationsForUser: row(
    "GET",
    "/user/installations",
    paging,
    "required",
    "UserInstallations",
    `${INSTALLATIONS}#list-app-installations-accessible-to-the-user-access-token`,
    "List app installations accessible to the user access token",
  ),
  listInstallationReposForUser: row(
    "GET",
    "/user/installations/:installation_id/repositories",
    { ...installationPath, ...paging },
    "required",
    "InstallationRepositories",
    `${INSTALLATIONS}#list-repositories-accessible-to-the-user-access-token`,
    "List repositories accessible to the user access token",
  ),
  // A person (a password, or a classic token with `repo`) changing which repositories an installation on their account
  // (or an organization they own) covers; GitHub refuses every other token on these.
  addRepoToInstallation: {
    ...row(
      "PUT",
      "/user/installations/:installation_id/repositories/:repository_id",
      installationRepositoryPath,
      "required",
      "empty",
      `${INSTALLATIONS}#add-a-repository-to-an-app-installation`,
      "Add a repository to an app installation",
    ),
    acceptedScopes: ["repo"],
  },
  removeRepoFromInstallation: {
    ...row(
      "DELETE",
      "/user/installations/:installation_id/repositories/:repository_id",
      installationRepositoryPath,
      "required",
      "empty",
      `${INSTALLATIONS}#remove-a-repository-from-an-app-installation`,
      "Remove a repository from an app installation",
    ),
    acceptedScopes: ["repo"],
  },
};
