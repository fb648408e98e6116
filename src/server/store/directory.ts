/**
 * Repository look-ups, read-access checks and the entry points' counts (`/users/:user`, `/repos/:owner/:repo`),
 * written once over the executor so that both drivers answer alike. `private` is 0/1 in SQLite and a boolean in
 * PostgreSQL, and `NOT private` / `private` read the same in both.
 */
import type { RepositoryPermission } from "../../api/collaborator-schemas.js";
import type { DirectoryStore, OrgRole, RepoAccess, RepoRole, RepoRow } from "./directory-store.js";
import type { Executor } from "./executor.js";
import { toUser, type UserRecord } from "./users.js";
import { BY_WIRE_ID, READABLE_REPOS, type Dialect } from "./feed-sql.js";
import { holdsNul } from "./nul.js";
import { date, type Bool, type Time } from "./sql-values.js";

/** A repository with its owner's login. */
/** A repository's row with its owner's login: the columns toRepo reads, and where they come from. */
const REPO_COLUMNS = "r.*, u.login AS owner_login";
const REPO_FROM = "FROM repos r JOIN users u ON u.id = r.owner_id";
export const REPO_SELECT = `SELECT ${REPO_COLUMNS} ${REPO_FROM}`;

/**
 * Owner and name match case-insensitively, as on GitHub: SQLite's columns are COLLATE NOCASE; PostgreSQL's indexes
 * are on lower().
 */
const REPO_NAMED: Record<Dialect, string> = {
  sqlite: "u.login = @owner AND r.name = @name",
  postgres: "lower(u.login) = lower(@owner) AND lower(r.name) = lower(@name)",
};

export interface RepoRecord {
  id: number;
  owner_id: number;
  owner_login: string;
  name: string;
  private: number | boolean;
  network_id: number;
  external_id: number | null;
  parent_id: number | null;
  description: string | null;
  homepage: string | null;
  has_issues: Bool;
  has_projects: Bool;
  has_wiki: Bool;
  default_branch: string | null;
  archived: Bool;
  created_at: Time | null;
  updated_at: Time | null;
}

export const toRepo = (r: RepoRecord): RepoRow => ({
  id: r.id,
  ownerId: r.owner_id,
  fullName: `${r.owner_login}/${r.name}`,
  private: Boolean(r.private),
  networkId: r.network_id,
  wireId: r.external_id ?? r.id,
  parentId: r.parent_id,
  settings: {
    description: r.description,
    homepage: r.homepage,
    hasIssues: Boolean(r.has_issues),
    hasProjects: Boolean(r.has_projects),
    hasWiki: Boolean(r.has_wiki),
    defaultBranch: r.default_branch,
    archived: Boolean(r.archived),
    createdAt: r.created_at === null ? null : date(r.created_at),
    updatedAt: r.updated_at === null ? null : date(r.updated_at),
  },
});

/** Followers, following, the repositories the account owns, public and private, and an organization's members. */
const ACCOUNT_COUNTS = `SELECT
    (SELECT count(*) FROM follows WHERE followee_id = @id) AS followers,
    (SELECT count(*) FROM follows WHERE follower_id = @id) AS following,
    (SELECT count(*) FROM repos WHERE owner_id = @id AND NOT private) AS public_repos,
    (SELECT count(*) FROM repos WHERE owner_id = @id AND private) AS private_repos,
    (SELECT count(*) FROM org_members WHERE org_id = @id) AS members`;

/**
 * Stargazers (`watches`), subscribers (watching, the notifications subscription), direct forks, the other repositories
 * of the fork network, and the times of the repository's stored events (first, last, last push): min and max read the
 * events_by_repo index's ends, the last push events_pushes_by_repo's (migration 40).
 */
export const REPO_STATS = `SELECT
    (SELECT count(*) FROM watches WHERE repo_id = @id) AS watchers,
    (SELECT count(*) FROM subscriptions WHERE repo_id = @id AND subscribed) AS subscribers,
    (SELECT count(*) FROM repos WHERE parent_id = @id) AS forks,
    (SELECT count(*) FROM repos WHERE network_id = (SELECT network_id FROM repos WHERE id = @id) AND id <> @id) AS network_forks,
    (SELECT count(*) FROM issues WHERE repo_id = @id AND state = 'open') AS open_issues,
    (SELECT min(created_at) FROM events WHERE repo_id = @id) AS first_event,
    (SELECT max(created_at) FROM events WHERE repo_id = @id) AS last_event,
    (SELECT max(created_at) FROM events WHERE repo_id = @id AND type = 'PushEvent') AS last_push`;

/**
 * What makes a user a reader of a repository (READABLE_REPOS in feed-sql.ts), named: the strongest relation wins. An
 * owner of the organization that owns the repository administers it, as the repository's owner does. With it, the
 * role stored for a collaborator (an organization's member may be one too).
 */
