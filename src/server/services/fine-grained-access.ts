/**
 * What a fine-grained token may reach (GitHub, 2022): the resources of its one owner, of those repositories only
 * the selected ones, and there only what its permissions allow. Public repositories stay readable to every token
 * ("Tokens always include read-only access to all public repositories"). No Fastify, no SQL.
 *
 * GitHub's answers, which the services give from here: a private resource the token cannot reach is 404, as for
 * anyone who cannot see it; one it can see but lacks the permission for (or sees only as public) is 403 "Resource not
 * accessible by personal access token".
 */
import { grants, type AcceptedPermissions } from "../../api/permissions.js";
import { ApiError, notFound } from "../errors.js";
import type { FineGrainedGrant, GrantReach, RepoRow } from "../store/store.js";
import type { Principal } from "./authenticator.js";

/** GitHub's 403 for a GitHub App (its JWT, or an installation token) where its permissions do not reach. */
export const notAccessibleByIntegration = () =>
  new ApiError(403, "Resource not accessible by integration", {
    code: "FEEDGATE_NOT_ACCESSIBLE_BY_INTEGRATION",
    statusInBody: true,
  });

/**
 * GitHub's 403 for a fine-grained token, or "by integration" for an installation token (whose grant names its
 * installation); the error handler adds the operation's documentation, as GitHub does.
 */
export const notAccessibleByToken = (grant?: FineGrainedGrant) =>
  grant?.installationId === undefined && grant?.userOfApp === undefined
    ? new ApiError(403, "Resource not accessible by personal access token", {
        code: "FEEDGATE_NOT_ACCESSIBLE_BY_TOKEN",
        statusInBody: true,
      })
    : notAccessibleByIntegration();

/** The caller's fine-grained grant, or null for anyone else (anonymous, password, classic token). */
export function grantOf(principal: Principal | null): FineGrainedGrant | null {
  return principal?.kind === "token" ? principal.authorization.fineGrained : null;
}

/** What the grant reaches on the account: the grant itself when it is the account's, an app user token's installation there. */
function reachOn(grant: FineGrainedGrant, ownerId: number): GrantReach | undefined {
  if (grant.userOfApp) return grant.userOfApp.installations.find((reach) => reach.ownerId === ownerId);
  return grant.ownerId === ownerId ? grant : undefined;
}

/** What the grant holds on the repository: its owner's reach, when it covers every repository or this one. */
function reachOf(grant: FineGrainedGrant, repo: RepoRow): GrantReach | undefined {
  const reach = reachOn(grant, repo.ownerId);
  if (!reach) return undefined;
  const covered =
    reach.repositorySelection === "all" ||
    (reach.repositorySelection === "subset" && reach.repositoryIds.includes(repo.id));
  return covered ? reach : undefined;
}

/** Whether the grant covers the repository: its owner's, and every one of them or a selected one. */
export const reachesRepository = (grant: FineGrainedGrant, repo: RepoRow): boolean =>
  reachOf(grant, repo) !== undefined;

/**
 * Refuses an operation needing `needs` on the repository unless the grant covers it and holds them: a private
 * repository it does not cover is not there at all (404); a public one, or a covered one without the permission, is
 * there but not for this token (403).
 */
export function checkRepository(grant: FineGrainedGrant, repo: RepoRow, needs: AcceptedPermissions): void {
  const reach = reachOf(grant, repo);
  if (reach && grants(reach.permissions, needs)) return;
  if (!reach && repo.private) throw notFound();
  throw notAccessibleByToken(grant);
}

/** The same for an organization's own resources (its hooks, its dashboard): the token must be the organization's. */
export function checkOrganization(grant: FineGrainedGrant, orgId: number, needs: AcceptedPermissions): void {
  const reach = reachOn(grant, orgId);
  if (!reach || !grants(reach.permissions, needs)) throw notAccessibleByToken(grant);
}

/**
 * Whether the grant may see private events of a repository it covers, on a feed needing `needs`. A repository it
 * does not cover, or without the permission, shows its public side only, as to anyone (GitHub's public read).
 */
export const readsPrivateOf = (grant: FineGrainedGrant, repo: RepoRow, needs: AcceptedPermissions): boolean => {
  const reach = reachOf(grant, repo);
  return reach !== undefined && grants(reach.permissions, needs);
};
