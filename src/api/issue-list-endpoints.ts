/**
 * The caller's issues across repositories (https://docs.github.com/rest/issues/issues#list-issues-assigned-to-the-authenticated-user):
 * `GET /issues`, `/user/issues` and `/orgs/{org}/issues`. No Node-only imports.
 */
import { paging, type ParamSpec } from "./params.js";

const DOCS = "https://docs.github.com/rest/issues/issues";

const query = {
  filter: {
    in: "query",
    type: "string",
    description: "assigned (the default), created, mentioned, subscribed, repos or all",
  },
  state: { in: "query", type: "string" },
  labels: { in: "query", type: "string" },
  sort: { in: "query", type: "string" },
  direction: { in: "query", type: "string" },
  since: { in: "query", type: "string" },
  ...paging,
} as const satisfies Record<string, ParamSpec>;

function listRow<const P extends Readonly<Record<string, ParamSpec>>>(
  path: string,
  params: P,
  anchor: string,
  summary: string,
) {
  return {
    method: "GET",
    path,
    params,
    auth: "required",
    acceptedScopes: [],
    permissions: [{ issues: "read" }],
    response: "IssueWithRepository[]",
    resource: "Issue",
    documentationUrl: `${DOCS}#${anchor}`,
    summary,
    tag: "issues",
  } as const;
}

export const issueListEndpoints = {
  listForAuthenticatedUser: listRow(
    "/issues",
    query,
    "list-issues-assigned-to-the-authenticated-user",
    "List issues assigned to the authenticated user",
  ),
  listForOwnedAndMemberRepos: listRow(
    "/user/issues",
    query,
    "list-user-account-issues-assigned-to-the-authenticated-user",
    "List user account issues assigned to the authenticated user",
  ),
  listForOrg: listRow(
    "/orgs/:org/issues",
    { org: { in: "path", type: "string", required: true }, ...query },
    "list-organization-issues-assigned-to-the-authenticated-user",
    "List organization issues assigned to the authenticated user",
  ),
} as const;
