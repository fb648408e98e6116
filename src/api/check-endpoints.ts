/**
 * What CI reports of a commit, the check family's rows of the endpoint table (./endpoints.ts spreads them in as
 * `statuses` and `checks`): commit statuses (https://docs.github.com/rest/commits/statuses), which anyone with push
 * access reports, and check runs and suites (https://docs.github.com/rest/checks), which only GitHub Apps write. A
 * `ref` is a branch, a tag or a commit's SHA-1. No Node-only imports.
 */
import { paging, type ParamSpec } from "./params.js";
import type { AcceptedPermissions } from "./permissions.js";
import type { ResponseKind } from "./responses.js";

/**
 * A classic token's scopes for reporting a status: `repo:status` (which `repo` includes), or `public_repo` on a
 * public repository (the services apply that restriction). Reads of a public repository need none.
 */
export const STATUS_SCOPES = ["public_repo", "repo:status"] as const;

const required = { in: "path", type: "string", required: true } as const;
const repoPath = { user: required, repo: required } as const satisfies Record<string, ParamSpec>;
const byRef = { ...repoPath, ref: { ...required, description: "A branch, a tag or a commit's SHA-1" } } as const;

/** The permission a row needs from an app or a fine-grained token: `statuses` or `checks`, to read or to write. */
type Family = "statuses" | "checks";
const permissionsOf = (family: Family, write: boolean): AcceptedPermissions => [{ [family]: write ? "write" : "read" }];

function checkRow<
  const M extends "GET" | "POST" | "PATCH",
  const P extends Readonly<Record<string, ParamSpec>>,
  const R extends ResponseKind,
>(
  family: Family,
  method: M,
  path: string,
  params: P,
  response: R,
  page: { docs: string; resource: string },
  summary: string,
) {
  const write = method !== "GET";
  return {
    method,
    path,
    params,
    // Anonymous callers read public repositories; writes refuse them in the services, with GitHub's 404 or 401.
    auth: write ? "required" : "optional",
    acceptedScopes: write && family === "statuses" ? STATUS_SCOPES : [],
    permissions: permissionsOf(family, write),
    response,
    resource: page.resource,
    documentationUrl: page.docs,
    summary,
    tag: "checks",
  } as const;
}

const statuses = (anchor: string) =>
  ({ docs: `https://docs.github.com/rest/commits/statuses#${anchor}`, resource: "Status" }) as const;

export const statusEndpoints = {
  create: checkRow(
    "statuses",
    "POST",
    "/repos/:user/:repo/statuses/:sha",
    {
      ...repoPath,
      sha: required,
      state: {
        in: "body",
        type: "string",
        required: true,
        description: "`error`, `failure`, `pending` or `success`.",
      },
      target_url: { in: "body", type: "string", nullable: true },
      description: { in: "body", type: "string", nullable: true },
      context: { in: "body", type: "string", description: "What reports the status; `default` when left out." },
    },
    "CommitStatus",
    statuses("create-a-commit-status"),
    "Create a commit status",
  ),
  listForRef: checkRow(
    "statuses",
    "GET",
    "/repos/:user/:repo/commits/:ref/statuses",
    { ...byRef, ...paging },
    "CommitStatus[]",
    statuses("list-commit-statuses-for-a-reference"),
    "List commit statuses for a reference",
  ),
  // GitHub's legacy path of the same list, which its description still names. Its ref is named `sha` as the create's
  // is: the router keeps one name for a position of one path, whatever the method.
  listForRefLegacy: checkRow(
    "statuses",
    "GET",
    "/repos/:user/:repo/statuses/:sha",
    { ...repoPath, sha: { ...required, description: "A branch, a tag or a commit's SHA-1" }, ...paging },
    "CommitStatus[]",
    statuses("list-commit-statuses-for-a-reference"),
    "List commit statuses for a reference (the legacy path)",
  ),
  getCombinedForRef: checkRow(
    "statuses",
    "GET",
    "/repos/:user/:repo/commits/:ref/status",
    { ...byRef, ...paging },
    "CombinedCommitStatus",
    statuses("get-the-combined-status-for-a-specific-reference"),
    "Get the combined status for a specific reference",
  ),
} as const;
