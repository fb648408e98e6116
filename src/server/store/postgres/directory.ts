/** Repository look-ups, read-access checks and the entry points' counts in PostgreSQL. */
import type pg from "pg";
import { BY_WIRE_ID, READABLE_REPOS } from "../feed-sql.js";
import {
  ACCOUNT_COUNTS,
  ORG_ROLE,
  REPO_ROLE,
  REPO_SELECT,
  REPO_STATS,
  toAccountCounts,
  toRepo,
  toRepoStats,
  type AccountCountsRecord,
  type RepoRecord,
  type RepoStatsRecord,
} from "../directory-sql.js";
import type { DirectoryStore, OrgRole, RepoRole, RepoRow } from "../directory-store.js";
import { holdsNul, named } from "./pool.js";

export class PostgresDirectory implements DirectoryStore {
  constructor(private readonly pool: pg.Pool) {}

  async findRepo(owner: string, name: string): Promise<RepoRow | null> {
    if (holdsNul(owner, name)) return null;
    const { rows } = await this.pool.query<RepoRecord>(
      `${REPO_SELECT} WHERE lower(u.login) = lower($1) AND lower(r.name) = lower($2)`,
      [owner, name],
    );
    return rows[0] ? toRepo(rows[0]) : null;
  }

  async findRepoById(id: number): Promise<RepoRow | null> {
    const { rows } = await this.pool.query<RepoRecord>(`${REPO_SELECT} WHERE r.id = $1`, [id]);
    return rows[0] ? toRepo(rows[0]) : null;
  }

  async loginByWireId(wireId: number) {
    const { rows } = await this.pool.query<{ login: string }>(named(BY_WIRE_ID.account, { id: wireId }));
    return rows[0]?.login ?? null;
  }

  async repoNameByWireId(wireId: number) {
    const { rows } = await this.pool.query<{ name: string }>(named(BY_WIRE_ID.repo, { id: wireId }));
    return rows[0]?.name ?? null;
  }

  async canRead(userId: number, repoId: number) {
    const { rows } = await this.pool.query(
      named(`SELECT 1 WHERE @repo IN (${READABLE_REPOS})`, { repo: repoId, reader: userId }),
    );
    return rows.length > 0;
  }

  async isMember(orgId: number, userId: number) {
    const { rows } = await this.pool.query("SELECT 1 FROM org_members WHERE org_id = $1 AND user_id = $2", [
      orgId,
      userId,
    ]);
    return rows.length > 0;
  }

  async orgRole(orgId: number, userId: number) {
    const { rows } = await this.pool.query<{ role: OrgRole }>(named(ORG_ROLE, { org: orgId, user: userId }));
    return rows[0]?.role ?? null;
  }

  async accountCounts(accountId: number) {
    const { rows } = await this.pool.query<AccountCountsRecord>(named(ACCOUNT_COUNTS, { id: accountId }));
    return toAccountCounts(rows[0]!);
  }

  async repoStats(repoId: number) {
    const { rows } = await this.pool.query<RepoStatsRecord>(named(REPO_STATS, { id: repoId }));
    return toRepoStats(rows[0]!);
  }

  async repoRole(userId: number, repoId: number) {
    const { rows } = await this.pool.query<{ role: RepoRole | null }>(named(REPO_ROLE, { user: userId, repo: repoId }));
    return rows[0]?.role ?? null;
  }
}
