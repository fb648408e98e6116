/**
 * Collaborators and repository invitations (collaborator-store.ts), written once over the executor. Reads are one
 * after another, never at once: these run inside action transactions too, on one connection.
 */
import type { RepositoryPermission } from "../../api/collaborator-schemas.js";
import type {
  Affiliation,
  CollaboratorRow,
  CollaboratorStore,
  InvitationRow,
  NewInvitation,
} from "./collaborator-store.js";
import type { Executor } from "./executor.js";
import type { Page, PageRequest } from "./page.js";
import { date, type Time } from "./sql-values.js";
import { toUser, type UserRecord } from "./users.js";

/** The roles by strength, 1 (pull) to 5 (admin), for SQL to take the strongest of several grants. */
const RANKS: readonly RepositoryPermission[] = ["pull", "triage", "push", "maintain", "admin"];
const RANK_OF = (column: string) => `CASE ${column} ${RANKS.map((p, i) => `WHEN '${p}' THEN ${i + 1}`).join(" ")} END`;

/**
 * Who has access to the repository and how, one row per grant: its collaborators; for an `all` list also its owning
 * user (admin), the owning organization's owners (admin) and its members (the organization's base role, read).
 */
function grants(affiliation: Affiliation): string {
  const direct = `SELECT c.user_id, ${RANK_OF("c.permission")} AS rank FROM collaborators c WHERE c.repo_id = @repo`;
  if (affiliation === "direct") return direct;
  if (affiliation === "outside")
    return `${direct} AND NOT EXISTS (SELECT 1 FROM org_members m JOIN repos r ON r.owner_id = m.org_id
      WHERE r.id = @repo AND m.user_id = c.user_id)`;
  return `${direct}
    UNION ALL SELECT r.owner_id, 5 FROM repos r JOIN users o ON o.id = r.owner_id WHERE r.id = @repo AND o.type = 'User'
    UNION ALL SELECT m.user_id, CASE WHEN m.role = 'admin' THEN 5 ELSE 1 END
      FROM org_members m JOIN repos r ON r.owner_id = m.org_id WHERE r.id = @repo`;
}

interface InvitationRecord {
  id: number;
  repo_id: number;
  invitee_id: number;
  inviter_id: number;
  permission: RepositoryPermission;
  created_at: Time;
}

const toInvitation = (r: InvitationRecord): InvitationRow => ({
  id: Number(r.id),
  repoId: Number(r.repo_id),
  inviteeId: Number(r.invitee_id),
  inviterId: Number(r.inviter_id),
  permission: r.permission,
  createdAt: date(r.created_at),
});

export class Collaborators implements CollaboratorStore {
  constructor(private readonly db: Executor) {}

  /** One page of `sql` (ordered) and its count, read one after the other. */
  private async page<R, T>(
    sql: string,
    order: string,
    parameters: Record<string, unknown>,
    window: PageRequest,
    map: (r: R) => T,
  ): Promise<Page<T>> {
    const rows = await this.db.all<R>(`${sql} ORDER BY ${order} LIMIT @limit OFFSET @offset`, {
      ...parameters,
      limit: window.limit,
      offset: window.offset,
    });
    const count = await this.db.get<{ n: number }>(`SELECT count(*) AS n FROM (${sql}) AS listed`, parameters);
    return { rows: rows.map(map), total: Number(count!.n) };
  }

  async permission(repoId: number, userId: number) {
    const sql = "SELECT permission FROM collaborators WHERE repo_id = @repo AND user_id = @user";
    return (
      (await this.db.get<{ permission: RepositoryPermission }>(sql, { repo: repoId, user: userId }))?.permission ?? null
    );
  }

  async set(repoId: number, userId: number, permission: RepositoryPermission) {
    const before = await this.permission(repoId, userId);
    if (before === permission) return before;
    await this.db.run(
      `INSERT INTO collaborators (repo_id, user_id, permission) VALUES (@repo, @user, @permission)
       ON CONFLICT (repo_id, user_id) DO UPDATE SET permission = excluded.permission`,
      { repo: repoId, user: userId, permission },
    );
    return before;
  }

  async remove(repoId: number, userId: number) {
    const sql = "DELETE FROM collaborators WHERE repo_id = @repo AND user_id = @user";
    return (await this.db.run(sql, { repo: repoId, user: userId })).changes > 0;
  }

  async list(
    repoId: number,
    filter: { affiliation: Affiliation; minimum: RepositoryPermission | null },
    window: PageRequest,
  ): Promise<Page<CollaboratorRow>> {
    const sql = `SELECT u.*, max(g.rank) AS rank FROM (${grants(filter.affiliation)}) g JOIN users u ON u.id = g.user_id
      GROUP BY u.id HAVING max(g.rank) >= @minimum`;
    const minimum = filter.minimum === null ? 1 : RANKS.indexOf(filter.minimum) + 1;
    return this.page<UserRecord & { rank: number }, CollaboratorRow>(
      sql,
      "u.id",
      { repo: repoId, minimum },
      window,
      (r) => ({ user: toUser(r), permission: RANKS[Number(r.rank) - 1]! }),
    );
  }

  async invitation(id: number) {
    const r = await this.db.get<InvitationRecord>("SELECT * FROM repository_invitations WHERE id = @id", { id });
    return r ? toInvitation(r) : null;
  }

  async invitationFor(repoId: number, inviteeId: number) {
    const sql = "SELECT * FROM repository_invitations WHERE repo_id = @repo AND invitee_id = @invitee";
    const r = await this.db.get<InvitationRecord>(sql, { repo: repoId, invitee: inviteeId });
    return r ? toInvitation(r) : null;
  }

  async invite(invitation: NewInvitation) {
    const r = await this.db.get<InvitationRecord>(
      `INSERT INTO repository_invitations (repo_id, invitee_id, inviter_id, permission, created_at)
       VALUES (@repo, @invitee, @inviter, @permission, @at) RETURNING *`,
      {
        repo: invitation.repoId,
        invitee: invitation.inviteeId,
        inviter: invitation.inviterId,
        permission: invitation.permission,
        at: this.db.values.time(invitation.createdAt),
      },
    );
    return toInvitation(r!);
  }

  async setInvitationPermission(id: number, permission: RepositoryPermission) {
    await this.db.run("UPDATE repository_invitations SET permission = @permission WHERE id = @id", { id, permission });
  }

  async deleteInvitation(id: number) {
    return (await this.db.run("DELETE FROM repository_invitations WHERE id = @id", { id })).changes > 0;
  }

  async deleteInvitationsBy(repoId: number, inviterId: number) {
    const sql = "DELETE FROM repository_invitations WHERE repo_id = @repo AND inviter_id = @inviter";
    await this.db.run(sql, { repo: repoId, inviter: inviterId });
  }

  async repositoryInvitations(repoId: number, window: PageRequest) {
    return this.page<InvitationRecord, InvitationRow>(
      "SELECT * FROM repository_invitations WHERE repo_id = @repo",
      "id",
      { repo: repoId },
      window,
      toInvitation,
    );
  }

  async userInvitations(userId: number, since: Date, window: PageRequest) {
    return this.page<InvitationRecord, InvitationRow>(
      "SELECT * FROM repository_invitations WHERE invitee_id = @invitee AND created_at > @since",
      "id",
      { invitee: userId, since: this.db.values.time(since) },
      window,
      toInvitation,
    );
  }
}
