/**
 * Pull requests: what a pull request has beyond its issue (store/issue-store.ts holds its number, title, body, state,
 * labels and assignees), its requested reviewers and its reviews.
 */
import type { IssueRow } from "./issue-store.js";
import type { Page } from "./page.js";

export interface PullRow {
  /** Its issue's id, which is also the pull request's `id` on the wire. */
  issueId: number;
  repoId: number;
  number: number;
  /** The repository its head branch is in (this one or a fork); null once that repository is gone. */
  headRepoId: number | null;
  headRef: string;
  /** The head branch's commit when the pull request last saw it move. */
  headSha: string;
  baseRef: string;
  /** The base branch's commit when the pull request last saw it move. */
  baseSha: string;
  draft: boolean;
  maintainerCanModify: boolean;
  mergedAt: Date | null;
  mergedById: number | null;
  mergeCommitSha: string | null;
}

export type NewPull = Omit<PullRow, "mergedAt" | "mergedById" | "mergeCommitSha">;

/** The columns an update may set; each left out stays as it is. */
export type PullChanges = Partial<
  Pick<
    PullRow,
    "headSha" | "baseRef" | "baseSha" | "draft" | "maintainerCanModify" | "mergedAt" | "mergedById" | "mergeCommitSha"
  >
>;

export type ReviewState = "PENDING" | "APPROVED" | "CHANGES_REQUESTED" | "COMMENTED" | "DISMISSED";

export interface ReviewRow {
  id: number;
  /** The pull request's issue id. */
  issueId: number;
  userId: number;
  state: ReviewState;
  body: string;
  /** The head commit it reviewed. */
  commitId: string;
  /** Null while pending. */
  submittedAt: Date | null;
  createdAt: Date;
}

export type PullSort = "created" | "updated" | "popularity" | "long-running";

/** What `GET /repos/{o}/{r}/pulls` filters on. */
export interface PullFilter {
  repoId: number;
  state: "open" | "closed" | "all";
  /** The head's repository and branch (`head=user:ref`). */
  head?: { repoId: number; ref: string };
  base?: string;
  sort: PullSort;
  direction: "asc" | "desc";
}

export interface PullStore {
  insert(pull: NewPull): Promise<PullRow>;
  find(repoId: number, number: number): Promise<PullRow | null>;
  /** The pull requests of these issues, by issue id: which of them are pull requests. */
  byIssueIds(issueIds: number[]): Promise<Map<number, PullRow>>;
  /** The issues of the repository's pull requests as filtered, with their total. */
  page(filter: PullFilter, window: { limit: number; offset: number }): Promise<Page<IssueRow>>;
  /** The open pull requests whose head is this branch of this repository (a push to it moves them). */
  openWithHead(headRepoId: number, ref: string): Promise<PullRow[]>;
  /** Every pull request whose head is this branch of this repository, open or not, in the order they were opened. */
  withHead(headRepoId: number, ref: string): Promise<PullRow[]>;
  /** The open pull requests into this branch of this repository. */
  openWithBase(repoId: number, ref: string): Promise<PullRow[]>;
  /** The issues of the repository's pull requests whose head is this commit or that were merged by it, newest first. */
  withCommit(repoId: number, sha: string): Promise<IssueRow[]>;
  update(issueId: number, changes: PullChanges): Promise<PullRow>;
  /** Requested reviewers' user ids, by pull request issue id, in the order of their ids. */
  reviewersOf(issueIds: number[]): Promise<Map<number, number[]>>;
  addReviewers(issueId: number, userIds: number[]): Promise<void>;
  removeReviewers(issueId: number, userIds: number[]): Promise<void>;
  insertReview(review: Omit<ReviewRow, "id">): Promise<ReviewRow>;
  review(issueId: number, id: number): Promise<ReviewRow | null>;
  /** The pull request's reviews, oldest first. */
  reviews(issueId: number, window: { limit: number; offset: number }): Promise<Page<ReviewRow>>;
  updateReview(id: number, changes: Partial<Pick<ReviewRow, "state" | "body" | "submittedAt">>): Promise<ReviewRow>;
}
