/**
 * The SQL of the entry-point resources (`/users/:user`, `/repos/:owner/:repo`): counts and a caller's relation to a
 * repository, shared by the SQLite and PostgreSQL drivers so that both answer alike. Parameters are named (`@name`);
 * `private` is 0/1 in SQLite and a boolean in PostgreSQL, and `NOT private` / `private` read the same in both.
 */
import type { RepoRow } from "./directory-store.js";

/** A repository with its owner's login: each driver adds its WHERE (logins match case-insensitively in both). */
export const REPO_SELECT = "SELECT r.*, u.login AS owner_login FROM repos r JOIN users u ON u.id = r.owner_id";

export interface RepoRecord {
  id: number;
  owner_id: number;
  owner_login: string;
  name: string;
  private: number | boolean;
  network_id: number;
  external_id: number | null;
  parent_id: number | null;
}

export const toRepo = (r: RepoRecord): RepoRow => ({
  id: r.id,
  ownerId: r.owner_id,
  fullName: `${r.owner_login}/${r.name}`,
  private: Boolean(r.private),
  networkId: r.network_id,
  wireId: r.external_id ?? r.id,
  parentId: r.parent_id,
});

/** Followers, following, the repositories the account owns, public and private, and an organization's members. */
export const ACCOUNT_COUNTS = `SELECT
    (SELECT count(*) FROM follows WHERE followee_id = @id) AS followers,
    (SELECT count(*) FROM follows WHERE follower_id = @id) AS following,
    (SELECT count(*) FROM repos WHERE owner_id = @id AND NOT private) AS public_repos,
    (SELECT count(*) FROM repos WHERE owner_id = @id AND private) AS private_repos,
    (SELECT count(*) FROM org_members WHERE org_id = @id) AS members`;

/**
 * Watchers, direct forks, the other repositories of the fork network, and the times of the repository's stored
 * events (first, last, last push): min and max read the events_by_repo index's ends.
 */
export const REPO_STATS = `SELECT
    (SELECT count(*) FROM watches WHERE repo_id = @id) AS watchers,
    (SELECT count(*) FROM repos WHERE parent_id = @id) AS forks,
    (SELECT count(*) FROM repos WHERE network_id = (SELECT network_id FROM repos WHERE id = @id) AND id <> @id) AS network_forks,
    (SELECT min(created_at) FROM events WHERE repo_id = @id) AS first_event,
    (SELECT max(created_at) FROM events WHERE repo_id = @id) AS last_event,
    (SELECT max(created_at) FROM events WHERE repo_id = @id AND type = 'PushEvent') AS last_push`;

/**
 * What makes a user a reader of a repository (READABLE_REPOS in feed-sql.ts), named: the strongest relation wins. An
 * owner of the organization that owns the repository administers it, as the repository's owner does.
 */
export const REPO_ROLE = `SELECT CASE
    WHEN r.owner_id = @user THEN 'owner'
    WHEN EXISTS (SELECT 1 FROM org_members m WHERE m.org_id = r.owner_id AND m.user_id = @user AND m.role = 'admin') THEN 'owner'
    WHEN EXISTS (SELECT 1 FROM collaborators c WHERE c.repo_id = r.id AND c.user_id = @user) THEN 'collaborator'
    WHEN EXISTS (SELECT 1 FROM org_members m WHERE m.org_id = r.owner_id AND m.user_id = @user) THEN 'member'
  END AS role FROM repos r WHERE r.id = @repo`;

/** A user's role in an organization: no row when not a member. */
export const ORG_ROLE = "SELECT role FROM org_members WHERE org_id = @org AND user_id = @user";

export interface AccountCountsRecord {
  followers: number;
  following: number;
  public_repos: number;
  private_repos: number;
  members: number;
}
export interface RepoStatsRecord {
  watchers: number;
  forks: number;
  network_forks: number;
  first_event: number | null;
  last_event: number | null;
  last_push: number | null;
}

/** Event times are stored as epoch seconds. */
const time = (seconds: number | null) => (seconds === null ? null : new Date(Number(seconds) * 1000));

export const toAccountCounts = (r: AccountCountsRecord) => ({
  followers: Number(r.followers),
  following: Number(r.following),
  publicRepos: Number(r.public_repos),
  privateRepos: Number(r.private_repos),
  members: Number(r.members),
});

export const toRepoStats = (r: RepoStatsRecord) => ({
  watchers: Number(r.watchers),
  forks: Number(r.forks),
  networkForks: Number(r.network_forks),
  firstEventAt: time(r.first_event),
  lastEventAt: time(r.last_event),
  lastPushAt: time(r.last_push),
});
