/**
 * The issue family's rows of the endpoint table (./endpoints.ts spreads them in): GitHub's issues API
 * (https://docs.github.com/rest/issues), each a write of the action log or a read of its state. No Node-only imports.
 */
import { DIGITS, paging, type ParamSpec } from "./params.js";
import type { AcceptedPermissions } from "./permissions.js";
import type { ResponseKind } from "./responses.js";

const DOCS = "https://docs.github.com/rest/issues/issues";

/**
 * The scopes GitHub accepts for the issues of a repository: `repo`, or `public_repo` on a public one (the services
 * apply that restriction, as for hooks). Reads of a public repository need none.
 */
export const ISSUE_SCOPES = ["public_repo", "repo"] as const;

export const repoPath = {
  user: { in: "path", type: "string", required: true },
  repo: { in: "path", type: "string", required: true },
} as const satisfies Record<string, ParamSpec>;
export const issuePath = {
  ...repoPath,
  issue_number: { in: "path", type: "string", required: true, pattern: DIGITS },
} as const;

/** What create and update take; `labels` and `assignees` are names, `milestone` a number (null: none). */
const issueFields = {
  title: { in: "body", type: "string|number" },
  body: { in: "body", type: "string", nullable: true },
  assignee: { in: "body", type: "string", nullable: true },
  milestone: { in: "body", type: "string|number", nullable: true },
  labels: { in: "body", type: "array" },
  assignees: { in: "body", type: "array" },
} as const satisfies Record<string, ParamSpec>;

const listQuery = {
  milestone: { in: "query", type: "string" },
  state: { in: "query", type: "string" },
  assignee: { in: "query", type: "string" },
  creator: { in: "query", type: "string" },
  mentioned: { in: "query", type: "string" },
  labels: { in: "query", type: "string" },
  sort: { in: "query", type: "string" },
  direction: { in: "query", type: "string" },
  since: { in: "query", type: "string" },
  ...paging,
} as const satisfies Record<string, ParamSpec>;

export const READ: AcceptedPermissions = [{ issues: "read" }];
export const WRITE: AcceptedPermissions = [{ issues: "write" }];

export function issueRow<
  const M extends "GET" | "POST" | "PATCH" | "PUT" | "DELETE",
  const P extends Readonly<Record<string, ParamSpec>>,
  const R extends ResponseKind,
>(method: M, path: string, params: P, response: R, anchor: string, summary: string) {
  return {
    method,
    path,
    params,
    // Anonymous callers read public repositories; writes refuse them in the services, with GitHub's 404 or 401.
    auth: method === "GET" ? "optional" : "required",
    acceptedScopes: method === "GET" ? [] : ISSUE_SCOPES,
    permissions: method === "GET" ? READ : WRITE,
    response,
    resource: "Issue",
    documentationUrl: `${DOCS}#${anchor}`,
    summary,
    tag: "issues",
  } as const;
}

export const issueEndpoints = {
  listForRepo: issueRow(
    "GET",
    "/repos/:user/:repo/issues",
    { ...repoPath, ...listQuery },
    "Issue[]",
    "list-repository-issues",
    "List repository issues",
  ),
  create: {
    ...issueRow(
      "POST",
      "/repos/:user/:repo/issues",
      { ...repoPath, ...issueFields, title: { in: "body", type: "string|number", required: true } },
      "Issue",
      "create-an-issue",
      "Create an issue",
    ),
    // An issue without a title is `Invalid request.` naming "title" (recorded octokit.rb interactions, wire notes 3.4).
    schemaChecked: true,
  },
  get: issueRow("GET", "/repos/:user/:repo/issues/:issue_number", issuePath, "Issue", "get-an-issue", "Get an issue"),
  update: issueRow(
    "PATCH",
    "/repos/:user/:repo/issues/:issue_number",
    {
      ...issuePath,
      ...issueFields,
      state: { in: "body", type: "string" },
      state_reason: { in: "body", type: "string", nullable: true },
    },
    "Issue",
    "update-an-issue",
    "Update an issue",
  ),
  lock: issueRow(
    "PUT",
    "/repos/:user/:repo/issues/:issue_number/lock",
    { ...issuePath, lock_reason: { in: "body", type: "string" } },
    "empty",
    "lock-an-issue",
    "Lock an issue",
  ),
  unlock: issueRow(
    "DELETE",
    "/repos/:user/:repo/issues/:issue_number/lock",
    issuePath,
    "empty",
    "unlock-an-issue",
    "Unlock an issue",
  ),
  listEvents: {
    ...issueRow(
      "GET",
      "/repos/:user/:repo/issues/:issue_number/events",
      { ...issuePath, ...paging },
      "IssueEventOfIssue[]",
      "list-issue-events",
      "List issue events",
    ),
    documentationUrl: "https://docs.github.com/rest/issues/events#list-issue-events",
  },
  listEventsForTimeline: {
    ...issueRow(
      "GET",
      "/repos/:user/:repo/issues/:issue_number/timeline",
      { ...issuePath, ...paging },
      "TimelineItem[]",
      "list-timeline-events-for-an-issue",
      "List timeline events for an issue",
    ),
    documentationUrl: "https://docs.github.com/rest/issues/timeline#list-timeline-events-for-an-issue",
  },
} as const;
