/**
 * The rows of what hangs on a repository's issues (./endpoints.ts spreads them in as `labels`): its labels, an issue's
 * labels, milestones and assignees (https://docs.github.com/rest/issues/labels, /milestones, /assignees). Each write
 * is an action of the action log; the rows share the issue rows' access rule (./issue-endpoints.ts). No Node-only
 * imports.
 */
import { DIGITS, paging, type ParamSpec } from "./params.js";
import { issuePath, issueRow, repoPath } from "./issue-endpoints.js";
import type { ResponseKind } from "./responses.js";

const DOCS = "https://docs.github.com/rest/issues";

/** An issue row of another page of GitHub's issues documentation, naming its own resource in validation errors. */
function row<
  const M extends "GET" | "POST" | "PATCH" | "PUT" | "DELETE",
  const P extends Readonly<Record<string, ParamSpec>>,
  const R extends ResponseKind,
>(
  method: M,
  path: string,
  params: P,
  response: R,
  page: { resource: "Label" | "Milestone" | "Issue"; docs: "labels" | "milestones" | "assignees" },
  anchor: string,
  summary: string,
) {
  return {
    ...issueRow(method, path, params, response, anchor, summary),
    resource: page.resource,
    documentationUrl: `${DOCS}/${page.docs}#${anchor}`,
  } as const;
}

const LABELS = { resource: "Label", docs: "labels" } as const;
const MILESTONES = { resource: "Milestone", docs: "milestones" } as const;
const ASSIGNEES = { resource: "Issue", docs: "assignees" } as const;

const labelPath = { ...repoPath, name: { in: "path", type: "string", required: true } } as const;
const issueLabelPath = { ...issuePath, name: { in: "path", type: "string", required: true } } as const;
const milestonePath = {
  ...repoPath,
  milestone_number: { in: "path", type: "string", required: true, pattern: DIGITS },
} as const;

/** Six hex digits, without `#` (GitHub's documented form; anything else is its 422 `invalid` on `color`). */
const labelFields = {
  color: { in: "body", type: "string" },
  description: { in: "body", type: "string", nullable: true },
} as const satisfies Record<string, ParamSpec>;

/** An issue's labels as add and set take them (the routes also take a bare array, and `{name}` objects). */
const issueLabels = { labels: { in: "body", type: "array" } } as const satisfies Record<string, ParamSpec>;

const milestoneFields = {
  state: { in: "body", type: "string" },
  description: { in: "body", type: "string", nullable: true },
  due_on: { in: "body", type: "string", nullable: true, description: "An ISO 8601 time; null clears it." },
} as const satisfies Record<string, ParamSpec>;

const assignees = { assignees: { in: "body", type: "array" } } as const satisfies Record<string, ParamSpec>;

