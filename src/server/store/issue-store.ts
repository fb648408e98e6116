/** Issues and what hangs on them (labels, assignees): the state the issue actions write (services/actions/). */
import type { Page } from "./page.js";

export type IssueState = "open" | "closed";

export interface IssueRow {
  id: number;
  repoId: number;
  /** Within its repository, from 1. */
  number: number;
  /** The author. */
  userId: number;
  title: string;
  body: string | null;
  state: IssueState;
  /** GitHub's `state_reason`: `completed`, `not_planned`, `reopened`, or null. */
  stateReason: string | null;
  locked: boolean;
  lockReason: string | null;
  milestoneId: number | null;
  /** How many comments it has: kept by the comment actions. */
  comments: number;
  closedAt: Date | null;
  closedById: number | null;
  createdAt: Date;
  updatedAt: Date;
}

/** Which of what an issue shows beyond its row it has: an action that knows reads only what it has. */
export interface IssueHas {
  labels: boolean;
  assignees: boolean;
  reactions: boolean;
  pull: boolean;
}

export interface NewIssue {
  repoId: number;
  /** The repository's next when left out; a world file gives its own. */
  number?: number;
  userId: number;
  title: string;
  body: string | null;
  milestoneId: number | null;
  at: Date;
}

/** The columns an update may set; each one left out stays as it is. `updatedAt` always moves. */
export type IssueChanges = Partial<
  Pick<
    IssueRow,
    | "title"
    | "body"
    | "state"
    | "stateReason"
    | "locked"
    | "lockReason"
    | "milestoneId"
    | "closedAt"
    | "closedById"
    | "comments"
  >
> & { updatedAt: Date };

export interface LabelRow {
  id: number;
  repoId: number;
  name: string;
  /** Six hex digits, without `#`. */
  color: string;
  description: string | null;
  isDefault: boolean;
}

export type IssueSort = "created" | "updated" | "comments";

/** What `GET /repos/{o}/{r}/issues` filters on; every field but the repository is optional. */
export interface IssueFilter {
  repoId: number;
  state: IssueState | "all";
  creatorId?: number;
  /** A user's id, `none` (no assignee) or `*` (any). */
  assignee?: number | "none" | "*";
  /** A milestone's id, `none` or `*`. */
  milestone?: number | "none" | "*";
  /** Every one of these (by name, case-insensitively) is on the issue. */
  labels?: string[];
  /** A user named with @login in the title or body, or in a comment. */
  mentioned?: string;
  /** Updated at or after. */
  since?: Date;
  sort: IssueSort;
  direction: "asc" | "desc";
}

export interface IssueStore {
  /** Stores a new issue with the repository's next number. */
  insert(issue: NewIssue): Promise<IssueRow>;
  find(repoId: number, number: number): Promise<IssueRow | null>;
  findById(id: number): Promise<IssueRow | null>;
  page(filter: IssueFilter, window: { limit: number; offset: number }): Promise<Page<IssueRow>>;
  update(id: number, changes: IssueChanges): Promise<IssueRow>;
  /**
   * A comment added to the repository's issue `number`: its count raised and `updated_at` moved, in one write, without
   * reading it first; the issue as it is now, and which of its labels, assignees, reactions and pull request it has.
   * null, and nothing written, when there is no such issue, or when it is locked and `evenLocked` is false.
   */
  commentAdded(
    repoId: number,
    number: number,
    at: Date,
    evenLocked: boolean,
  ): Promise<{ issue: IssueRow; has: IssueHas } | null>;
  /**
   * The issue's `updated_at` moved (its labels or assignees changed), without reading it first: the issue as it is
   * now, and which of its labels, assignees, reactions and pull request it has.
   */
  touched(id: number, at: Date): Promise<{ issue: IssueRow; has: IssueHas }>;
  /** The labels of each issue, by issue id, each list by name. */
  labelsOf(issueIds: number[]): Promise<Map<number, LabelRow[]>>;
  /** The user ids assigned to each issue, by issue id, in the order they were assigned. */
  assigneesOf(issueIds: number[]): Promise<Map<number, number[]>>;
  /** The repository's labels of these names (case-insensitively), those that exist. */
  labelsNamed(repoId: number, names: string[]): Promise<LabelRow[]>;
  /** Makes a label as GitHub does when an issue is given one that does not exist: grey, no description. */
  insertLabel(label: Omit<LabelRow, "id">): Promise<LabelRow>;
  /** The bodies of the issue events made on one issue (the per-issue feed), oldest first. */
  issueEventsOf(repoId: number, number: number, window: { limit: number; offset: number }): Promise<Page<string>>;
  addLabels(issueId: number, labelIds: number[]): Promise<void>;
  removeLabels(issueId: number, labelIds: number[]): Promise<void>;
  addAssignees(issueId: number, userIds: number[]): Promise<void>;
  removeAssignees(issueId: number, userIds: number[]): Promise<void>;
}
