/**
 * An issue's timeline (`GET /repos/{o}/{r}/issues/{n}/timeline`): the issue events made on it and its comments, in
 * the order they happened, one page of them. GitHub's timeline also holds what feedgate does not store yet (commits,
 * cross-references, reviews); the `commented` items are the timeline's own, never issue events
 * (wire notes 2.4). Both lists are read in time order up to the page's end and merged, so a page reads no more than
 * the items before and on it.
 */
import type { CommentFacts } from "../../convert/comment.js";
import type { IssueRow, Page, PageRequest, RepoRow, Store } from "../../store/store.js";
import { commentFacts } from "./comment-facts.js";

export type TimelineEntry = { kind: "event"; body: string } | { kind: "comment"; facts: CommentFacts };

/** Stored issue events keep whole seconds: comments are compared at the same grain. */
const second = (at: Date | string) => Math.floor(new Date(at).getTime() / 1000);

export async function issueTimeline(
  store: Store,
  repo: RepoRow,
  issue: IssueRow,
  window: PageRequest,
): Promise<Page<TimelineEntry>> {
  const reach = { limit: window.offset + window.limit, offset: 0 };
  const events = await store.issues.issueEventsOf(repo.id, issue.number, reach);
  const comments = await store.comments.page(
    { repoId: repo.id, issueId: issue.id, sort: "created", direction: "asc" },
    reach,
  );
  const items = [
    ...events.rows.map((body) => ({
      at: second((JSON.parse(body) as { created_at: string }).created_at),
      event: body,
      comment: null,
    })),
    ...comments.rows.map((row) => ({ at: second(row.createdAt), event: null, comment: row })),
  ];
  // At the same second a comment comes first: what it says (a mention, a close with a comment) makes the events.
  // The sort is stable, so each list keeps its own order within a second.
  items.sort((a, b) => a.at - b.at || Number(a.comment === null) - Number(b.comment === null));
  const page = items.slice(window.offset, window.offset + window.limit);
  const facts = await commentFacts(
    store,
    repo,
    page.flatMap((item) => (item.comment ? [item.comment] : [])),
  );
  const byId = new Map(facts.map((f) => [f.comment.id, f]));
  return {
    rows: page.map(
      (item): TimelineEntry =>
        item.comment ? { kind: "comment", facts: byId.get(item.comment.id)! } : { kind: "event", body: item.event! },
    ),
    total: events.total + comments.total,
  };
}