export const labelEndpoints = {
  listForRepo: row(
    "GET",
    "/repos/:user/:repo/labels",
    { ...repoPath, ...paging },
    "Label[]",
    LABELS,
    "list-labels-for-a-repository",
    "List labels for a repository",
  ),
  create: row(
    "POST",
    "/repos/:user/:repo/labels",
    { ...repoPath, name: { in: "body", type: "string", required: true }, ...labelFields },
    "Label",
    LABELS,
    "create-a-label",
    "Create a label",
  ),
  get: row("GET", "/repos/:user/:repo/labels/:name", labelPath, "Label", LABELS, "get-a-label", "Get a label"),
  update: row(
    "PATCH",
    "/repos/:user/:repo/labels/:name",
    { ...labelPath, new_name: { in: "body", type: "string" }, ...labelFields },
    "Label",
    LABELS,
    "update-a-label",
    "Update a label",
  ),
  delete: row(
    "DELETE",
    "/repos/:user/:repo/labels/:name",
    labelPath,
    "empty",
    LABELS,
    "delete-a-label",
    "Delete a label",
  ),
  listOnIssue: row(
    "GET",
    "/repos/:user/:repo/issues/:issue_number/labels",
    { ...issuePath, ...paging },
    "Label[]",
    LABELS,
    "list-labels-for-an-issue",
    "List labels for an issue",
  ),
  addToIssue: row(
    "POST",
    "/repos/:user/:repo/issues/:issue_number/labels",
    { ...issuePath, ...issueLabels },
    "Label[]",
    LABELS,
    "add-labels-to-an-issue",
    "Add labels to an issue",
  ),
  setForIssue: row(
    "PUT",
    "/repos/:user/:repo/issues/:issue_number/labels",
    { ...issuePath, ...issueLabels },
    "Label[]",
    LABELS,
    "set-labels-for-an-issue",
    "Set labels for an issue",
  ),
  removeFromIssue: row(
    "DELETE",
    "/repos/:user/:repo/issues/:issue_number/labels/:name",
    issueLabelPath,
    "Label[]",
    LABELS,
    "remove-a-label-from-an-issue",
    "Remove a label from an issue",
  ),
  removeAllFromIssue: row(
    "DELETE",
    "/repos/:user/:repo/issues/:issue_number/labels",
    issuePath,
    "empty",
    LABELS,
    "remove-all-labels-from-an-issue",
    "Remove all labels from an issue",
  ),
  listMilestones: row(
    "GET",
    "/repos/:user/:repo/milestones",
    {
      ...repoPath,
      state: { in: "query", type: "string" },
      sort: { in: "query", type: "string" },
      direction: { in: "query", type: "string" },
      ...paging,
    },
    "Milestone[]",
    MILESTONES,
    "list-milestones",
    "List milestones",
  ),
  createMilestone: row(
    "POST",
    "/repos/:user/:repo/milestones",
    { ...repoPath, title: { in: "body", type: "string", required: true }, ...milestoneFields },
    "Milestone",
    MILESTONES,
    "create-a-milestone",
    "Create a milestone",
  ),
  getMilestone: row(
    "GET",
    "/repos/:user/:repo/milestones/:milestone_number",
    milestonePath,
    "Milestone",
    MILESTONES,
    "get-a-milestone",
    "Get a milestone",
  ),
  updateMilestone: row(
    "PATCH",
    "/repos/:user/:repo/milestones/:milestone_number",
    { ...milestonePath, title: { in: "body", type: "string" }, ...milestoneFields },
    "Milestone",
    MILESTONES,
    "update-a-milestone",
    "Update a milestone",
  ),
  deleteMilestone: row(
    "DELETE",
    "/repos/:user/:repo/milestones/:milestone_number",
    milestonePath,
    "empty",
    MILESTONES,
    "delete-a-milestone",
    "Delete a milestone",
  ),
  listAssignees: row(
    "GET",
    "/repos/:user/:repo/assignees",
    { ...repoPath, ...paging },
    "SimpleUser[]",
    ASSIGNEES,
    "list-assignees",
    "List assignees",
  ),
  checkAssignee: row(
    "GET",
    "/repos/:user/:repo/assignees/:assignee",
    { ...repoPath, assignee: { in: "path", type: "string", required: true } },
    "empty",
    ASSIGNEES,
    "check-if-a-user-can-be-assigned",
    "Check if a user can be assigned",
  ),
  addAssignees: row(
    "POST",
    "/repos/:user/:repo/issues/:issue_number/assignees",
    { ...issuePath, ...assignees },
    "Issue",
    ASSIGNEES,
    "add-assignees-to-an-issue",
    "Add assignees to an issue",
  ),
  // GitHub's one DELETE with a body: Fastify takes no body schema there, so the service checks `assignees` itself.
  removeAssignees: row(
    "DELETE",
    "/repos/:user/:repo/issues/:issue_number/assignees",
    { ...issuePath, ...assignees },
    "Issue",
    ASSIGNEES,
    "remove-assignees-from-an-issue",
    "Remove assignees from an issue",
  ),
} as const;
