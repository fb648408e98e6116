/**
 * Commit comments as stored state (https://docs.github.com/rest/commits/comments): notes on a commit of a repository,
 * on the whole commit or on a file of it. Written in the action log's transaction with the CommitCommentEvent and the
 * `commit_comment` webhook their creation makes.
 */
import type { Page, PageRequest } from "./page.js";

export interface CommitCommentRow {
  /** Unique across repositories, as GitHub's comment ids are. */
  id: number;
  repoId: number;
  /** The SHA-1 of the commit it is on. */
  commitId: string;
  /** The author. */
  userId: number;
  body: string;
  /** The file it is on; null for a comment on the whole commit. */
  path: string | null;
  /** The line's index in the file's diff, as given. */
  position: number | null;
  /** The line of the file, as given (GitHub's closing-down `line`). */
  line: number | null;
  createdAt: Date;
  updatedAt: Date;
}

export type NewCommitComment = Omit<CommitCommentRow, "id">;

export interface CommitCommentStore {
  insert(comment: NewCommitComment): Promise<CommitCommentRow>;
  find(repoId: number, id: number): Promise<CommitCommentRow | null>;
  /** The comments of one commit (`commitId`) or of the whole repository, oldest first. */
  page(filter: { repoId: number; commitId?: string }, window: PageRequest): Promise<Page<CommitCommentRow>>;
  update(id: number, body: string, at: Date): Promise<CommitCommentRow>;
  /** Deletes the comment and the reactions on it. */
  delete(id: number): Promise<void>;
  /** How many comments each commit of the repository has, by SHA-1 (a commit's `comment_count`). */
  countsOf(repoId: number, commitIds: string[]): Promise<Map<string, number>>;
}
