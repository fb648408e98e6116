/**
 * Commit statuses as stored state (`/repos/{o}/{r}/statuses/{sha}`, `/commits/{ref}/statuses`, `/status`): one row
 * per report a CI system made of a commit, never changed afterwards. Written in the action log's transaction with the
 * `status` webhook it makes.
 */
import type { Page, PageRequest } from "./page.js";

/** GitHub's four states of a commit status. */
export const STATUS_STATES = ["error", "failure", "pending", "success"] as const;
export type StatusState = (typeof STATUS_STATES)[number];

export interface CommitStatusRow {
  id: number;
  repoId: number;
  sha: string;
  context: string;
  state: StatusState;
  targetUrl: string | null;
  description: string | null;
  /** null once the account that made it is deleted. */
  creatorId: number | null;
  createdAt: Date;
  updatedAt: Date;
}

export type NewCommitStatus = Omit<CommitStatusRow, "id" | "createdAt" | "updatedAt">;

export interface StatusStore {
  insert(status: NewCommitStatus, now: Date): Promise<CommitStatusRow>;
  /** The commit's statuses, newest first. */
  page(repoId: number, sha: string, window: PageRequest): Promise<Page<CommitStatusRow>>;
  /**
   * The newest status of each of the commit's contexts, in the order the contexts were first reported: all of them,
   * as the combined state is of every context (a commit has few).
   */
  latest(repoId: number, sha: string): Promise<CommitStatusRow[]>;
  /** How many statuses the commit has in one context (GitHub takes at most 1000). */
  countInContext(repoId: number, sha: string, context: string): Promise<number>;
}
