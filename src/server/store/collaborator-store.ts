/**
 * A repository's collaborators, each with one of GitHub's five roles, and the invitations that make them. Writes are
 * made through the action log (services/actions/collaborators.ts), so that the numbers caches key on move with them.
 */
import type { RepositoryPermission } from "../../api/collaborator-schemas.js";
import type { Page, PageRequest } from "./page.js";
import type { UserRow } from "./user-store.js";

/** Someone with access to a repository, with the strongest role any of their grants gives. */
export interface CollaboratorRow {
  user: UserRow;
  permission: RepositoryPermission;
}

/**
 * GitHub's `affiliation`: `direct`, the repository's own collaborators; `outside`, those of them who are not members
 * of the organization owning it; `all`, also the owner (an organization's owners) and the organization's members.
 */
export type Affiliation = "outside" | "direct" | "all";

export interface InvitationRow {
  id: number;
  repoId: number;
  inviteeId: number;
  inviterId: number;
  permission: RepositoryPermission;
  createdAt: Date;
}

export type NewInvitation = Omit<InvitationRow, "id">;

export interface CollaboratorStore {
  /** The user's role as a collaborator of the repository; null when not one. */
  permission(repoId: number, userId: number): Promise<RepositoryPermission | null>;
  /** Makes the user a collaborator with the role, or changes the role; answers the role before (null: none). */
  set(repoId: number, userId: number, permission: RepositoryPermission): Promise<RepositoryPermission | null>;
  /** false when the user was no collaborator. */
  remove(repoId: number, userId: number): Promise<boolean>;
  /** Those with access, by affiliation, with at least `minimum` when given; by account, the oldest first. */
  list(
    repoId: number,
    filter: { affiliation: Affiliation; minimum: RepositoryPermission | null },
    window: PageRequest,
  ): Promise<Page<CollaboratorRow>>;

  invitation(id: number): Promise<InvitationRow | null>;
  /** The repository's pending invitation of the user, expired or not. */
  invitationFor(repoId: number, inviteeId: number): Promise<InvitationRow | null>;
  invite(invitation: NewInvitation): Promise<InvitationRow>;
  setInvitationPermission(id: number, permission: RepositoryPermission): Promise<void>;
  /** false when there was none. */
  deleteInvitation(id: number): Promise<boolean>;
  /** The invitations a user sent for a repository are withdrawn when the user stops collaborating on it. */
  deleteInvitationsBy(repoId: number, inviterId: number): Promise<void>;
  /** The repository's invitations, expired ones too, the oldest first. */
  repositoryInvitations(repoId: number, window: PageRequest): Promise<Page<InvitationRow>>;
  /** The user's invitations made after `since` (those not expired), the oldest first. */
  userInvitations(userId: number, since: Date, window: PageRequest): Promise<Page<InvitationRow>>;
}
