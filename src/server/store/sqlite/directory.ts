/** Repository look-ups, read-access checks and the entry points' counts in SQLite. */
import type Database from "better-sqlite3";
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
import type { DirectoryStore, OrgRole, RepoRole } from "../directory-store.js";

export class SqliteDirectory implements DirectoryStore {
  private readonly repo;
  private readonly readable;
  private readonly member;
  private readonly login;
  private readonly repoName;
  private readonly repoById;
  private readonly counts;
  private readonly stats;
  private readonly role;
  private readonly orgRoles;

  constructor(db: Database.Database) {
    this.repo = db.prepare<[string, string], RepoRecord>(`${REPO_SELECT} WHERE u.login = ? AND r.name = ?`);
    this.repoById = db.prepare<[number], RepoRecord>(`${REPO_SELECT} WHERE r.id = ?`);
    this.readable = db.prepare<{ reader: number; repo: number }, { ok: number }>(
      `SELECT 1 AS ok WHERE @repo IN (${READABLE_REPOS})`,
    );
    this.member = db.prepare<[number, number], { ok: number }>(
      "SELECT 1 AS ok FROM org_members WHERE org_id = ? AND user_id = ?",
    );
    this.login = db.prepare<{ id: number }, { login: string }>(BY_WIRE_ID.account);
    this.repoName = db.prepare<{ id: number }, { name: string }>(BY_WIRE_ID.repo);
    this.counts = db.prepare<{ id: number }, AccountCountsRecord>(ACCOUNT_COUNTS);
    this.stats = db.prepare<{ id: number }, RepoStatsRecord>(REPO_STATS);
    this.role = db.prepare<{ user: number; repo: number }, { role: RepoRole | null }>(REPO_ROLE);
    this.orgRoles = db.prepare<{ org: number; user: number }, { role: OrgRole }>(ORG_ROLE);
  }

  async loginByWireId(wireId: number) {
    return this.login.get({ id: wireId })?.login ?? null;
  }

  async repoNameByWireId(wireId: number) {
    return this.repoName.get({ id: wireId })?.name ?? null;
  }

  async findRepo(owner: string, name: string) {
    const r = this.repo.get(owner, name);
    return r ? toRepo(r) : null;
  }

  async findRepoById(id: number) {
    const r = this.repoById.get(id);
    return r ? toRepo(r) : null;
  }

  async canRead(userId: number, repoId: number) {
    return this.readable.get({ reader: userId, repo: repoId }) !== undefined;
  }

  async isMember(orgId: number, userId: number) {
    return this.member.get(orgId, userId) !== undefined;
  }

  async orgRole(orgId: number, userId: number) {
    return this.orgRoles.get({ org: orgId, user: userId })?.role ?? null;
  }

  async accountCounts(accountId: number) {
    return toAccountCounts(this.counts.get({ id: accountId })!);
  }

  async repoStats(repoId: number) {
    return toRepoStats(this.stats.get({ id: repoId })!);
  }

  async repoRole(userId: number, repoId: number) {
    return this.role.get({ user: userId, repo: repoId })?.role ?? null;
  }
}
