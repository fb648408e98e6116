/**
 * The commit comments' rows of the endpoint table (./endpoints.ts spreads them in as `commitComments`): GitHub's
 * comments on a repository's commits (https://docs.github.com/rest/commits/comments), under the repository's Contents
 * permission. A commit is named as the commit look-ups name it (`/commits/:ref`, whose position the router gives one
 * name): a SHA-1, or a branch or tag. Writes are actions of the action log. No Node-only imports.
 */
import { CODE_SCOPES } from "./git-endpoints.js";
import { DIGITS, paging, type ParamSpec } from "./params.js";
import type { AcceptedPermissions } from "./permissions.js";
import type { ResponseKind } from "./responses.js";

const DOCS = "https://docs.github.com/rest/commits/comments";

const READ: AcceptedPermissions = [{ contents: "read" }];
const WRITE: AcceptedPermissions = [{ contents: "write" }];

const required = { in: "path", type: "string", required: true } as const;
const repoPath = { user: required, repo: required } as const satisfies Record<string, ParamSpec>;
const commitPath = {
  ...repoPath,
  ref: { ...required, description: "The commit's SHA-1 (GitHub's `commit_sha`), or a branch or tag" },
} as const satisfies Record<string, ParamSpec>;
const commentPath = { ...repoPath, comment_id: { ...required, pattern: DIGITS } } as const;
const body = { body: { in: "body", type: "string", required: true } } as const satisfies Record<string, ParamSpec>;
const REACTION_DOCS = "https://docs.github.com/rest/reactions/reactions";

function row<
  const M extends "GET" | "POST" | "PATCH" | "DELETE",
  const P extends Readonly<Record<string, ParamSpec>>,
  const R extends ResponseKind,
>(method: M, path: string, params: P, response: R, anchor: string, summary: string) {
  const reaction = response.startsWith("Reaction") || path.endsWith("/:reaction_id");
  return {
    method,
    path,
    params,
    // Anonymous callers read public repositories' comments; writes refuse them in the service.
    auth: method === "GET" ? "optional" : "required",
    acceptedScopes: method === "GET" ? [] : CODE_SCOPES,
    permissions: method === "GET" ? READ : WRITE,
    response,
    resource: reaction ? "Reaction" : "CommitComment",
    documentationUrl: `${reaction ? REACTION_DOCS : DOCS}#${anchor}`,
    summary,
    tag: "repos",
  } as const;
}

export const commitCommentEndpoints = {
  listForRepo: row(
    "GET",
    "/repos/:user/:repo/comments",
    { ...repoPath, ...paging },
    "CommitComment[]",
    "list-commit-comments-for-a-repository",
    "List commit comments for a repository",
  ),
  get: row(
    "GET",
    "/repos/:user/:repo/comments/:comment_id",
    commentPath,
    "CommitComment",
    "get-a-commit-comment",
    "Get a commit comment",
  ),
  update: row(
    "PATCH",
    "/repos/:user/:repo/comments/:comment_id",
    { ...commentPath, ...body },
    "CommitComment",
    "update-a-commit-comment",
    "Update a commit comment",
  ),
  delete: row(
    "DELETE",
    "/repos/:user/:repo/comments/:comment_id",
    commentPath,
    "empty",
    "delete-a-commit-comment",
    "Delete a commit comment",
  ),
  listReactions: row(
    "GET",
    "/repos/:user/:repo/comments/:comment_id/reactions",
    { ...commentPath, content: { in: "query", type: "string" }, ...paging },
    "Reaction[]",
    "list-reactions-for-a-commit-comment",
    "List reactions for a commit comment",
  ),
  createReaction: row(
    "POST",
    "/repos/:user/:repo/comments/:comment_id/reactions",
    { ...commentPath, content: { in: "body", type: "string", required: true } },
    "Reaction",
    "create-reaction-for-a-commit-comment",
    "Create reaction for a commit comment",
  ),
  deleteReaction: row(
    "DELETE",
    "/repos/:user/:repo/comments/:comment_id/reactions/:reaction_id",
    { ...commentPath, reaction_id: { ...required, pattern: DIGITS } },
    "empty",
    "delete-a-commit-comment-reaction",
    "Delete a commit comment reaction",
  ),
  listForCommit: row(
    "GET",
    "/repos/:user/:repo/commits/:ref/comments",
    { ...commitPath, ...paging },
    "CommitComment[]",
    "list-commit-comments",
    "List commit comments",
  ),
  create: {
    ...row(
      "POST",
      "/repos/:user/:repo/commits/:ref/comments",
      {
        ...commitPath,
        ...body,
        path: { in: "body", type: "string", description: "The file of the commit the comment is on." },
        position: { in: "body", type: "string|number", description: "The line's index in the file's diff." },
        line: {
          in: "body",
          type: "string|number",
          description: "GitHub's closing-down `line`: the line of the file.",
        },
      },
      "CommitComment",
      "create-a-commit-comment",
      "Create a commit comment",
    ),
    schemaChecked: true,
  },
} as const;
