/**
 * Which feed a console activity page shows, and one page of it as items. Every read goes through FeedService with
 * the signed-in user as a password principal (the user proved the password at sign-in), so the pages follow the
 * API's rules exactly: a private repository's page is 404 to a stranger, the user sees their own private events.
 */
import type { Principal } from "../services/authenticator.js";
import type { FeedName, FeedParams, FeedService } from "../services/feeds.js";
import type { UserRow } from "../store/store.js";
import { activityItem, type ActivityItem } from "./activity-item.js";

export const PAGE_SIZE = 30;
/**
 * The store filters feeds by visibility, not by type, so a type filter reads the feed from its start and keeps the
 * matching events: at most this many events are read for one page, which bounds a filtered page's cost (the type is
 * asked for among the recent events; the filter says so when it stopped early).
 */
export const FILTER_SCAN_LIMIT = 3000;
const SCAN_CHUNK = 100;

export interface FeedView {
  feed: FeedName;
  params: FeedParams;
  /** The page's URL path: its items and stream are under it. */
  path: string;
}

export const sessionPrincipal = (user: UserRow): Principal => ({ kind: "password", user });

export interface ItemsPage {
  items: ActivityItem[];
  /** The next page's number, or null at the end. */
  next: number | null;
  /** A filtered read stopped at FILTER_SCAN_LIMIT before the feed's end. */
  truncated: boolean;
}

export async function readItems(
  feeds: FeedService,
  view: FeedView,
  user: UserRow,
  page: number,
  type: string | null,
  now: Date,
): Promise<ItemsPage> {
  const principal = sessionPrincipal(user);
  if (type === null) {
    const offset = (page - 1) * PAGE_SIZE;
    const { rows, total } = await feeds.page(view.feed, view.params, principal, { offset, limit: PAGE_SIZE });
    return {
      items: rows.map((row) => activityItem(row, now)),
      next: offset + rows.length < total ? page + 1 : null,
      truncated: false,
    };
  }
  // One more than the page holds tells whether there is a next page.
  const skip = (page - 1) * PAGE_SIZE;
  const matching: ActivityItem[] = [];
  for (let offset = 0; offset < FILTER_SCAN_LIMIT; offset += SCAN_CHUNK) {
    const { rows, total } = await feeds.page(view.feed, view.params, principal, { offset, limit: SCAN_CHUNK });
    for (const row of rows) {
      const item = activityItem(row, now);
      if (item.type === type) matching.push(item);
    }
    if (matching.length > skip + PAGE_SIZE) break;
    if (offset + rows.length >= total || rows.length === 0) {
      return { items: matching.slice(skip, skip + PAGE_SIZE), next: null, truncated: false };
    }
  }
  const more = matching.length > skip + PAGE_SIZE;
  return { items: matching.slice(skip, skip + PAGE_SIZE), next: more ? page + 1 : null, truncated: !more };
}
