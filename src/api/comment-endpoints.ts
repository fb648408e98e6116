/**
 * The rows of issue comments and reactions (./endpoints.ts spreads them in): GitHub's issue comments API
 * (https://docs.github.com/rest/issues/comments) and the reactions on issues and their comments
 * (https://docs.github.com/rest/reactions/reactions). Writes are actions of the action log. No Node-only imports.
 */
import { ISSUE_SCOPES } from "./issue-endpoints.js";
import { DIGITS, paging, type ParamSpec } from "./params.js";
import type { AcceptedPermissions } from "./permissions.js";
import type { ResponseKind } from "./responses.js";

const COMMENT_DOCS = "https://docs.github.com/rest/issues/comments";
const REACTION_DOCS = "https://docs.github.com/rest/reactions/reactions";

const repoPath = {
  user: { in: "path", type: "string", required: true },
  repo: { in: "path", type: "string", required: true },
} as const satisfies Record<string, ParamSpec>;
const issuePath = {
  ...repoPath,
  issue_number: { in: "path", type: "string", required: true, pattern: DIGITS },
} as const;
const commentPath = {
  ...repoPath,
  comment_id: { in: "path", type: "string", required: true, pattern: DIGITS },
} as const;
const reactionId = { reaction_id: { in: "path", type: "string", required: true, pattern: DIGITS } } as const;

const body = { body: { in: "body", type: "string", required: true } } as const satisfies Record<string, ParamSpec>;
/** Checked against GitHub's eight contents in the service, which answers GitHub's 422 for any other. */
const content = { content: { in: "body", type: "string", required: true } } as const satisfies Record<
  string,
  ParamSpec
>;
const since = { since: { in: "query", type: "string" } } as const satisfies Record<string, ParamSpec>;
const byContent = { content: { in: "query", type: "string" }, ...paging } as const satisfies Record<string, ParamSpec>;

const READ: AcceptedPermissions = [{ issues: "read" }];
const WRITE: AcceptedPermissions = [{ issues: "write" }];

function row<
  const M extends "GET" | "POST" | "PATCH" | "DELETE",
  const P extends Readonly<Record<string, ParamSpec>>,
  const R extends ResponseKind,
>(method: M, path: string, params: P, response: R, docs: string, summary: string) {
  return {
    method,
    path,
    params,
    // As the issue rows: anonymous callers read public repositories; writes refuse them in the services.
    auth: method === "GET" ? "optional" : "required",
    acceptedScopes: method === "GET" ? [] : ISSUE_SCOPES,
    permissions: method === "GET" ? READ : WRITE,
    response,
    resource: response.startsWith("Reaction") ? "Reaction" : "IssueComment",
    documentationUrl: docs,
    summary,
    tag: "issues",
  } as const;
}

export const commentEndpoints = {
  listForIssue: row(
    "GET",
    "/repos/:user/:repo/issues/:issue_number/comments",
    { ...issuePath, ...since, ...paging },
    "IssueComment[]",
    `${COMMENT_DOCS}#list-issue-comments`,
    "List issue comments",
  ),
  create: row(
    "POST",
    "/repos/:user/:repo/issues/:issue_number/comments",
    { ...issuePath, ...body },
    "IssueComment",
    `${COMMENT_DOCS}#create-an-issue-comment`,
    "Create an issue comment",
  ),
  listForRepo: row(
    "GET",
    "/repos/:user/:repo/issues/comments",
    {
      ...repoPath,
      sort: { in: "query", type: "string" },
      direction: { in: "query", type: "string" },
      ...since,
      ...paging,
    },
    "IssueComment[]",
    `${COMMENT_DOCS}#list-issue-comments-for-a-repository`,
    "List issue comments for a repository",
  ),
  get: row(
    "GET",
    "/repos/:user/:repo/issues/comments/:comment_id",
    commentPath,
    "IssueComment",
    `${COMMENT_DOCS}#get-an-issue-comment`,
    "Get an issue comment",
  ),
  update: row(
    "PATCH",
    "/repos/:user/:repo/issues/comments/:comment_id",
    { ...commentPath, ...body },
    "IssueComment",
    `${COMMENT_DOCS}#update-an-issue-comment`,
    "Update an issue comment",
  ),
  delete: row(
    "DELETE",
    "/repos/:user/:repo/issues/comments/:comment_id",
    commentPath,
    "empty",
    `${COMMENT_DOCS}#delete-an-issue-comment`,
    "Delete an issue comment",
  ),
  listReactionsForIssue: row(
    "GET",
    "/repos/:user/:repo/issues/:issue_number/reactions",
    { ...issuePath, ...byContent },
    "Reaction[]",
    `${REACTION_DOCS}#list-reactions-for-an-issue`,
    "List reactions for an issue",
  ),
  createReactionForIssue: row(
    "POST",
    "/repos/:user/:repo/issues/:issue_number/reactions",
    { ...issuePath, ...content },
    "Reaction",
    `${REACTION_DOCS}#create-reaction-for-an-issue`,
    "Create reaction for an issue",
  ),
  deleteReactionForIssue: row(
    "DELETE",
    "/repos/:user/:repo/issues/:issue_number/reactions/:reaction_id",
    { ...issuePath, ...reactionId },
    "empty",
    `${REACTION_DOCS}#delete-an-issue-reaction`,
    "Delete an issue reaction",
  ),
  listReactionsForComment: row(
    "GET",
    "/repos/:user/:repo/issues/comments/:comment_id/reactions",
    { ...commentPath, ...byContent },
    "Reaction[]",
    `${REACTION_DOCS}#list-reactions-for-an-issue-comment`,
    "List reactions for an issue comment",
  ),
  createReactionForComment: row(
    "POST",
    "/repos/:user/:repo/issues/comments/:comment_id/reactions",
    { ...commentPath, ...content },
    "Reaction",
    `${REACTION_DOCS}#create-reaction-for-an-issue-comment`,
    "Create reaction for an issue comment",
  ),
  deleteReactionForComment: row(
    "DELETE",
    "/repos/:user/:repo/issues/comments/:comment_id/reactions/:reaction_id",
    { ...commentPath, ...reactionId },
    "empty",
    `${REACTION_DOCS}#delete-an-issue-comment-reaction`,
    "Delete an issue comment reaction",
  ),
} as const;
