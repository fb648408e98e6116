/**
 * What users have with repositories and with each other, as GitHub's activity API shows it: stars (`watches`, which a
 * WatchEvent makes), watching (subscriptions to a repository's notifications, apart from stars) and follows. Writes
 * are made through the action log (services/actions/), so that feeds and the numbers caches key on move with them.
 */
import type { RepoRow } from "./directory-store.js";
import type { Page, PageRequest } from "./page.js";
import type { UserRow } from "./user-store.js";

/** A star: the repository, and when it was made through the API (null for one from imported history). */
export interface StarRow {
  repo: RepoRow;
  starredAt: Date | null;
  /** The time of the WatchEvent that made it, for a star from history; null when none is stored. */
  eventAt: Date | null;
}

export interface StargazerRow {
  user: UserRow;
  starredAt: Date | null;
  eventAt: Date | null;
}

/** GitHub's notifications subscription to one repository. */
export interface SubscriptionRow {
  userId: number;
  repoId: number;
  subscribed: boolean;
  ignored: boolean;
  createdAt: Date;
}

/** `GET /user/starred`'s `sort`: when starred, or when the repository last changed (its newest stored event). */
export type StarSort = "created" | "updated";

/**
 * Which private repositories a list of repositories shows: those the reader may read (feed-sql.ts READABLE_REPOS);
 * null: public ones only.
 */
export type PrivateReader = number | null;

export interface RelationStore {
  /** Stars the repository; false (and nothing written) when it was starred already. */
  star(userId: number, repoId: number, at: Date): Promise<boolean>;
  /** Removes the star; false when there was none. */
  unstar(userId: number, repoId: number): Promise<boolean>;
  hasStarred(userId: number, repoId: number): Promise<boolean>;
  starred(
    userId: number,
    order: { sort: StarSort; direction: "asc" | "desc"; reader: PrivateReader },
    window: PageRequest,
  ): Promise<Page<StarRow>>;
  /** Who starred the repository, the earliest first, as GitHub lists them. */
  stargazers(repoId: number, window: PageRequest): Promise<Page<StargazerRow>>;

  subscription(userId: number, repoId: number): Promise<SubscriptionRow | null>;
  /** Makes or changes the subscription; `createdAt` stays the first one's. */
  setSubscription(row: SubscriptionRow): Promise<SubscriptionRow>;
  /** false when there was none. */
  deleteSubscription(userId: number, repoId: number): Promise<boolean>;
  /** Those subscribed (not merely ignoring), the earliest first. */
  subscribers(repoId: number, window: PageRequest): Promise<Page<UserRow>>;
  /** The repositories the user is subscribed to, the earliest first. */
  subscriptions(userId: number, reader: PrivateReader, window: PageRequest): Promise<Page<RepoRow>>;

  /** false when the follow was there already. */
  follow(followerId: number, followeeId: number): Promise<boolean>;
  /** false when there was none. */
  unfollow(followerId: number, followeeId: number): Promise<boolean>;
  follows(followerId: number, followeeId: number): Promise<boolean>;
  /** Those following the account, by account id (follows store no time). */
  followers(accountId: number, window: PageRequest): Promise<Page<UserRow>>;
  /** Those the account follows, by account id. */
  following(accountId: number, window: PageRequest): Promise<Page<UserRow>>;
}
