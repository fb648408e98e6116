/**
 * One event of a feed as the console shows it, whether in a page or on its live stream: the sentence, the type, when
 * (an ISO time and "3 minutes ago" by the server's clock, which is the clock the events were stored by), and the
 * organization's page when the event has one. Made from the event's wire JSON, so the console reads events exactly
 * as the API returns them.
 */
import type { StoredEvent } from "../store/store.js";
import { toWireEventJson } from "../convert/event.js";
import { eventSentence, orgHref, type Segment } from "./event-sentence.js";

export interface ActivityItem {
  id: string;
  type: string;
  /** ISO 8601, for `<time datetime>`. */
  at: string;
  ago: string;
  sentence: Segment[];
  org: { text: string; href: string } | null;
}

const UNITS: [number, string][] = [
  [365 * 86400, "year"],
  [30 * 86400, "month"],
  [86400, "day"],
  [3600, "hour"],
  [60, "minute"],
];

/** "just now", "3 minutes ago", "1 day ago": GitHub's wording, coarse on purpose. */
export function relativeTime(at: Date, now: Date): string {
  const seconds = Math.floor((now.getTime() - at.getTime()) / 1000);
  // A clock a little behind the event's (another instance, an imported future time) still reads naturally.
  if (seconds < 45) return "just now";
  for (const [size, unit] of UNITS) {
    const count = Math.floor(seconds / size);
    if (count >= 1) return `${count} ${unit}${count === 1 ? "" : "s"} ago`;
  }
  return `${seconds} seconds ago`;
}

export function activityItem(row: StoredEvent, now: Date): ActivityItem {
  // The base URL only completes partial envelopes' API URLs, which the console does not show.
  const event = JSON.parse(toWireEventJson(row, "")) as { id?: unknown; type?: unknown; org?: { login?: unknown } };
  const orgLogin = typeof event.org?.login === "string" ? event.org.login : null;
  return {
    id: String(event.id ?? ""),
    type: typeof event.type === "string" ? event.type : "Event",
    at: row.createdAt.toISOString(),
    ago: relativeTime(row.createdAt, now),
    sentence: eventSentence(event),
    org: orgLogin ? { text: orgLogin, href: orgHref(orgLogin) } : null,
  };
}
