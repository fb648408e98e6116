/** A repository's milestones (`/repos/{o}/{r}/milestones`), numbered within it, and their issue counts. */
import type { IssueState } from "./issue-store.js";
import type { Page, PageRequest } from "./page.js";

export interface MilestoneRow {
  id: number;
  repoId: number;
  /** Within its repository, from 1; apart from the issues' numbers. */
  number: number;
  title: string;
  description: string | null;
  state: IssueState;
  creatorId: number;
  dueOn: Date | null;
  createdAt: Date;
  updatedAt: Date;
  closedAt: Date | null;
  /** The issues in it, by state: counted when read, never kept. */
  openIssues: number;
  closedIssues: number;
}

export interface NewMilestone {
  repoId: number;
  title: string;
  description: string | null;
  state: IssueState;
  creatorId: number;
  dueOn: Date | null;
  at: Date;
}

/** The columns an edit may set; each one left out stays as it is. `updatedAt` always moves. */
export type MilestoneChanges = Partial<Pick<MilestoneRow, "title" | "description" | "state" | "dueOn" | "closedAt">> & {
  updatedAt: Date;
};

/** What `GET /repos/{o}/{r}/milestones` takes. */
export interface MilestoneFilter {
  repoId: number;
  state: IssueState | "all";
  /** `completeness`: the share of its issues that are closed. */
  sort: "due_on" | "completeness";
  direction: "asc" | "desc";
}

export interface MilestoneStore {
  page(filter: MilestoneFilter, window: PageRequest): Promise<Page<MilestoneRow>>;
  find(repoId: number, number: number): Promise<MilestoneRow | null>;
  /** The milestones of these ids, by id (the issues of a page that have one). */
  byIds(ids: number[]): Promise<Map<number, MilestoneRow>>;
  /** The repository's milestone of exactly this title (titles are unique per repository). */
  titled(repoId: number, title: string): Promise<MilestoneRow | null>;
  /** Stores a new milestone with the repository's next number; the caller has made sure the title is free. */
  insert(milestone: NewMilestone): Promise<MilestoneRow>;
  update(id: number, changes: MilestoneChanges): Promise<MilestoneRow>;
  /** Removes the milestone; its issues keep no milestone. */
  delete(id: number): Promise<void>;
}
