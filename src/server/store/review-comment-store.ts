/** Pull request review comments: notes on a line (or a file) of a pull request's diff, each in a review. */
import type { Page } from "./page.js";

export interface ReviewCommentRow {
  id: number;
  repoId: number;
  /** The pull request's issue id. */
  issueId: number;
  reviewId: number;
  userId: number;
  body: string;
  path: string;
  /** The commit whose diff it was made on. */
  commitId: string;
  /** The line of the file (on `side`); null for a comment on the whole file. */
  line: number | null;
  side: "LEFT" | "RIGHT" | null;
  startLine: number | null;
  startSide: "LEFT" | "RIGHT" | null;
  /** The line's index in the file's diff, GitHub's older `position`. */
  position: number | null;
  subjectType: "line" | "file";
  /** The diff's hunk up to the line, as GitHub shows it. */
  diffHunk: string;
  inReplyToId: number | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface ReviewCommentFilter {
  repoId: number;
  /** One pull request's (its issue id), or the repository's. */
  issueId?: number;
  /** Updated at or after. */
  since?: Date;
  sort: "created" | "updated";
  direction: "asc" | "desc";
}

export interface ReviewCommentStore {
  insert(comment: Omit<ReviewCommentRow, "id">): Promise<ReviewCommentRow>;
  find(repoId: number, id: number): Promise<ReviewCommentRow | null>;
  page(filter: ReviewCommentFilter, window: { limit: number; offset: number }): Promise<Page<ReviewCommentRow>>;
  update(id: number, body: string, at: Date): Promise<ReviewCommentRow>;
  /** Deletes the comment; its replies stay, answering none. */
  delete(id: number): Promise<void>;
  /** How many review comments each pull request has, by issue id. */
  countsOf(issueIds: number[]): Promise<Map<number, number>>;
}
