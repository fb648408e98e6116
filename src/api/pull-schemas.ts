/**
 * Pull requests' wire shapes (https://docs.github.com/rest/pulls): the pull request as one is read (`pull-request`),
 * as lists show it (`pull-request-simple`, without what is computed from its commits), a merge's answer and a
 * review, keys in the order GitHub sends them (`../shared/data/openapi/pull-request*.schema.json` and the
 * `pull_request` webhook examples). No Node-only imports.
 */
import { Type, type Static } from "@sinclair/typebox";
import { NestedRepository, SimpleUser } from "./schemas.js";
import { AuthorAssociation, Label, Milestone, ReactionRollup } from "./issue-schemas.js";

const NullableString = Type.Union([Type.String(), Type.Null()]);
const NullableUser = Type.Union([SimpleUser, Type.Null()]);
const Link = Type.Object({ href: Type.String() });

/** One end of a pull request: the branch, its commit when the pull request last saw it, and its repository. */
const PullEnd = Type.Object({
  label: Type.String(),
  ref: Type.String(),
  sha: Type.String(),
  user: NullableUser,
  /** Null once the head's fork is deleted. */
  repo: Type.Union([NestedRepository, Type.Null()]),
});

const simpleProperties = {
  url: Type.String(),
  id: Type.Integer(),
  node_id: Type.String(),
  html_url: Type.String(),
  diff_url: Type.String(),
  patch_url: Type.String(),
  issue_url: Type.String(),
  commits_url: Type.String(),
  review_comments_url: Type.String(),
  review_comment_url: Type.String(),
  comments_url: Type.String(),
  statuses_url: Type.String(),
  number: Type.Integer(),
  state: Type.Union([Type.Literal("open"), Type.Literal("closed")]),
  locked: Type.Boolean(),
  title: Type.String(),
  user: NullableUser,
  body: NullableString,
  labels: Type.Array(Label),
  milestone: Type.Union([Milestone, Type.Null()]),
  active_lock_reason: NullableString,
  created_at: Type.String(),
  updated_at: Type.String(),
  closed_at: NullableString,
  merged_at: NullableString,
  merge_commit_sha: NullableString,
  assignee: NullableUser,
  assignees: Type.Array(SimpleUser),
  requested_reviewers: Type.Array(SimpleUser),
  requested_teams: Type.Array(Type.Object({})),
  head: PullEnd,
  base: PullEnd,
  _links: Type.Object({
    self: Link,
    html: Link,
    issue: Link,
    comments: Link,
    review_comments: Link,
    review_comment: Link,
    commits: Link,
    statuses: Link,
  }),
  author_association: AuthorAssociation,
  auto_merge: Type.Null(),
  draft: Type.Boolean(),
};

/** A pull request as `GET /repos/{o}/{r}/pulls` lists it. */
export const PullRequestSimple = Type.Object(simpleProperties);

/**
 * A pull request as one is read, made or changed, and as webhooks carry it: with its merge state and what its
 * commits add up to (from the merge base to the head).
 */
export const PullRequest = Type.Object({
  ...simpleProperties,
  merged: Type.Boolean(),
  /** Null while GitHub has not computed it; feedgate computes it on every read of an open pull request. */
  mergeable: Type.Union([Type.Boolean(), Type.Null()]),
  rebaseable: Type.Union([Type.Boolean(), Type.Null()]),
  mergeable_state: Type.String(),
  merged_by: NullableUser,
  comments: Type.Integer(),
  review_comments: Type.Integer(),
  maintainer_can_modify: Type.Boolean(),
  commits: Type.Integer(),
  additions: Type.Integer(),
  deletions: Type.Integer(),
  changed_files: Type.Integer(),
});

/** `PUT /pulls/{n}/update-branch`'s 202: the merge of the base into the head is made. */
export const PullRequestBranchUpdate = Type.Object({ message: Type.String(), url: Type.String() });

/** `PUT /pulls/{n}/merge`'s answer. */
export const PullRequestMergeResult = Type.Object({
  sha: Type.String(),
  merged: Type.Boolean(),
  message: Type.String(),
});

export const PullRequestReview = Type.Object({
  id: Type.Integer(),
  node_id: Type.String(),
  user: NullableUser,
  body: Type.String(),
  state: Type.String(),
  html_url: Type.String(),
  pull_request_url: Type.String(),
  author_association: AuthorAssociation,
  _links: Type.Object({ html: Link, pull_request: Link }),
  /** Absent while the review is pending, as GitHub sends it. */
  submitted_at: Type.Optional(Type.String()),
  commit_id: Type.String(),
});

/** A comment on a line (or a file) of a pull request's diff (`pull-request-review-comment.schema.json`). */
export const PullRequestReviewComment = Type.Object({
  url: Type.String(),
  pull_request_review_id: Type.Union([Type.Integer(), Type.Null()]),
  id: Type.Integer(),
  node_id: Type.String(),
  diff_hunk: Type.String(),
  path: Type.String(),
  position: Type.Optional(Type.Union([Type.Integer(), Type.Null()])),
  original_position: Type.Optional(Type.Union([Type.Integer(), Type.Null()])),
  commit_id: Type.String(),
  original_commit_id: Type.String(),
  in_reply_to_id: Type.Optional(Type.Integer()),
  user: NullableUser,
  body: Type.String(),
  created_at: Type.String(),
  updated_at: Type.String(),
  html_url: Type.String(),
  pull_request_url: Type.String(),
  author_association: AuthorAssociation,
  _links: Type.Object({ self: Link, html: Link, pull_request: Link }),
  start_line: Type.Union([Type.Integer(), Type.Null()]),
  original_start_line: Type.Union([Type.Integer(), Type.Null()]),
  start_side: Type.Union([Type.String(), Type.Null()]),
  line: Type.Optional(Type.Union([Type.Integer(), Type.Null()])),
  original_line: Type.Optional(Type.Union([Type.Integer(), Type.Null()])),
  side: Type.Optional(Type.String()),
  subject_type: Type.String(),
  reactions: ReactionRollup,
});

/** `GET /pulls/{n}/requested_reviewers`: the users and teams asked for a review (feedgate has no teams). */
export const PullRequestReviewRequest = Type.Object({
  users: Type.Array(SimpleUser),
  teams: Type.Array(Type.Object({})),
});

export type PullRequestSimple = Static<typeof PullRequestSimple>;
export type PullRequest = Static<typeof PullRequest>;
export type PullRequestMergeResult = Static<typeof PullRequestMergeResult>;
export type PullRequestBranchUpdate = Static<typeof PullRequestBranchUpdate>;
export type PullRequestReview = Static<typeof PullRequestReview>;
export type PullRequestReviewRequest = Static<typeof PullRequestReviewRequest>;
export type PullRequestReviewComment = Static<typeof PullRequestReviewComment>;
