/**
 * What a comment or reaction path names, found in a repository the caller sees: the issue by its number, the comment
 * by its id (a comment of another repository is not found here, though ids are unique across them). 404 otherwise.
 */
import { notFound } from "../../errors.js";
import type { CommentRow, IssueRow, RepoRow, Store } from "../../store/store.js";
import type { FeedParams } from "../feeds.js";

export type IssuePath = FeedParams & { issue_number: string };
export type CommentPath = FeedParams & { comment_id: string };

/** A path's number: digits by the row's pattern, and within what the database holds. */
export function numberIn(text: string): number {
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n < 1) throw notFound();
  return n;
}

export async function foundIssue(store: Pick<Store, "issues">, repo: RepoRow, path: IssuePath): Promise<IssueRow> {
  const issue = await store.issues.find(repo.id, numberIn(path.issue_number));
  if (!issue) throw notFound();
  return issue;
}

export async function foundComment(
  store: Pick<Store, "comments">,
  repo: RepoRow,
  path: CommentPath,
): Promise<CommentRow> {
  const comment = await store.comments.find(numberIn(path.comment_id));
  if (!comment || comment.repoId !== repo.id) throw notFound();
  return comment;
}
