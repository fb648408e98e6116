/**
 * Branch protection's rows of the endpoint table (./endpoints.ts spreads them in as `branchProtection`): GitHub's
 * protection of a branch (https://docs.github.com/rest/branches/branch-protection), the whole of it and the two parts
 * bots read, the required status checks and the required reviews. Only the repository's administrators see or change
 * it: a classic token `repo`, a fine-grained token or app the Administration permission. No Node-only imports.
 */
import type { ParamSpec } from "./params.js";
import type { AcceptedPermissions } from "./permissions.js";
import type { ResponseKind } from "./responses.js";

const DOCS = "https://docs.github.com/rest/branches/branch-protection";

/** Classic tokens: `repo`, as GitHub documents for a repository's administration. */
export const PROTECTION_SCOPES = ["repo"] as const;
const READ: AcceptedPermissions = [{ administration: "read" }];
const WRITE: AcceptedPermissions = [{ administration: "write" }];

const required = { in: "path", type: "string", required: true } as const;
const branchPath = { user: required, repo: required, branch: required } as const satisfies Record<string, ParamSpec>;

/** What `PUT .../protection` takes: GitHub's four required parts (each `null` to leave it off) and the switches. */
const protectionBody = {
  required_status_checks: {
    in: "body",
    type: "object",
    required: true,
    nullable: true,
    properties: { strict: "boolean", contexts: "strings", checks: "objects" },
    description:
      "`strict` (the head must hold the base's head) and the checks required: `contexts`, or `checks` with an `app_id` each.",
  },
  enforce_admins: {
    in: "body",
    type: "boolean",
    required: true,
    nullable: true,
    description: "Whether the rules apply to the repository's administrators too.",
  },
  required_pull_request_reviews: {
    in: "body",
    type: "object",
    required: true,
    nullable: true,
    properties: {
      dismissal_restrictions: "object",
      dismiss_stale_reviews: "boolean",
      require_code_owner_reviews: "boolean",
      required_approving_review_count: "integer",
      require_last_push_approval: "boolean",
      bypass_pull_request_allowances: "object",
    },
    description: "Changes only through a pull request, with `required_approving_review_count` approvals (0 to 6).",
  },
  restrictions: {
    in: "body",
    type: "object",
    required: true,
    nullable: true,
    properties: { users: "strings", teams: "strings", apps: "strings" },
    description: "Who alone may push: an organization's repository only.",
  },
  required_linear_history: { in: "body", type: "boolean" },
  allow_force_pushes: { in: "body", type: "boolean", nullable: true },
  allow_deletions: { in: "body", type: "boolean" },
  block_creations: { in: "body", type: "boolean" },
  required_conversation_resolution: { in: "body", type: "boolean" },
  lock_branch: { in: "body", type: "boolean" },
  allow_fork_syncing: { in: "body", type: "boolean" },
} as const satisfies Record<string, ParamSpec>;

function row<
  const M extends "GET" | "PUT" | "DELETE",
  const P extends Readonly<Record<string, ParamSpec>>,
  const R extends ResponseKind,
>(method: M, path: string, params: P, response: R, anchor: string, summary: string) {
  return {
    method,
    path,
    params,
    // GitHub answers anyone who may not administer the repository 404, anonymous callers too: the service decides.
    auth: method === "GET" ? "optional" : "required",
    acceptedScopes: PROTECTION_SCOPES,
    permissions: method === "GET" ? READ : WRITE,
    response,
    resource: "ProtectedBranch",
    documentationUrl: `${DOCS}#${anchor}`,
    summary,
    tag: "repos",
  } as const;
}

export const protectionEndpoints = {
  get: row(
    "GET",
    "/repos/:user/:repo/branches/:branch/protection",
    branchPath,
    "BranchProtection",
    "get-branch-protection",
    "Get branch protection",
  ),
  update: {
    ...row(
      "PUT",
      "/repos/:user/:repo/branches/:branch/protection",
      { ...branchPath, ...protectionBody },
      "BranchProtection",
      "update-branch-protection",
      "Update branch protection",
    ),
    schemaChecked: true,
  },
  delete: row(
    "DELETE",
    "/repos/:user/:repo/branches/:branch/protection",
    branchPath,
    "empty",
    "delete-branch-protection",
    "Delete branch protection",
  ),
  getStatusChecks: row(
    "GET",
    "/repos/:user/:repo/branches/:branch/protection/required_status_checks",
    branchPath,
    "StatusCheckPolicy",
    "get-status-checks-protection",
    "Get status checks protection",
  ),
  getPullRequestReviews: row(
    "GET",
    "/repos/:user/:repo/branches/:branch/protection/required_pull_request_reviews",
    branchPath,
    "ProtectedBranchPullRequestReview",
    "get-pull-request-review-protection",
    "Get pull request review protection",
  ),
} as const;
