/**
 * Stars and subscriptions -> GitHub's wire objects: stargazers and starred repositories as
 * `application/vnd.github.star+json` shows them, and the repository subscription. The only place that shapes them.
 */
import type { RepositorySubscription, Stargazer, StarredRepository } from "../../api/activity-schemas.js";
import type { ParentRepository } from "../../api/schemas.js";
import type { StargazerRow, SubscriptionRow } from "../store/store.js";
import { isoSeconds } from "./time.js";
import { toWireSimpleUser } from "./user.js";

/** Before any star: what star+json answers when neither the API nor a stored WatchEvent says when one was made. */
const UNKNOWN_TIME = new Date(0);

/**
 * When a star was made: through the API, else its WatchEvent's time (a star from history), else the epoch, as
 * star+json's `starred_at` is required.
 */
export const starTime = (star: { starredAt: Date | null; eventAt: Date | null }): string =>
  isoSeconds(star.starredAt ?? star.eventAt ?? UNKNOWN_TIME);

export function toWireStargazer(row: StargazerRow, baseUrl: string): Stargazer {
  return { starred_at: starTime(row), user: toWireSimpleUser(row.user, baseUrl) };
}

export function toWireStarredRepository(
  star: { starredAt: Date | null; eventAt: Date | null },
  repo: ParentRepository,
): StarredRepository {
  return { starred_at: starTime(star), repo };
}

export function toWireSubscription(row: SubscriptionRow, fullName: string, baseUrl: string): RepositorySubscription {
  const repository = `${baseUrl}/repos/${fullName}`;
  return {
    subscribed: row.subscribed,
    ignored: row.ignored,
    reason: null,
    created_at: isoSeconds(row.createdAt),
    url: `${repository}/subscription`,
    repository_url: repository,
  };
}
