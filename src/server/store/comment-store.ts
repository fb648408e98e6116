/** Issue comments and reactions: the state the comment and reaction actions write (services/actions/comments.ts). */
import type { ReactionContent } from "../../api/issue-schemas.js";
import type { Page, PageRequest } from "./page.js";

export interface CommentRow {
  /** Unique across repositories, as GitHub's comment ids are: a comment is found by its id alone. */
  id: number;
  repoId: number;
  issueId: number;
  /** The number of its issue, which its URLs name. */
  issueNumber: number;
  /** The author. */
  userId: number;
  body: string;
  createdAt: Date;
  updatedAt: Date;
}

export interface NewComment {
  repoId: number;
  issueId: number;
  userId: number;
  body: string;
  at: Date;
}

/** What the two comment lists filter and sort on: one issue's (by creation, oldest first) or a repository's. */
export interface CommentFilter {
  repoId: number;
  /** One issue's comments; every issue's of the repository when left out. */
  issueId?: number;
  /** Updated at or after. */
  since?: Date;
  sort: "created" | "updated";
  direction: "asc" | "desc";
}

/** What a reaction is on: an issue, an issue comment or a commit comment (the table's `subject_type`). */
export type ReactionSubject = { type: "issue" | "comment" | "commit_comment"; id: number };

export interface ReactionRow {
  id: number;
  subject: ReactionSubject;
  userId: number;
  content: ReactionContent;
  createdAt: Date;
}

/** Reactions by content, for a roll-up; contents nobody used are left out. */
export type ReactionCountsRow = Partial<Record<ReactionContent, number>>;

export interface CommentStore {
  insert(comment: NewComment): Promise<CommentRow>;
  find(id: number): Promise<CommentRow | null>;
  page(filter: CommentFilter, window: PageRequest): Promise<Page<CommentRow>>;
  /** Sets the body; `at` is its `updated_at`. */
  update(id: number, body: string, at: Date): Promise<CommentRow>;
  /** Deletes the comment and the reactions on it. */
  delete(id: number): Promise<void>;
}

export interface ReactionStore {
  /** Stores the reaction, or answers the one the user already gave with that content (`created: false`). */
  insert(reaction: Omit<ReactionRow, "id">): Promise<{ row: ReactionRow; created: boolean }>;
  find(subject: ReactionSubject, id: number): Promise<ReactionRow | null>;
  /** The reactions on one subject, oldest first; of one content when given. */
  page(subject: ReactionSubject, content: ReactionContent | undefined, window: PageRequest): Promise<Page<ReactionRow>>;
  delete(id: number): Promise<void>;
  /** The counts by content of each subject of one type, by its id: one grouped query for a whole page. */
  countsOf(type: ReactionSubject["type"], ids: number[]): Promise<Map<number, ReactionCountsRow>>;
}
