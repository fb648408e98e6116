/**
 * Collaborators and repository invitations -> GitHub's wire objects (collaborator, repository-invitation,
 * repository-collaborator-permission). An invitation's `url` is GitHub's `/user/repository_invitations/{id}` (its
 * example says so); `expired` is read by the clock (api/collaborator-schemas.ts expiredAt).
 */
import {
  expiredAt,
  LEGACY_PERMISSIONS,
  permissionSwitches,
  ROLE_NAMES,
  type Collaborator,
  type RepositoryCollaboratorPermission,
  type RepositoryInvitation,
  type RepositoryPermission,
} from "../../api/collaborator-schemas.js";
import type { CollaboratorRow, InvitationRow, UserRow } from "../store/store.js";
import { toWireParentRepository, type RepositoryFacts } from "./repository.js";
import { isoSeconds } from "./time.js";
import { webOrigin } from "./urls.js";
import { toWireSimpleUser } from "./user.js";

export function toWireCollaborator(row: CollaboratorRow, baseUrl: string): Collaborator {
  return {
    ...toWireSimpleUser(row.user, baseUrl),
    permissions: permissionSwitches(row.permission),
    role_name: ROLE_NAMES[row.permission],
  };
}

/** A user's permission on a repository; null: none at all (a private repository the user cannot read). */
export function toWireCollaboratorPermission(
  user: UserRow,
  permission: RepositoryPermission | null,
  baseUrl: string,
): RepositoryCollaboratorPermission {
  const collaborator = toWireCollaborator({ user, permission: permission ?? "pull" }, baseUrl);
  if (permission === null) {
    const none = { admin: false, maintain: false, push: false, triage: false, pull: false };
    return { permission: "none", role_name: "none", user: { ...collaborator, permissions: none, role_name: "none" } };
  }
  return { permission: LEGACY_PERMISSIONS[permission], role_name: ROLE_NAMES[permission], user: collaborator };
}

/** An invitation with what its object shows: the repository, the invitee and the inviter. */
export interface InvitationView {
  invitation: InvitationRow;
  repository: RepositoryFacts;
  invitee: UserRow;
  inviter: UserRow;
}

export function toWireInvitation(view: InvitationView, now: Date, baseUrl: string): RepositoryInvitation {
  const { invitation, repository } = view;
  return {
    id: invitation.id,
    node_id: "",
    repository: toWireParentRepository(repository, baseUrl),
    invitee: toWireSimpleUser(view.invitee, baseUrl),
    inviter: toWireSimpleUser(view.inviter, baseUrl),
    permissions: ROLE_NAMES[invitation.permission],
    created_at: isoSeconds(invitation.createdAt),
    expired: expiredAt(invitation.createdAt, now),
    url: `${baseUrl}/user/repository_invitations/${invitation.id}`,
    html_url: `${webOrigin(baseUrl)}/${repository.repo.fullName}/invitations`,
  };
}
