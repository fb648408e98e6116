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

const runs = (anchor: string) =>
  ({ docs: `https://docs.github.com/rest/checks/runs#${anchor}`, resource: "CheckRun" }) as const;
const suites = (anchor: string) =>
  ({ docs: `https://docs.github.com/rest/checks/suites#${anchor}`, resource: "CheckSuite" }) as const;

const runPath = { ...repoPath, check_run_id: required } as const;
const suitePath = { ...repoPath, check_suite_id: required } as const;

/** What a run is told, when made or updated: each optional on an update. */
const runBody = {
  details_url: { in: "body", type: "string" },
  external_id: { in: "body", type: "string" },
  status: { in: "body", type: "string", description: "`queued` (the default), `in_progress` or `completed`." },
  started_at: { in: "body", type: "string", description: "ISO 8601; now when left out." },
  conclusion: {
    in: "body",
    type: "string",
    description:
      "Required with `completed_at` or status `completed`, and completes the run: `action_required`, `cancelled`, " +
      "`failure`, `neutral`, `success`, `skipped` or `timed_out`.",
  },
  completed_at: { in: "body", type: "string", description: "ISO 8601." },
  output: {
    in: "body",
    type: "object",
    properties: { title: "string", summary: "string", text: "string", annotations: "objects" },
    description: "`title` and `summary`, with `text`; `annotations` (at most 50 a request) are added to the run's.",
  },
} as const satisfies Record<string, ParamSpec>;

/** A listing's filters of a commit's runs (GitHub's `check_name`, `status`, `filter`, `app_id`). */
const runFilters = {
  check_name: { in: "query", type: "string" },
  status: { in: "query", type: "string", description: "`queued`, `in_progress` or `completed`." },
  filter: { in: "query", type: "string", description: "`latest` (the default: each name's newest) or `all`." },
  app_id: { in: "query", type: "number", pattern: "^[0-9]+$" },
} as const satisfies Record<string, ParamSpec>;

export const checkEndpoints = {
  create: checkRow(
    "checks",
    "POST",
    "/repos/:user/:repo/check-runs",
    {
      ...repoPath,
      name: { in: "body", type: "string", required: true },
      head_sha: { in: "body", type: "string", required: true },
      ...runBody,
    },
    "CheckRun",
    runs("create-a-check-run"),
    "Create a check run",
  ),
  get: checkRow(
    "checks",
    "GET",
    "/repos/:user/:repo/check-runs/:check_run_id",
    runPath,
    "CheckRun",
    runs("get-a-check-run"),
    "Get a check run",
  ),
  update: checkRow(
    "checks",
    "PATCH",
    "/repos/:user/:repo/check-runs/:check_run_id",
    { ...runPath, name: { in: "body", type: "string" }, ...runBody },
    "CheckRun",
    runs("update-a-check-run"),
    "Update a check run",
  ),
  listAnnotations: checkRow(
    "checks",
    "GET",
    "/repos/:user/:repo/check-runs/:check_run_id/annotations",
    { ...runPath, ...paging },
    "CheckAnnotation[]",
    runs("list-check-run-annotations"),
    "List check run annotations",
  ),
  rerequestRun: checkRow(
    "checks",
    "POST",
    "/repos/:user/:repo/check-runs/:check_run_id/rerequest",
    runPath,
    "EmptyObject",
    runs("rerequest-a-check-run"),
    "Rerequest a check run",
  ),
  listForRef: checkRow(
    "checks",
    "GET",
    "/repos/:user/:repo/commits/:ref/check-runs",
    { ...byRef, ...runFilters, ...paging },
    "CheckRunList",
    runs("list-check-runs-for-a-git-reference"),
    "List check runs for a Git reference",
  ),
  getSuite: checkRow(
    "checks",
    "GET",
    "/repos/:user/:repo/check-suites/:check_suite_id",
    suitePath,
    "CheckSuite",
    suites("get-a-check-suite"),
    "Get a check suite",
  ),
  listForSuite: checkRow(
    "checks",
    "GET",
    "/repos/:user/:repo/check-suites/:check_suite_id/check-runs",
    {
      ...suitePath,
      check_name: runFilters.check_name,
      status: runFilters.status,
      filter: runFilters.filter,
      ...paging,
    },
    "CheckRunList",
    runs("list-check-runs-in-a-check-suite"),
    "List check runs in a check suite",
  ),
  rerequestSuite: checkRow(
    "checks",
    "POST",
    "/repos/:user/:repo/check-suites/:check_suite_id/rerequest",
    suitePath,
    "EmptyObject",
    suites("rerequest-a-check-suite"),
    "Rerequest a check suite",
  ),
  // 201 for a suite made, 200 for the app's suite the SHA had (the route answers it), as GitHub does.
  createSuite: checkRow(
    "checks",
    "POST",
    "/repos/:user/:repo/check-suites",
    { ...repoPath, head_sha: { in: "body", type: "string", required: true } },
    "CheckSuite",
    suites("create-a-check-suite"),
    "Create a check suite",
  ),
  // Repository administration: GitHub's "You must have admin permissions in the repository".
  setSuitesPreferences: {
    ...checkRow(
      "checks",
      "PATCH",
      "/repos/:user/:repo/check-suites/preferences",
      {
        ...repoPath,
        auto_trigger_checks: {
          in: "body",
          type: "array",
          items: { app_id: "string|number", setting: "boolean" },
          description: "Each app's `setting`: whether a push makes its check suite (the default, `true`).",
        },
      },
      "CheckSuitePreference",
      suites("update-repository-preferences-for-check-suites"),
      "Update repository preferences for check suites",
    ),
    acceptedScopes: ["repo"],
    permissions: [{ administration: "write" }],
  },
  listSuitesForRef: checkRow(
    "checks",
    "GET",
    "/repos/:user/:repo/commits/:ref/check-suites",
    { ...byRef, app_id: runFilters.app_id, ...paging },
    "CheckSuiteList",
    suites("list-check-suites-for-a-git-reference"),
    "List check suites for a Git reference",
  ),
} as const;
