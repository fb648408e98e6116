/**
 * GitHub's collaborators (https://docs.github.com/rest/collaborators/collaborators) as actions. Adding a user to a
 * personal repository, or anyone but a member to an organization's, invites them (201 with the invitation, which
 * makes no event and no webhook: GitHub has no webhook for repository invitations); the invitee accepting it makes
 * MemberEvent and `member.added` (./invitations.ts). A member of the owning organization is added at once (204, the
 * same event and webhook). Adding an existing collaborator answers 204 and applies the role given, with
 * `member.edited` when it changes. Removing answers 204 with `member.removed` and no event (the Events API's
 * MemberEvent is `added` only), withdraws the invitations the collaborator sent, and takes their access at once.
 */
import type { Endpoints } from "../../../api/endpoints.js";
import {
  LEGACY_PERMISSIONS,
  REPOSITORY_PERMISSIONS,
  type RepositoryPermission,
} from "../../../api/collaborator-schemas.js";
import type { RequestOf } from "../../../api/schemas.js";
import type { InvitationView } from "../../convert/collaborator.js";
import { toWireSimpleUser } from "../../convert/user.js";
import { ApiError, notFound, validationFailed } from "../../errors.js";
import { InvalidInputError } from "../../failures.js";
import type { Affiliation, CollaboratorRow, Page, PageRequest, RepoRow, Store, UserRow } from "../../store/store.js";
import type { FeedParams, FeedService } from "../feeds.js";
import { Acting, type ActionParts } from "./acting.js";
import { administeredRepository, collaboratorAdded, invitationView, roleFor } from "./members.js";
import { mustHaveAdminRights, writableRepository, type ActionAccess } from "./repository-access.js";
import { expiredAt } from "../../../api/collaborator-schemas.js";

type ListQuery = RequestOf<Endpoints["collaborators"]["list"], "query">;
type AddInput = RequestOf<Endpoints["collaborators"]["add"], "body">;
export type CollaboratorPath = FeedParams & { username: string };

/** GitHub's 403 to a reader of collaborators without push access. */
const mustHavePushToView = () => new ApiError(403, "Must have push access to view repository collaborators.");

const AFFILIATIONS: readonly Affiliation[] = ["outside", "direct", "all"];

/** What adding answers: the invitation it made (201), or nothing (204: added, changed, or nothing to do). */
export type Added = { invitation: InvitationView } | null;

export class CollaboratorService {
  private readonly store: Store;
  private readonly feeds: FeedService;
  private readonly acting: Acting;

  constructor(private readonly parts: ActionParts) {
    ({ store: this.store, feeds: this.feeds } = parts);
    this.acting = new Acting(parts);
  }

  /** The repository, for a caller with push access (GitHub: write, maintain or admin) to read its collaborators. */
  private async readable(path: FeedParams, access: ActionAccess): Promise<RepoRow> {
    const w = await writableRepository(this.store, this.feeds, path, access);
    if (!w.pushes) throw mustHavePushToView();
    return w.repo;
  }

  private async user(login: string): Promise<UserRow> {
    const user = await this.store.users.findByLogin(login);
    if (user?.type !== "User") throw notFound();
    return user;
  }

  async list(
    path: FeedParams,
    query: ListQuery,
    access: ActionAccess,
    window: PageRequest,
  ): Promise<Page<CollaboratorRow>> {
    const affiliation = query.affiliation ?? "all";
    if (!(AFFILIATIONS as readonly string[]).includes(affiliation))
      throw new InvalidInputError(`affiliation must be ${AFFILIATIONS.join(", ")}`, { field: "affiliation" });
    const minimum = query.permission ?? null;
    if (minimum !== null && !(REPOSITORY_PERMISSIONS as readonly string[]).includes(minimum))
      throw new InvalidInputError(`permission must be ${REPOSITORY_PERMISSIONS.join(", ")}`, { field: "permission" });
    const repo = await this.readable(path, access);
    return this.store.collaborators.list(
      repo.id,
      { affiliation: affiliation as Affiliation, minimum: minimum as RepositoryPermission | null },
      window,
    );
  }

