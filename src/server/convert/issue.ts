/**
 * Stored issues -> GitHub's issue object (and the label and reaction objects inside it). What an issue shows beyond
 * its row (its author, labels, assignees, who closed it, its reactions, what its author is to the repository) comes
 * in IssueFacts, read once for a whole page (services/actions/issue-facts.ts).
 */
import type { AuthorAssociation, Issue, IssueWithRepository, Label, ReactionRollup } from "../../api/issue-schemas.js";
import type { Static } from "@sinclair/typebox";
import type { IssueRow, LabelRow, PullRow, UserRow } from "../store/store.js";
import { isoSeconds } from "./time.js";
import { webOrigin } from "./urls.js";
import { toWireSimpleUser } from "./user.js";
import { toWireMilestone, type MilestoneFacts } from "./milestone.js";
import { toWireParentRepository, type RepositoryFacts } from "./repository.js";

/** Reactions by content; a content nobody reacted with may be left out. */
export type ReactionCounts = Partial<Record<Exclude<keyof ReactionRollup, "url" | "total_count">, number>>;

export interface IssueFacts {
  issue: IssueRow;
  /** `owner/name` of its repository. */
  repoFullName: string;
  author: UserRow;
  labels: LabelRow[];
  assignees: UserRow[];
  closedBy: UserRow | null;
  /** Its milestone, when it has one. */
  milestone: MilestoneFacts | null;
  reactions: ReactionCounts;
  association: Static<typeof AuthorAssociation>;
  /** What the issue is as a pull request; null for an issue that is not one. */
  pull: PullRow | null;
}

const issueApiUrl = (facts: { repoFullName: string; issue: IssueRow }, baseUrl: string) =>
  `${baseUrl}/repos/${facts.repoFullName}/issues/${facts.issue.number}`;

export function toWireLabel(label: LabelRow, repoFullName: string, baseUrl: string): Label {
  return {
    id: label.id,
    node_id: "",
    url: `${baseUrl}/repos/${repoFullName}/labels/${encodeURIComponent(label.name)}`,
    name: label.name,
    color: label.color,
    default: label.isDefault,
    description: label.description,
  };
}

export function toWireReactions(counts: ReactionCounts, url: string): ReactionRollup {
  const count = (content: keyof ReactionCounts) => counts[content] ?? 0;
  const rollup = {
    url,
    total_count: 0,
    "+1": count("+1"),
    "-1": count("-1"),
    laugh: count("laugh"),
    confused: count("confused"),
    heart: count("heart"),
    hooray: count("hooray"),
    eyes: count("eyes"),
    rocket: count("rocket"),
  };
  rollup.total_count = Object.values(counts).reduce((sum, n) => sum + (n ?? 0), 0);
  return rollup;
}

/** What a pull request's issue adds: GitHub's `draft` and where the pull request is (`pull_request`). */
function pullOfIssue(facts: IssueFacts, pull: PullRow, baseUrl: string) {
  const html = `${webOrigin(baseUrl)}/${facts.repoFullName}/pull/${pull.number}`;
  return {
    draft: pull.draft,
    pull_request: {
      url: `${baseUrl}/repos/${facts.repoFullName}/pulls/${pull.number}`,
      html_url: html,
      diff_url: `${html}.diff`,
      patch_url: `${html}.patch`,
      merged_at: pull.mergedAt && isoSeconds(pull.mergedAt),
    },
  };
}

export function toWireIssue(facts: IssueFacts, baseUrl: string): Issue {
  const { issue } = facts;
  const url = issueApiUrl(facts, baseUrl);
  const assignees = facts.assignees.map((user) => toWireSimpleUser(user, baseUrl));
  return {
    url,
    repository_url: `${baseUrl}/repos/${facts.repoFullName}`,
    labels_url: `${url}/labels{/name}`,
    comments_url: `${url}/comments`,
    events_url: `${url}/events`,
    html_url: `${webOrigin(baseUrl)}/${facts.repoFullName}/${facts.pull ? "pull" : "issues"}/${issue.number}`,
    id: issue.id,
    node_id: "",
    number: issue.number,
    title: issue.title,
    user: toWireSimpleUser(facts.author, baseUrl),
    labels: facts.labels.map((label) => toWireLabel(label, facts.repoFullName, baseUrl)),
    state: issue.state,
    locked: issue.locked,
    assignee: assignees[0] ?? null,
    assignees,
    milestone: facts.milestone && toWireMilestone(facts.milestone, facts.repoFullName, baseUrl),
    comments: issue.comments,
    created_at: isoSeconds(issue.createdAt),
    updated_at: isoSeconds(issue.updatedAt),
    closed_at: issue.closedAt && isoSeconds(issue.closedAt),
    author_association: facts.association,
    active_lock_reason: issue.locked ? issue.lockReason : null,
    ...(facts.pull ? pullOfIssue(facts, facts.pull, baseUrl) : {}),
    body: issue.body,
    closed_by: facts.closedBy && toWireSimpleUser(facts.closedBy, baseUrl),
    reactions: toWireReactions(facts.reactions, `${url}/reactions`),
    timeline_url: `${url}/timeline`,
    performed_via_github_app: null,
    state_reason: issue.stateReason,
  };
}

/** An issue of the caller's lists across repositories: with its repository's object, as GitHub sends them. */
export function toWireIssueWithRepository(
  facts: IssueFacts,
  repository: RepositoryFacts,
  baseUrl: string,
): IssueWithRepository {
  return { ...toWireIssue(facts, baseUrl), repository: toWireParentRepository(repository, baseUrl) };
}

/**
 * An issue event as the per-issue list shows it: as stored, without the `issue` the repository-wide list carries
 * (wire notes 2.4); its id an integer on a `--numeric-ids` server.
 */
export function issueEventOfIssue(body: string, numericIds: boolean): Record<string, unknown> {
  const { issue: _, ...event } = JSON.parse(body) as Record<string, unknown>;
  return numericIds ? { ...event, id: Number(event.id) } : event;
}
