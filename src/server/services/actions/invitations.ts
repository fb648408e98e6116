/**
 * GitHub's repository invitations (https://docs.github.com/rest/collaborators/invitations): a repository's
 * administrators list, change and withdraw them; the invitee lists theirs and accepts or declines. Accepting is an
 * action of the log: the invitee becomes a collaborator with the invitation's role, and the repository's feed gets
 * MemberEvent `added` (its actor the inviter) and its hooks `member.added` (sent by the invitee), as GitHub makes
 * them. An invitation expires seven days after it was made, by the clock: the repository's list still shows it
 * (`expired: true`, as GitHub keeps it until withdrawn), the invitee's list does not, and accepting it is 404.
 * Declining or withdrawing deletes it and makes nothing else.
 */
import { expiredAt, INVITATION_LIFETIME_MS, permissionNamed } from "../../../api/collaborator-schemas.js";
import type { Endpoints } from "../../../api/endpoints.js";
import type { RequestOf } from "../../../api/schemas.js";
import type { InvitationView } from "../../convert/collaborator.js";
import { notFound } from "../../errors.js";
import type { InvitationRow, Page, PageRequest, Store } from "../../store/store.js";
import type { FeedParams, FeedService } from "../feeds.js";
import { accountCaller } from "./account-access.js";
import { Acting, numberOf, type ActionParts } from "./acting.js";
import { administeredRepository, collaboratorAdded, invitationView, roleFor } from "./members.js";
import type { ActionAccess } from "./repository-access.js";

type UpdateInput = RequestOf<Endpoints["collaborators"]["updateInvitation"], "body">;
export type InvitationPath = FeedParams & { invitation_id: string };

export class InvitationService {
  private readonly store: Store;
  private readonly feeds: FeedService;
  private readonly acting: Acting;

  constructor(private readonly parts: ActionParts) {
    ({ store: this.store, feeds: this.feeds } = parts);
    this.acting = new Acting(parts);
  }

  /** Where the clock stands, for an invitation's `expired`. */
  now(): Date {
    return this.parts.clock();
  }

  private async views(page: Page<InvitationRow>): Promise<Page<InvitationView>> {
    const rows: InvitationView[] = [];
    for (const invitation of page.rows) rows.push(await invitationView(this.store, invitation));
    return { rows, total: page.total };
  }

  private async find(id: string): Promise<InvitationRow> {
    const n = numberOf(id);
    const invitation = n === null ? null : await this.store.collaborators.invitation(n);
    if (!invitation) throw notFound();
    return invitation;
  }

  /** The repository's invitation the path names, for one of its administrators. */
  private async administered(path: InvitationPath, access: ActionAccess) {
    const w = await administeredRepository(this.store, this.feeds, path, access);
    const invitation = await this.find(path.invitation_id);
    if (invitation.repoId !== w.repo.id) throw notFound();
    return { w, invitation };
  }

  /** The caller's own invitation; anyone else's, or one expired, is not there for them. */
  private async own(id: string, access: ActionAccess, open: boolean) {
    const principal = accountCaller(access);
    const invitation = await this.find(id);
    if (invitation.inviteeId !== principal.user.id) throw notFound();
    if (open && expiredAt(invitation.createdAt, this.now())) throw notFound();
    return { principal, invitation };
  }

  async listForRepository(path: FeedParams, access: ActionAccess, window: PageRequest) {
    const w = await administeredRepository(this.store, this.feeds, path, access);
    return this.views(await this.store.collaborators.repositoryInvitations(w.repo.id, window));
  }

  async update(path: InvitationPath, input: UpdateInput | undefined, access: ActionAccess): Promise<InvitationView> {
    const { w, invitation } = await this.administered(path, access);
    if (input?.permissions === undefined) return invitationView(this.store, invitation);
    const owner = (await this.store.users.findById(w.repo.ownerId))!;
    const permission = roleFor(owner, permissionNamed(input.permissions), "permissions", input.permissions);
    const scene = await this.acting.scene(w.repo, w.principal.user);
    await this.acting.perform(scene, (making) =>
      making.tx.collaborators.setInvitationPermission(invitation.id, permission),
    );
    return invitationView(this.store, { ...invitation, permission });
  }

  async delete(path: InvitationPath, access: ActionAccess): Promise<void> {
    const { w, invitation } = await this.administered(path, access);
    const scene = await this.acting.scene(w.repo, w.principal.user);
    await this.acting.perform(scene, (making) => making.tx.collaborators.deleteInvitation(invitation.id));
  }

  async listForUser(access: ActionAccess, window: PageRequest): Promise<Page<InvitationView>> {
    const principal = accountCaller(access);
    const since = new Date(this.now().getTime() - INVITATION_LIFETIME_MS);
    return this.views(await this.store.collaborators.userInvitations(principal.user.id, since, window));
  }

  async accept(id: string, access: ActionAccess): Promise<void> {
    const { principal, invitation } = await this.own(id, access, true);
    const repo = (await this.store.directory.findRepoById(invitation.repoId))!;
    const inviter = (await this.store.users.findById(invitation.inviterId))!;
    const scene = await this.acting.scene(repo, principal.user);
    await this.acting.perform(scene, async (making) => {
      // Declined or withdrawn since it was read: nothing to accept.
      if (!(await making.tx.collaborators.deleteInvitation(invitation.id))) throw notFound();
      await collaboratorAdded(making, repo, principal.user, invitation.permission, inviter);
    });
  }

  async decline(id: string, access: ActionAccess): Promise<void> {
    const { invitation } = await this.own(id, access, false);
    const repo = (await this.store.directory.findRepoById(invitation.repoId))!;
    const scene = await this.acting.scene(repo, accountCaller(access).user);
    await this.acting.perform(scene, (making) => making.tx.collaborators.deleteInvitation(invitation.id));
  }
}