  /** 204 when the user has access as a collaborator does (the owner, a collaborator, an organization's member). */
  async check(path: CollaboratorPath, access: ActionAccess): Promise<void> {
    const repo = await this.readable(path, access);
    const user = await this.user(path.username);
    if (!(await this.store.directory.repoAccess(user.id, repo.id))) throw notFound();
  }

  /** The user's role on the repository; null for none (a private repository the user cannot read). */
  async permission(
    path: CollaboratorPath,
    access: ActionAccess,
  ): Promise<{ user: UserRow; permission: RepositoryPermission | null }> {
    const repo = await this.readable(path, access);
    const user = await this.user(path.username);
    const held = await this.store.directory.repoAccess(user.id, repo.id);
    return { user, permission: held?.permission ?? (repo.private ? null : "pull") };
  }

  async add(path: CollaboratorPath, input: AddInput | undefined, access: ActionAccess): Promise<Added> {
    const w = await administeredRepository(this.store, this.feeds, path, access);
    const owner = (await this.store.users.findById(w.repo.ownerId))!;
    const permission = roleFor(owner, input?.permission ?? "push", "permission");
    const invitee = await this.user(path.username);
    if (invitee.id === owner.id)
      throw validationFailed([
        { resource: "Repository", field: "", code: "custom", message: "Repository owner cannot be a collaborator" },
      ]);
    const member = owner.type === "Organization" && (await this.store.directory.isMember(owner.id, invitee.id));
    const scene = await this.acting.scene(w.repo, w.principal.user);
    const invitation = await this.acting.perform(scene, async (making) => {
      const { tx } = making;
      const before = await tx.collaborators.permission(w.repo.id, invitee.id);
      if (before !== null) {
        if (before === permission) return null;
        await tx.collaborators.set(w.repo.id, invitee.id, permission);
        making.webhook("member", "edited", {
          member: toWireSimpleUser(invitee, scene.baseUrl),
          changes: {
            old_permission: { from: LEGACY_PERMISSIONS[before] },
            permission: { from: LEGACY_PERMISSIONS[before], to: LEGACY_PERMISSIONS[permission] },
          },
        });
        return null;
      }
      if (member) {
        await collaboratorAdded(making, w.repo, invitee, permission, scene.actor);
        return null;
      }
      // One pending invitation per invitee: inviting again changes its role; an expired one is made anew.
      const pending = await tx.collaborators.invitationFor(w.repo.id, invitee.id);
      if (pending && !expiredAt(pending.createdAt, scene.at)) {
        await tx.collaborators.setInvitationPermission(pending.id, permission);
        return { ...pending, permission };
      }
      if (pending) await tx.collaborators.deleteInvitation(pending.id);
      return tx.collaborators.invite({
        repoId: w.repo.id,
        inviteeId: invitee.id,
        inviterId: scene.actor.id,
        permission,
        createdAt: scene.at,
      });
    });
    return invitation ? { invitation: await invitationView(this.store, invitation) } : null;
  }

  /** An administrator removes anyone; a collaborator may remove themselves. Nothing to remove is 204 too. */
  async remove(path: CollaboratorPath, access: ActionAccess): Promise<void> {
    const w = await writableRepository(this.store, this.feeds, path, access);
    const user = await this.user(path.username);
    if (!w.administers && user.id !== w.principal.user.id) throw mustHaveAdminRights();
    if ((await this.store.collaborators.permission(w.repo.id, user.id)) === null) return;
    const scene = await this.acting.scene(w.repo, w.principal.user);
    await this.acting.perform(scene, async (making) => {
      if (!(await making.tx.collaborators.remove(w.repo.id, user.id))) return;
      await making.tx.collaborators.deleteInvitationsBy(w.repo.id, user.id);
      making.webhook("member", "removed", { member: toWireSimpleUser(user, scene.baseUrl) });
    });
  }

  /** Where the clock stands, for an invitation's `expired`. */
  now(): Date {
    return this.parts.clock();
  }
}
