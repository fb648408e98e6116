/**
 * Events API `type` -> the webhook event GitHub delivers for it (`X-GitHub-Event`), from GitHub's "GitHub event
 * types" and "Webhook events and payloads" pages (shared/data/webhooks/headers.md). Types without a webhook (GistEvent,
 * FollowEvent, ... of old history) are delivered to no hook. Pure GitHub data, read by the ingest plan, the delivery
 * queue and the console.
 */
export const WEBHOOK_EVENT_NAMES: Readonly<Record<string, string>> = {
  CommitCommentEvent: "commit_comment",
  CreateEvent: "create",
  DeleteEvent: "delete",
  ForkEvent: "fork",
  GollumEvent: "gollum",
  IssueCommentEvent: "issue_comment",
  IssuesEvent: "issues",
  MemberEvent: "member",
  PublicEvent: "public",
  PullRequestEvent: "pull_request",
  PullRequestReviewEvent: "pull_request_review",
  PullRequestReviewCommentEvent: "pull_request_review_comment",
  PushEvent: "push",
  ReleaseEvent: "release",
  // GitHub's WatchEvent is a star; its webhook of the same legacy name is `watch` (action `started`).
  WatchEvent: "watch",
};

/** Whether a hook subscribed to `events` gets a delivery of `name`: named, or `*` (everything). */
export function subscribes(events: readonly string[], name: string): boolean {
  return events.includes(name) || events.includes("*");
}

export function webhookEventName(type: string): string | null {
  return Object.hasOwn(WEBHOOK_EVENT_NAMES, type) ? WEBHOOK_EVENT_NAMES[type]! : null;
}
