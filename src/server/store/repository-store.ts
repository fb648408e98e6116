/**
 * Repositories as their own resource (`POST /user/repos`, `PATCH`/`DELETE /repos/{o}/{r}`, forks and the lists of an
 * account's repositories): the state the repository actions write, and the lists they read.
 */
import type { RepoRow, RepoSettings } from "./directory-store.js";
import type { Page, PageRequest } from "./page.js";
import type { PrivateReader } from "./relation-store.js";

export interface NewRepository {
  ownerId: number;
  name: string;
  private: boolean;
  /** For a fork: the repository forked, and its network; null for a repository that is its own network's root. */
  fork: { parentId: number; networkId: number } | null;
  settings: RepoSettings;
}

/** What an edit may change; each field left out stays as it is. A new name goes through `rename`. */
export type RepoChanges = Partial<Omit<RepoSettings, "createdAt">> & { private?: boolean };

/** How GitHub relates a user to a repository in `GET /user/repos`'s `affiliation`. */
export type RepoAffiliation = "owner" | "collaborator" | "organization_member";

export type RepoSort = "created" | "updated" | "pushed" | "full_name";

export interface RepoListQuery {
  /** The account whose repositories these are, by the affiliations named (an organization's: `owner`). */
  accountId: number;
  affiliations: readonly RepoAffiliation[];
  visibility: "all" | "public" | "private";
  /** Forks only, or those that are no fork. */
  forks?: "forks" | "sources";
  /** Whose private repositories may be listed (those this user reads); null: public ones only. */
  reader: PrivateReader;
  sort: RepoSort;
  direction: "asc" | "desc";
  /** Edited after, or before, this time (`since`, `before`). */
  since?: Date;
  before?: Date;
}

export type ForkSort = "newest" | "oldest" | "stargazers" | "watchers";

export interface RepositoryStore {
  /** Stores a repository; the caller has made sure the name is free on its owner. */
  insert(repo: NewRepository): Promise<RepoRow>;
  update(id: number, changes: RepoChanges, at: Date): Promise<RepoRow>;
  /** Gives the repository a new name, keeping the old one to redirect from (GitHub's 301). */
  rename(repo: RepoRow, name: string, at: Date): Promise<RepoRow>;
  /** The repository an old name of `owner`'s was renamed from; null when none was. */
  renamedFrom(owner: string, name: string): Promise<RepoRow | null>;
  /**
   * Deletes the repository and what only it holds (issues, labels, milestones, stars, hooks...). Its events stay in the
   * feeds that show them elsewhere (the actor's, the organization's, the public timeline), about no stored repository;
   * its forks stay, the oldest becoming its network's root.
   */
  delete(repo: RepoRow): Promise<void>;
  /** `ownerId`'s repository in the fork network, when it has one. */
  inNetwork(networkId: number, ownerId: number): Promise<RepoRow | null>;
  /** The repository's direct forks the reader may see. */
  forks(repoId: number, order: { sort: ForkSort; reader: PrivateReader }, window: PageRequest): Promise<Page<RepoRow>>;
  list(query: RepoListQuery, window: PageRequest): Promise<Page<RepoRow>>;
}
