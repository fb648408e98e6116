import type { RepositoryPermission } from "../../api/collaborator-schemas.js";
import type { UserRow } from "./user-store.js";

/** Repositories, who may read them, and the counts the entry points (`/users/:user`, `/repos/:owner/:repo`) show. */

export interface RepoRow {
  id: number;
  ownerId: number;
  /** `owner/name`, with the letter case stored. */
  fullName: string;
  private: boolean;
  /** The fork network: the id of the network's root repository. */
  networkId: number;
  wireId: number;
  /** The repository this one was forked from; null for a network's root. */
  parentId: number | null;
  settings: RepoSettings;
}

/**
 * What a repository keeps of its own (migration 26), as made or edited through the API. A repository of a world file
 * or an import has stored none: no description, no default branch, and no times (its events' are its times).
 */
export interface RepoSettings {
  description: string | null;
  homepage: string | null;
  hasIssues: boolean;
  hasProjects: boolean;
  hasWiki: boolean;
  /** Null where no branch was ever named (no git data): GitHub's object then says "". */
  defaultBranch: string | null;
  /** Read-only: every write to it or its issues is GitHub's 403. */
  archived: boolean;
  /** When it was made through the API, and last edited there; null for a repository made otherwise. */
  createdAt: Date | null;
  updatedAt: Date | null;
}

/** Counts an account shows (`/users/:user`). */
export interface AccountCounts {
  followers: number;
  following: number;
  /** Repositories the account owns, by visibility. */
  publicRepos: number;
  privateRepos: number;
  /** An organization's members, its owners included (none for a user). */
  members: number;
}

/** Counts and times a repository shows (`/repos/:owner/:repo`), from its relations and stored events. */
export interface RepoStats {
  /** Stargazers: GitHub's `watchers_count` is its stars, as WatchEvent is its star. */
  watchers: number;
  /** Those watching it (subscribed to its notifications): `subscribers_count`. */
  subscribers: number;
  /** Direct forks. */
  forks: number;
  /** Every other repository of its fork network. */
  networkForks: number;
  /** Its open issues and pull requests (a pull request is an issue too): GitHub's `open_issues_count`. */
  openIssues: number;
  /** Times of its first and last stored events, and of its last PushEvent; null when it has none. */
  firstEventAt: Date | null;
  lastEventAt: Date | null;
  lastPushAt: Date | null;
}

/**
 * Why a user may read a repository (the relations of `canRead`), the strongest first. An owner of the organization
 * that owns the repository is its `owner` too: GitHub gives organization owners admin access to every repository.
 */
export type RepoRole = "owner" | "collaborator" | "member";

/**
 * A reader's relation to a repository and the role it gives: an owner administers; a collaborator has the role
 * stored for them; a member of the owning organization has the organization's base role, read.
 */
export interface RepoAccess {
  role: RepoRole;
  permission: RepositoryPermission;
}

/** GitHub's roles in an organization, as its API names them: `admin` is an owner. */
export type OrgRole = "admin" | "member";

export interface DirectoryStore {
  findRepo(owner: string, name: string): Promise<RepoRow | null>;
  /** The login of the account with that wire id (GitHub's id from imported data first, else the row id). */
  loginByWireId(wireId: number): Promise<string | null>;
  /** The `owner/name` of the repository with that wire id. */
  repoNameByWireId(wireId: number): Promise<string | null>;
  /** Owner, collaborator, or member of the organization that owns the repository. */
  canRead(userId: number, repoId: number): Promise<boolean>;
  isMember(orgId: number, userId: number): Promise<boolean>;
  /** The user's role in the organization; null when not a member. */
  orgRole(orgId: number, userId: number): Promise<OrgRole | null>;
  /** The organizations the user owns (role `admin`), by login. */
  ownedOrganizations(userId: number): Promise<UserRow[]>;
  /** A repository by its row id (a fork's parent, a network's root). */
  findRepoById(id: number): Promise<RepoRow | null>;
  accountCounts(accountId: number): Promise<AccountCounts>;
  repoStats(repoId: number): Promise<RepoStats>;
  /** findRepoById and repoStats in one statement: what a webhook's `repository` is made of. */
  repoWithStats(id: number): Promise<{ repo: RepoRow; stats: RepoStats } | null>;
  /** The user's strongest relation to the repository; null exactly when `canRead` is false. */
  repoRole(userId: number, repoId: number): Promise<RepoRole | null>;
  /** The same with the role's permission; null exactly when `canRead` is false. */
  repoAccess(userId: number, repoId: number): Promise<RepoAccess | null>;
}
