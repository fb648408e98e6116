/**
 * The pull request family's rows of the endpoint table (./endpoints.ts spreads them in as `pulls`): GitHub's pull
 * requests API (https://docs.github.com/rest/pulls), each a write of the action log or a read of its state. A pull
 * request is an issue too: its comments, labels and assignees are the issue rows'. No Node-only imports.
 */
import { DIGITS, paging, type ParamSpec } from "./params.js";
import type { AcceptedPermissions } from "./permissions.js";
import type { ResponseKind } from "./responses.js";
import { ISSUE_SCOPES, repoPath } from "./issue-endpoints.js";

const DOCS = "https://docs.github.com/rest/pulls";

/** Fine-grained tokens and apps: the repository's Pull requests permission. */
const READ: AcceptedPermissions = [{ pull_requests: "read" }];
const WRITE: AcceptedPermissions = [{ pull_requests: "write" }];

const pullPath = {
  ...repoPath,
  pull_number: { in: "path", type: "string", required: true, pattern: DIGITS },
} as const satisfies Record<string, ParamSpec>;
const reviewPath = {
  ...pullPath,
  review_id: { in: "path", type: "string", required: true, pattern: DIGITS },
} as const satisfies Record<string, ParamSpec>;

function pullRow<
  const M extends "GET" | "POST" | "PATCH" | "PUT" | "DELETE",
  const P extends Readonly<Record<string, ParamSpec>>,
  const R extends ResponseKind,
>(method: M, path: string, params: P, response: R, page: string, summary: string) {
  return {
    method,
    path,
    params,
    // Anonymous callers read public repositories; writes refuse them in the services, with GitHub's 404 or 401.
    auth: method === "GET" ? "optional" : "required",
    acceptedScopes: method === "GET" ? [] : ISSUE_SCOPES,
    permissions: method === "GET" ? READ : WRITE,
    response,
    resource: "PullRequest",
    documentationUrl: `${DOCS}/${page}`,
    summary,
    tag: "pulls",
  } as const;
}

const commentPath = {
  comment_id: { in: "path", type: "string", required: true, pattern: DIGITS },
} as const satisfies Record<string, ParamSpec>;
const commentListQuery = {
  sort: { in: "query", type: "string", description: "`created` (the default) or `updated`." },
  direction: { in: "query", type: "string" },
  since: { in: "query", type: "string" },
  ...paging,
} as const satisfies Record<string, ParamSpec>;

const reviewers = {
  reviewers: { in: "body", type: "array", description: "Logins to ask for a review." },
  team_reviewers: { in: "body", type: "array", description: "Team slugs; feedgate has no teams, so none is found." },
} as const satisfies Record<string, ParamSpec>;

