/**
 * What the collaborator and invitation actions share: who may manage a repository's collaborators, which roles a
 * repository takes, an invitation with the objects its wire form shows, and the making of a new collaborator
 * (MemberEvent `added` and the `member.added` webhook, GitHub's table in ../shared/spec/github-actions-and-events.md).
 */
import {
  isRepositoryPermission,
  LEGACY_PERMISSIONS,
  ROLE_NAMES,
  type RepositoryPermission,
} from "../../../api/collaborator-schemas.js";
import type { InvitationView } from "../../convert/collaborator.js";
import { toWireSimpleUser } from "../../convert/user.js";
import { InvalidInputError } from "../../failures.js";
import type { InvitationRow, RepoRow, Store, UserRow } from "../../store/store.js";
import type { FeedParams, FeedService } from "../feeds.js";
import type { Making } from "./acting.js";
import { madeEvent } from "./made.js";
import {
  mustHaveAdminRights,
  writableRepository,
  type ActionAccess,
  type WritableRepository,
} from "./repository-access.js";

/** A repository the caller administers: its owner, an owner of its organization, an admin collaborator (else 403). */
export async function administeredRepository(
  store: Store,
  feeds: FeedService,
  params: FeedParams,
  access: ActionAccess,
): Promise<WritableRepository> {
  const w = await writableRepository(store, feeds, params, access);
  if (!w.administers) throw mustHaveAdminRights();
  return w;
}

/**
 * A role a repository takes: all five on an organization's; on a user's, `triage` and `maintain` are GitHub's 422
 * (it keeps read, write and admin for a personal repository's collaborators: github/rest-api-description#7010).
 */
export function roleFor(repoOwner: UserRow, permission: unknown, field: string, given: unknown = permission) {
  if (!isRepositoryPermission(permission))
    throw new InvalidInputError(`${field} ${JSON.stringify(given)} is not a role GitHub knows`, {
      field,
      code: "invalid",
    });
  if (repoOwner.type !== "Organization" && (permission === "triage" || permission === "maintain"))
    throw new InvalidInputError(`${field} ${JSON.stringify(given)} is only valid on organization-owned repositories`, {
      field,
      code: "invalid",
    });
  return permission;
}

/** The invitation with its repository, invitee and inviter, read one after another. */
export async function invitationView(store: Store, invitation: InvitationRow): Promise<InvitationView> {
  const repo = (await store.directory.findRepoById(invitation.repoId))!;
  const owner = (await store.users.findById(repo.ownerId))!;
  const stats = await store.directory.repoStats(repo.id);
  const invitee = (await store.users.findById(invitation.inviteeId))!;
  const inviter = (await store.users.findById(invitation.inviterId))!;
  return { invitation, repository: { repo, owner, stats }, invitee, inviter };
}

/**
 * `member` becomes a collaborator with `permission`: the role, MemberEvent `added` by `adder` (GitHub's events name
 * the one who added, GH Archive's MemberEvents show) and `member.added`, sent by the scene's actor (the invitee, who
 * accepted; or the adder).
 */
export async function collaboratorAdded(
  making: Making,
  repo: RepoRow,
  member: UserRow,
  permission: RepositoryPermission,
  adder: UserRow,
): Promise<void> {
  const { tx, scene } = making;
  await tx.collaborators.set(repo.id, member.id, permission);
  const wire = toWireSimpleUser(member, scene.baseUrl);
  making.events.push(
    madeEvent({ ...scene, actor: adder }, await tx.nextEventId(), "MemberEvent", { member: wire, action: "added" }),
  );
  making.webhook("member", "added", {
    member: wire,
    changes: { permission: { to: LEGACY_PERMISSIONS[permission] }, role_name: { to: ROLE_NAMES[permission] } },
  });
}
