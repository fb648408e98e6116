/** GitHub Apps' rows -> GitHub's wire objects: the app (`integration`), an installation and an installation token. */
import type { Installation, InstallationToken, Integration } from "../../api/app-schemas.js";
import type { GrantedPermissions } from "../../api/permissions.js";
import type { AppRow, InstallationRow, RepoRow, UserRow } from "../store/store.js";
import { isoSeconds } from "./time.js";
import { webOrigin } from "./urls.js";
import { toWireSimpleUser } from "./user.js";

/** What `GET /app` shows. */
export interface AppFacts {
  app: AppRow;
  owner: UserRow;
  installationsCount: number;
}

export interface InstallationFacts {
  installation: InstallationRow;
  app: AppRow;
  account: UserRow;
}

/** A freshly minted installation token (services/apps/installation-tokens.ts). */
export interface MintedToken {
  token: string;
  expiresAt: Date;
  permissions: GrantedPermissions;
  repositorySelection: "all" | "selected";
  /** The repositories named, when the token is narrowed to them (or the installation's selection). */
  repositories: RepoRow[] | null;
}

/** GitHub's legacy node id form (`base64("0NN:TypeID")`), which its app and installation objects still carry. */
const legacyNodeId = (type: string, id: number) =>
  Buffer.from(`0${String(type.length + String(id).length + 1).padStart(2, "0")}:${type}${id}`).toString("base64");

export const installationNodeId = (id: number) => legacyNodeId("Installation", id);

export function toWireIntegration({ app, owner, installationsCount }: AppFacts, baseUrl: string): Integration {
  return {
    id: app.id,
    slug: app.slug,
    node_id: legacyNodeId("Integration", app.id),
    client_id: app.clientId,
    owner: toWireSimpleUser(owner, baseUrl),
    name: app.name,
    description: null,
    external_url: `${webOrigin(baseUrl)}/apps/${app.slug}`,
    html_url: `${webOrigin(baseUrl)}/apps/${app.slug}`,
    created_at: isoSeconds(app.createdAt),
    updated_at: isoSeconds(app.updatedAt),
    permissions: app.permissions,
    events: app.events,
    installations_count: installationsCount,
  };
}

export function toWireInstallation({ installation, app, account }: InstallationFacts, baseUrl: string): Installation {
  const web = webOrigin(baseUrl);
  return {
    id: installation.id,
    account: toWireSimpleUser(account, baseUrl),
    repository_selection: installation.repositorySelection,
    access_tokens_url: `${baseUrl}/app/installations/${installation.id}/access_tokens`,
    repositories_url: `${baseUrl}/installation/repositories`,
    html_url:
      account.type === "Organization"
        ? `${web}/organizations/${account.login}/settings/installations/${installation.id}`
        : `${web}/settings/installations/${installation.id}`,
    app_id: app.id,
    client_id: app.clientId,
    target_id: account.wireId,
    target_type: account.type,
    permissions: installation.permissions,
    events: installation.events,
    created_at: isoSeconds(installation.createdAt),
    updated_at: isoSeconds(installation.updatedAt),
    single_file_name: null,
    app_slug: app.slug,
    suspended_by: null,
    suspended_at: installation.suspendedAt && isoSeconds(installation.suspendedAt),
  };
}

/** The token, with the repositories it is narrowed to as the caller's `Repository` objects (`repositories`). */
export function toWireInstallationToken(
  minted: MintedToken,
  repositories: InstallationToken["repositories"],
): InstallationToken {
  return {
    token: minted.token,
    expires_at: isoSeconds(minted.expiresAt),
    permissions: minted.permissions,
    repository_selection: minted.repositorySelection,
    ...(repositories ? { repositories } : {}),
  };
}