export const pullEndpoints = {
  list: pullRow(
    "GET",
    "/repos/:user/:repo/pulls",
    {
      ...repoPath,
      state: { in: "query", type: "string" },
      head: { in: "query", type: "string", description: "`user:ref` (or `ref` in this repository)." },
      base: { in: "query", type: "string" },
      sort: { in: "query", type: "string" },
      direction: { in: "query", type: "string" },
      ...paging,
    },
    "PullRequestSimple[]",
    "pulls#list-pull-requests",
    "List pull requests",
  ),
  create: {
    ...pullRow(
      "POST",
      "/repos/:user/:repo/pulls",
      {
        ...repoPath,
        title: { in: "body", type: "string", required: true },
        head: { in: "body", type: "string", required: true },
        base: { in: "body", type: "string", required: true },
        body: { in: "body", type: "string", nullable: true },
        draft: { in: "body", type: "boolean" },
        maintainer_can_modify: { in: "body", type: "boolean" },
        head_repo: { in: "body", type: "string" },
      },
      "PullRequest",
      "pulls#create-a-pull-request",
      "Create a pull request",
    ),
    schemaChecked: true,
  },
  get: pullRow(
    "GET",
    "/repos/:user/:repo/pulls/:pull_number",
    pullPath,
    "PullRequest",
    "pulls#get-a-pull-request",
    "Get a pull request",
  ),
  update: pullRow(
    "PATCH",
    "/repos/:user/:repo/pulls/:pull_number",
    {
      ...pullPath,
      title: { in: "body", type: "string" },
      body: { in: "body", type: "string", nullable: true },
      state: { in: "body", type: "string" },
      base: { in: "body", type: "string" },
      maintainer_can_modify: { in: "body", type: "boolean" },
    },
    "PullRequest",
    "pulls#update-a-pull-request",
    "Update a pull request",
  ),
  listCommits: pullRow(
    "GET",
    "/repos/:user/:repo/pulls/:pull_number/commits",
    { ...pullPath, ...paging },
    "RepositoryCommit[]",
    "pulls#list-commits-on-a-pull-request",
    "List commits on a pull request",
  ),
  listFiles: pullRow(
    "GET",
    "/repos/:user/:repo/pulls/:pull_number/files",
    { ...pullPath, ...paging },
    "CommitFile[]",
    "pulls#list-pull-requests-files",
    "List pull requests files",
  ),
  checkIfMerged: pullRow(
    "GET",
    "/repos/:user/:repo/pulls/:pull_number/merge",
    pullPath,
    "empty",
    "pulls#check-if-a-pull-request-has-been-merged",
    "Check if a pull request has been merged",
  ),
  merge: pullRow(
    "PUT",
    "/repos/:user/:repo/pulls/:pull_number/merge",
    {
      ...pullPath,
      commit_title: { in: "body", type: "string" },
      commit_message: { in: "body", type: "string" },
      sha: { in: "body", type: "string", description: "The head the caller saw: 409 when the head has moved since." },
      merge_method: { in: "body", type: "string", description: "`merge` (the default), `squash` or `rebase`." },
    },
    "PullRequestMergeResult",
    "pulls#merge-a-pull-request",
    "Merge a pull request",
  ),
  listRequestedReviewers: pullRow(
    "GET",
    "/repos/:user/:repo/pulls/:pull_number/requested_reviewers",
    pullPath,
    "PullRequestReviewRequest",
    "review-requests#get-all-requested-reviewers-for-a-pull-request",
    "Get all requested reviewers for a pull request",
  ),
  requestReviewers: pullRow(
    "POST",
    "/repos/:user/:repo/pulls/:pull_number/requested_reviewers",
    { ...pullPath, ...reviewers },
    "PullRequestSimple",
    "review-requests#request-reviewers-for-a-pull-request",
    "Request reviewers for a pull request",
  ),
  removeRequestedReviewers: pullRow(
    "DELETE",
    "/repos/:user/:repo/pulls/:pull_number/requested_reviewers",
    { ...pullPath, ...reviewers },
    "PullRequestSimple",
    "review-requests#remove-requested-reviewers-from-a-pull-request",
    "Remove requested reviewers from a pull request",
  ),
  listReviews: pullRow(
    "GET",
    "/repos/:user/:repo/pulls/:pull_number/reviews",
    { ...pullPath, ...paging },
    "PullRequestReview[]",
    "reviews#list-reviews-for-a-pull-request",
    "List reviews for a pull request",
  ),
  // GitHub answers a review 200, not 201.
  createReview: {
    ...pullRow(
      "POST",
      "/repos/:user/:repo/pulls/:pull_number/reviews",
      {
        ...pullPath,
        commit_id: { in: "body", type: "string" },
        body: { in: "body", type: "string" },
        event: {
          in: "body",
          type: "string",
          description: "`APPROVE`, `REQUEST_CHANGES` or `COMMENT`; pending without.",
        },
        comments: {
          in: "body",
          type: "array",
          items: {
            path: "string",
            line: "string|number",
            side: "string",
            body: "string",
            start_line: "string|number",
            start_side: "string",
          },
          description: "Review comments made with the review, each on a line of the diff.",
        },
      },
      "PullRequestReview",
      "reviews#create-a-review-for-a-pull-request",
      "Create a review for a pull request",
    ),
    answers200: true,
  },
  getReview: pullRow(
    "GET",
    "/repos/:user/:repo/pulls/:pull_number/reviews/:review_id",
    reviewPath,
    "PullRequestReview",
    "reviews#get-a-review-for-a-pull-request",
    "Get a review for a pull request",
  ),
  // GitHub answers a review 200, not 201.
  submitReview: {
    ...pullRow(
      "POST",
      "/repos/:user/:repo/pulls/:pull_number/reviews/:review_id/events",
      { ...reviewPath, body: { in: "body", type: "string" }, event: { in: "body", type: "string", required: true } },
      "PullRequestReview",
      "reviews#submit-a-review-for-a-pull-request",
      "Submit a review for a pull request",
    ),
    answers200: true,
  },
  dismissReview: pullRow(
    "PUT",
    "/repos/:user/:repo/pulls/:pull_number/reviews/:review_id/dismissals",
    { ...reviewPath, message: { in: "body", type: "string", required: true }, event: { in: "body", type: "string" } },
    "PullRequestReview",
    "reviews#dismiss-a-review-for-a-pull-request",
    "Dismiss a review for a pull request",
  ),
  updateBranch: pullRow(
    "PUT",
    "/repos/:user/:repo/pulls/:pull_number/update-branch",
    {
      ...pullPath,
      expected_head_sha: { in: "body", type: "string", description: "The head the caller saw: 422 when it moved." },
    },
    "PullRequestBranchUpdate",
    "pulls#update-a-pull-request-branch",
    "Update a pull request branch",
  ),
  listReviewComments: pullRow(
    "GET",
    "/repos/:user/:repo/pulls/:pull_number/comments",
    { ...pullPath, ...commentListQuery },
    "PullRequestReviewComment[]",
    "comments#list-review-comments-on-a-pull-request",
    "List review comments on a pull request",
  ),
  createReviewComment: pullRow(
    "POST",
    "/repos/:user/:repo/pulls/:pull_number/comments",
    {
      ...pullPath,
      body: { in: "body", type: "string", required: true },
      commit_id: {
        in: "body",
        type: "string",
        description: "The commit whose diff is commented on; the head's by default.",
      },
      path: { in: "body", type: "string" },
      line: { in: "body", type: "string|number" },
      side: { in: "body", type: "string", description: "`RIGHT` (the default: the new file) or `LEFT`." },
      start_line: { in: "body", type: "string|number" },
      start_side: { in: "body", type: "string" },
      subject_type: { in: "body", type: "string", description: "`line` (the default) or `file`." },
      in_reply_to: {
        in: "body",
        type: "string|number",
        description: "The comment this one answers, whose thread it joins.",
      },
    },
    "PullRequestReviewComment",
    "comments#create-a-review-comment-for-a-pull-request",
    "Create a review comment for a pull request",
  ),
  createReplyForReviewComment: pullRow(
    "POST",
    "/repos/:user/:repo/pulls/:pull_number/comments/:comment_id/replies",
    { ...pullPath, ...commentPath, body: { in: "body", type: "string", required: true } },
    "PullRequestReviewComment",
    "comments#create-a-reply-for-a-review-comment",
    "Create a reply for a review comment",
  ),
  listReviewCommentsForRepo: pullRow(
    "GET",
    "/repos/:user/:repo/pulls/comments",
    { ...repoPath, ...commentListQuery },
    "PullRequestReviewComment[]",
    "comments#list-review-comments-in-a-repository",
    "List review comments in a repository",
  ),
  getReviewComment: pullRow(
    "GET",
    "/repos/:user/:repo/pulls/comments/:comment_id",
    { ...repoPath, ...commentPath },
    "PullRequestReviewComment",
    "comments#get-a-review-comment-for-a-pull-request",
    "Get a review comment for a pull request",
  ),
  updateReviewComment: pullRow(
    "PATCH",
    "/repos/:user/:repo/pulls/comments/:comment_id",
    { ...repoPath, ...commentPath, body: { in: "body", type: "string", required: true } },
    "PullRequestReviewComment",
    "comments#update-a-review-comment-for-a-pull-request",
    "Update a review comment for a pull request",
  ),
  deleteReviewComment: pullRow(
    "DELETE",
    "/repos/:user/:repo/pulls/comments/:comment_id",
    { ...repoPath, ...commentPath },
    "empty",
    "comments#delete-a-review-comment-for-a-pull-request",
    "Delete a review comment for a pull request",
  ),
} as const;
