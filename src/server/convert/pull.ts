/**
 * Stored pull requests -> GitHub's pull request objects: as one is read and as webhooks carry it (`PullRequest`, with
 * what its commits add up to), as lists show it (`PullRequestSimple`), and as the Events API has carried it since
 * 2025 (CL25: `url`, `id`, `number`, and each end's `ref`, `sha` and `repo`). The issue side (title, body, labels,
 * assignees, milestone, author) is the issue's own (./issue.ts); PullFacts holds the rest, read once for a page.
 */
import type {
  PullRequest,
  PullRequestReview,
  PullRequestReviewComment,
  PullRequestSimple,
} from "../../api/pull-schemas.js";
import type { Static } from "@sinclair/typebox";
import type { AuthorAssociation } from "../../api/issue-schemas.js";
import type { ReviewCommentRow, ReviewRow, UserRow } from "../store/store.js";
import { toWireIssue, toWireReactions, type IssueFacts } from "./issue.js";
import { toWireNestedRepository, type RepositoryFacts } from "./repository.js";
import { isoSeconds } from "./time.js";
import { webOrigin } from "./urls.js";
import { legacyNodeId } from "./node-ids.js";
import { toWireSimpleUser } from "./user.js";

/** One end of a pull request: its repository (null once a head's fork is gone), branch and commit. */
export interface PullEndFacts {
  repo: RepositoryFacts | null;
  ref: string;
  sha: string;
}

/** What a pull request's commits add up to, from the merge base to its head, and whether it merges. */
export interface PullComputed {
  commits: number;
  additions: number;
  deletions: number;
  changedFiles: number;
  /** Null for a pull request no longer open, as GitHub leaves it. */
  mergeable: boolean | null;
  /**
   * GitHub's `mergeable_state`: `clean`, `dirty` (conflicts), `draft`, `blocked` and `behind` (its base's protection
   * unmet, or the head out of date where the checks are strict), or `unknown` once closed.
   */
  mergeableState: string;
}

export interface PullFacts {
  /** Its issue, whose `pull` is this pull request's row. */
  issue: IssueFacts & { pull: NonNullable<IssueFacts["pull"]> };
  head: PullEndFacts;
  base: PullEndFacts & { repo: RepositoryFacts };
  reviewers: UserRow[];
  mergedBy: UserRow | null;
  /** How many review comments it has. */
  reviewComments: number;
}

const link = (href: string) => ({ href });

function toWireEnd(end: PullEndFacts, baseUrl: string) {
  const owner = end.repo?.owner ?? null;
  return {
    label: `${owner?.login ?? "unknown"}:${end.ref}`,
    ref: end.ref,
    sha: end.sha,
    user: owner && toWireSimpleUser(owner, baseUrl),
    repo: end.repo && toWireNestedRepository(end.repo, baseUrl),
  };
}

export function toWirePullSimple(facts: PullFacts, baseUrl: string): PullRequestSimple {
  const issue = toWireIssue(facts.issue, baseUrl);
  const pull = facts.issue.pull;
  const fullName = facts.issue.repoFullName;
  const url = `${baseUrl}/repos/${fullName}/pulls/${pull.number}`;
  const html = `${webOrigin(baseUrl)}/${fullName}/pull/${pull.number}`;
  const statuses = `${baseUrl}/repos/${fullName}/statuses/${pull.headSha}`;
  return {
    url,
    id: issue.id,
    node_id: legacyNodeId("PullRequest", issue.id),
    html_url: html,
    diff_url: `${html}.diff`,
    patch_url: `${html}.patch`,
    issue_url: issue.url,
    commits_url: `${url}/commits`,
    review_comments_url: `${url}/comments`,
    review_comment_url: `${baseUrl}/repos/${fullName}/pulls/comments{/number}`,
    comments_url: issue.comments_url,
    statuses_url: statuses,
    number: pull.number,
    state: issue.state,
    locked: issue.locked,
    title: issue.title,
    user: issue.user,
    body: issue.body,
    labels: issue.labels,
    milestone: issue.milestone,
    active_lock_reason: issue.active_lock_reason,
    created_at: issue.created_at,
    updated_at: issue.updated_at,
    closed_at: issue.closed_at,
    merged_at: pull.mergedAt && isoSeconds(pull.mergedAt),
    merge_commit_sha: pull.mergeCommitSha,
    assignee: issue.assignee,
    assignees: issue.assignees,
    requested_reviewers: facts.reviewers.map((user) => toWireSimpleUser(user, baseUrl)),
    requested_teams: [],
    head: toWireEnd(facts.head, baseUrl),
    base: toWireEnd(facts.base, baseUrl),
    _links: {
      self: link(url),
      html: link(html),
      issue: link(issue.url),
      comments: link(issue.comments_url),
      review_comments: link(`${url}/comments`),
      review_comment: link(`${baseUrl}/repos/${fullName}/pulls/comments{/number}`),
      commits: link(`${url}/commits`),
      statuses: link(statuses),
    },
    author_association: issue.author_association,
    auto_merge: null,
    draft: pull.draft,
  };
}