const REPO_ROLE = `SELECT CASE
    WHEN r.owner_id = @user THEN 'owner'
    WHEN EXISTS (SELECT 1 FROM org_members m WHERE m.org_id = r.owner_id AND m.user_id = @user AND m.role = 'admin') THEN 'owner'
    WHEN EXISTS (SELECT 1 FROM collaborators c WHERE c.repo_id = r.id AND c.user_id = @user) THEN 'collaborator'
    WHEN EXISTS (SELECT 1 FROM org_members m WHERE m.org_id = r.owner_id AND m.user_id = @user) THEN 'member'
  END AS role,
  (SELECT c.permission FROM collaborators c WHERE c.repo_id = r.id AND c.user_id = @user) AS permission
  FROM repos r WHERE r.id = @repo`;

/** A user's role in an organization: no row when not a member. */
const ORG_ROLE = "SELECT role FROM org_members WHERE org_id = @org AND user_id = @user";
const OWNED_ORGANIZATIONS = `SELECT u.* FROM org_members m JOIN users u ON u.id = m.org_id
  WHERE m.user_id = @user AND m.role = 'admin' ORDER BY u.login`;

interface AccountCountsRecord {
  followers: number;
  following: number;
  public_repos: number;
  private_repos: number;
  members: number;
}
interface RepoStatsRecord {
  watchers: number;
  subscribers: number;
  forks: number;
  network_forks: number;
  open_issues: number;
  first_event: number | null;
  last_event: number | null;
  last_push: number | null;
}

/** Event times are stored as epoch seconds. */
const time = (seconds: number | null) => (seconds === null ? null : new Date(Number(seconds) * 1000));

const toAccountCounts = (r: AccountCountsRecord) => ({
  followers: Number(r.followers),
  following: Number(r.following),
  publicRepos: Number(r.public_repos),
  privateRepos: Number(r.private_repos),
  members: Number(r.members),
});

const toRepoStats = (r: RepoStatsRecord) => ({
  watchers: Number(r.watchers),
  subscribers: Number(r.subscribers),
  forks: Number(r.forks),
  networkForks: Number(r.network_forks),
  openIssues: Number(r.open_issues),
  firstEventAt: time(r.first_event),
  lastEventAt: time(r.last_event),
  lastPushAt: time(r.last_push),
});

export class Directory implements DirectoryStore {
  constructor(private readonly db: Executor) {}

  async loginByWireId(wireId: number) {
    return (await this.db.get<{ login: string }>(BY_WIRE_ID.account, { id: wireId }))?.login ?? null;
  }

  async repoNameByWireId(wireId: number) {
    return (await this.db.get<{ name: string }>(BY_WIRE_ID.repo, { id: wireId }))?.name ?? null;
  }

  async findRepo(owner: string, name: string): Promise<RepoRow | null> {
    if (this.db.dialect === "postgres" && holdsNul(owner, name)) return null;
    const r = await this.db.get<RepoRecord>(`${REPO_SELECT} WHERE ${REPO_NAMED[this.db.dialect]}`, { owner, name });
    return r ? toRepo(r) : null;
  }

  async findRepoById(id: number): Promise<RepoRow | null> {
    const r = await this.db.get<RepoRecord>(`${REPO_SELECT} WHERE r.id = @id`, { id });
    return r ? toRepo(r) : null;
  }

  async canRead(userId: number, repoId: number) {
    const sql = `SELECT 1 AS ok WHERE @repo IN (${READABLE_REPOS})`;
    return (await this.db.get(sql, { reader: userId, repo: repoId })) !== undefined;
  }

  async isMember(orgId: number, userId: number) {
    const sql = "SELECT 1 AS ok FROM org_members WHERE org_id = @org AND user_id = @user";
    return (await this.db.get(sql, { org: orgId, user: userId })) !== undefined;
  }

  async orgRole(orgId: number, userId: number) {
    return (await this.db.get<{ role: OrgRole }>(ORG_ROLE, { org: orgId, user: userId }))?.role ?? null;
  }

  async ownedOrganizations(userId: number) {
    return (await this.db.all<UserRecord>(OWNED_ORGANIZATIONS, { user: userId })).map(toUser);
  }

  async accountCounts(accountId: number) {
    return toAccountCounts((await this.db.get<AccountCountsRecord>(ACCOUNT_COUNTS, { id: accountId }))!);
  }

  async repoStats(repoId: number) {
    return toRepoStats((await this.db.get<RepoStatsRecord>(REPO_STATS, { id: repoId }))!);
  }

  async repoWithStats(id: number) {
    // The stats' names are none of repos' columns, so the row splits back into both.
    const r = await this.db.get<RepoRecord & RepoStatsRecord>(
      `SELECT ${REPO_COLUMNS}, s.* ${REPO_FROM} CROSS JOIN (${REPO_STATS}) s WHERE r.id = @id`,
      { id },
    );
    return r ? { repo: toRepo(r), stats: toRepoStats(r) } : null;
  }

  async repoRole(userId: number, repoId: number) {
    return (await this.repoAccess(userId, repoId))?.role ?? null;
  }

  async repoAccess(userId: number, repoId: number): Promise<RepoAccess | null> {
    const r = await this.db.get<{ role: RepoRole | null; permission: RepositoryPermission | null }>(REPO_ROLE, {
      user: userId,
      repo: repoId,
    });
    if (!r?.role) return null;
    const permission = r.role === "owner" ? "admin" : (r.permission ?? "pull");
    return { role: r.role, permission };
  }
}
