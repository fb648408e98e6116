/**
 * Who may write to a repository's issues, as GitHub decides: the repository must be one the caller sees (else 404,
 * as every repository resource); a classic token must hold one of the row's scopes, `public_repo` counting on public
 * repositories only (else 404, GitHub's answer to a token that may not know of the resource); a fine-grained token
 * must cover the repository with the row's permission (403). What the caller may then change is by its role
 * (GitHub's repository roles, https://docs.github.com/organizations/managing-user-access-to-your-organizations-repositories/managing-repository-roles/repository-roles-for-an-organization):
 * anyone who sees a repository may open issues and comment, its author may edit and close an issue; `triage` (and
 * above) also labels, assigns, sets milestones on and closes or reopens anyone's issues; `push` (write: the owner, a
 * collaborator with write or more, a site administrator) also edits anyone's issues and comments, manages labels and
 * milestones, and locks; `admin` (the owner, an organization's owner, an admin collaborator) manages collaborators.
 * An archived repository takes no write at all (GitHub's 403), but for its own unarchiving and deletion.
 */
import { atLeast, type RepositoryPermission } from "../../../api/collaborator-schemas.js";
import type { AcceptedPermissions } from "../../../api/permissions.js";
import { satisfies } from "../../../api/scopes.js";
import { ApiError, notFound, requiresAuthentication } from "../../errors.js";
import type { RepoRole, RepoRow, Store } from "../../store/store.js";
import type { Principal } from "../authenticator.js";
import { checkRepository, grantOf } from "../fine-grained-access.js";
import type { FeedParams, FeedService } from "../feeds.js";

/** The caller and what the operation's row accepts. */
export interface ActionAccess {
  principal: Principal | null;
  acceptedScopes: readonly string[];
  permissions: AcceptedPermissions;
}

export interface WritableRepository {
  repo: RepoRow;
  principal: Principal;
  /** Owner, collaborator or a member of the owning organization; null for anyone else who sees it. */
  role: RepoRole | null;
  /** The caller's role there; null for anyone who only sees it (a public repository's reader). */
  permission: RepositoryPermission | null;
  /** Triage: labels, assignees and milestones on issues, and closing or reopening anyone's. */
  triages: boolean;
  /** Push access: editing anyone's issues and comments, a repository's labels and milestones, locks. */
  pushes: boolean;
  /** Admin: the repository's collaborators and invitations. */
  administers: boolean;
}

/** GitHub's 403 for any write to an archived repository, its issues, labels, comments and milestones. */
export const archivedReadOnly = () => new ApiError(403, "Repository was archived so is read-only.");

/** GitHub's 410 on the issue routes of a repository whose issues are turned off (`has_issues: false`). */
export function issuesEnabled(repo: RepoRow): RepoRow {
  if (!repo.settings.hasIssues) throw new ApiError(410, "Issues are disabled for this repo");
  return repo;
}

/** GitHub's 403 for a change that needs push access the caller lacks. */
export const mustHavePushAccess = () => new ApiError(403, "Must have push access to repository");

/** GitHub's 403 for what only a repository's administrators may do. */
export const mustHaveAdminRights = () => new ApiError(403, "Must have admin rights to Repository.");

export async function writableRepository(
  store: Store,
  feeds: FeedService,
  params: FeedParams,
  access: ActionAccess,
  /** The repository's own settings and its deletion are writes an archived repository takes (GitHub's unarchiving). */
  archived: "refused" | "allowed" = "refused",
): Promise<WritableRepository> {
  const { principal } = access;
  if (!principal) throw requiresAuthentication();
  const { repo } = await feeds.repository(params, principal, access.permissions);
  const grant = grantOf(principal);
  if (grant) checkRepository(grant, repo, access.permissions);
  else if (principal.kind === "token") {
    const scopes = principal.authorization.scopes;
    const fully = access.acceptedScopes.filter((scope) => scope !== "public_repo");
    if (!satisfies(scopes, access.acceptedScopes) || (repo.private && !satisfies(scopes, fully))) throw notFound();
  }
  if (repo.settings.archived && archived === "refused") throw archivedReadOnly();
  const held = await store.directory.repoAccess(principal.user.id, repo.id);
  const permission = held?.permission ?? null;
  const has = (needed: RepositoryPermission) =>
    principal.user.siteAdmin || (permission !== null && atLeast(permission, needed));
  return {
    repo,
    principal,
    role: held?.role ?? null,
    permission,
    triages: has("triage"),
    pushes: has("push"),
    administers: has("admin"),
  };
}