export function toWirePull(facts: PullFacts, computed: PullComputed, baseUrl: string): PullRequest {
  const pull = facts.issue.pull;
  return {
    ...toWirePullSimple(facts, baseUrl),
    merged: pull.mergedAt !== null,
    mergeable: computed.mergeable,
    rebaseable: computed.mergeable,
    mergeable_state: computed.mergeableState,
    merged_by: facts.mergedBy && toWireSimpleUser(facts.mergedBy, baseUrl),
    comments: facts.issue.issue.comments,
    review_comments: facts.reviewComments,
    maintainer_can_modify: pull.maintainerCanModify,
    commits: computed.commits,
    additions: computed.additions,
    deletions: computed.deletions,
    changed_files: computed.changedFiles,
  };
}

/** The pull request as the Events API's PullRequestEvent carries it since 2025 (CL25). */
export function toEventPull(facts: PullFacts, baseUrl: string) {
  const pull = facts.issue.pull;
  const end = (e: PullEndFacts) => ({
    ref: e.ref,
    sha: e.sha,
    repo: e.repo && {
      id: e.repo.repo.wireId,
      url: `${baseUrl}/repos/${e.repo.repo.fullName}`,
      name: e.repo.repo.fullName.split("/")[1],
    },
  });
  return {
    url: `${baseUrl}/repos/${facts.issue.repoFullName}/pulls/${pull.number}`,
    id: facts.issue.issue.id,
    number: pull.number,
    head: end(facts.head),
    base: end(facts.base),
  };
}

export function toWireReview(
  review: ReviewRow,
  author: UserRow,
  association: Static<typeof AuthorAssociation>,
  pull: { fullName: string; number: number },
  baseUrl: string,
): PullRequestReview {
  const html = `${webOrigin(baseUrl)}/${pull.fullName}/pull/${pull.number}#pullrequestreview-${review.id}`;
  const pullUrl = `${baseUrl}/repos/${pull.fullName}/pulls/${pull.number}`;
  return {
    id: review.id,
    node_id: "",
    user: toWireSimpleUser(author, baseUrl),
    body: review.body,
    state: review.state,
    html_url: html,
    pull_request_url: pullUrl,
    author_association: association,
    _links: { html: link(html), pull_request: link(pullUrl) },
    ...(review.submittedAt ? { submitted_at: isoSeconds(review.submittedAt) } : {}),
    commit_id: review.commitId,
  };
}

/** What a review comment shows beyond its row: its author, what the author is to the repository. */
export interface ReviewCommentFacts {
  comment: ReviewCommentRow;
  author: UserRow;
  association: Static<typeof AuthorAssociation>;
  pull: { fullName: string; number: number };
}

export function toWireReviewComment(facts: ReviewCommentFacts, baseUrl: string): PullRequestReviewComment {
  const { comment, pull } = facts;
  const url = `${baseUrl}/repos/${pull.fullName}/pulls/comments/${comment.id}`;
  const html = `${webOrigin(baseUrl)}/${pull.fullName}/pull/${pull.number}#discussion_r${comment.id}`;
  const pullUrl = `${baseUrl}/repos/${pull.fullName}/pulls/${pull.number}`;
  return {
    url,
    pull_request_review_id: comment.reviewId,
    id: comment.id,
    node_id: "",
    diff_hunk: comment.diffHunk,
    path: comment.path,
    position: comment.position,
    original_position: comment.position,
    commit_id: comment.commitId,
    original_commit_id: comment.commitId,
    ...(comment.inReplyToId === null ? {} : { in_reply_to_id: comment.inReplyToId }),
    user: toWireSimpleUser(facts.author, baseUrl),
    body: comment.body,
    created_at: isoSeconds(comment.createdAt),
    updated_at: isoSeconds(comment.updatedAt),
    html_url: html,
    pull_request_url: pullUrl,
    author_association: facts.association,
    _links: { self: link(url), html: link(html), pull_request: link(pullUrl) },
    start_line: comment.startLine,
    original_start_line: comment.startLine,
    start_side: comment.startSide,
    line: comment.line,
    original_line: comment.line,
    ...(comment.side === null ? {} : { side: comment.side }),
    subject_type: comment.subjectType,
    reactions: toWireReactions({}, `${url}/reactions`),
  };
}
