/**
 * The repository family's rows of the endpoint table (./endpoints.ts spreads them in): repositories created, edited,
 * deleted and forked, and the lists of an account's repositories (https://docs.github.com/rest/repos/repos,
 * /rest/repos/forks). Each write is an action of the action log. No Node-only imports.
 */
import { paging, type ParamSpec } from "./params.js";
import type { AcceptedPermissions } from "./permissions.js";
import type { ResponseKind } from "./responses.js";

const DOCS = "https://docs.github.com/rest/repos";

/**
 * A classic token's scopes, as GitHub documents them: `repo` for any repository, `public_repo` for a public one (the
 * services apply that restriction); deleting takes `delete_repo`. Reads of public repositories need none.
 */
export const REPOSITORY_SCOPES = ["public_repo", "repo"] as const;
export const DELETE_REPOSITORY_SCOPES = ["delete_repo"] as const;

/** Fine-grained tokens: Administration to create, edit and delete, Metadata to read (GitHub's permissions pages). */
const ADMINISTRATION: AcceptedPermissions = [{ administration: "write" }];
const METADATA: AcceptedPermissions = [{ metadata: "read" }];

const required = { in: "path", type: "string", required: true } as const;
const repoPath = { user: required, repo: required } as const satisfies Record<string, ParamSpec>;

/** What creating and editing take alike. */
const settings = {
  description: { in: "body", type: "string", nullable: true },
  homepage: { in: "body", type: "string", nullable: true },
  private: { in: "body", type: "boolean" },
  visibility: { in: "body", type: "string", description: "`public` or `private`; says the same as `private`." },
  has_issues: { in: "body", type: "boolean" },
  has_projects: { in: "body", type: "boolean" },
  has_wiki: { in: "body", type: "boolean" },
} as const satisfies Record<string, ParamSpec>;

const createBody = {
  name: { in: "body", type: "string", required: true },
  ...settings,
  auto_init: {
    in: "body",
    type: "boolean",
    description: "Makes GitHub's first commit, a README.md of the name and description, on the default branch.",
  },
} as const satisfies Record<string, ParamSpec>;

const listOrder = {
  sort: { in: "query", type: "string" },
  direction: { in: "query", type: "string" },
} as const satisfies Record<string, ParamSpec>;

function repositoryRow<
  const M extends "GET" | "POST" | "PATCH" | "DELETE",
  const P extends Readonly<Record<string, ParamSpec>>,
  const R extends ResponseKind,
>(
  method: M,
  path: string,
  params: P,
  need: { auth: "optional" | "required"; acceptedScopes: readonly string[]; permissions: AcceptedPermissions },
  response: R,
  anchor: string,
  summary: string,
) {
  return {
    method,
    path,
    params,
    ...need,
    response,
    resource: "Repository",
    documentationUrl: `${DOCS}/${anchor}`,
    summary,
    tag: "repos",
  } as const;
}

const WRITE = { auth: "required", acceptedScopes: REPOSITORY_SCOPES, permissions: ADMINISTRATION } as const;
const READ = { auth: "optional", acceptedScopes: [], permissions: METADATA } as const;

export const repositoryEndpoints = {
  createForAuthenticatedUser: repositoryRow(
    "POST",
    "/user/repos",
    createBody,
    WRITE,
    "Repository",
    "repos#create-a-repository-for-the-authenticated-user",
    "Create a repository for the authenticated user",
  ),
  createInOrg: repositoryRow(
    "POST",
    "/orgs/:org/repos",
    { org: required, ...createBody },
    WRITE,
    "Repository",
    "repos#create-an-organization-repository",
    "Create an organization repository",
  ),
  update: repositoryRow(
    "PATCH",
    "/repos/:user/:repo",
    {
      ...repoPath,
      name: { in: "body", type: "string" },
      ...settings,
      default_branch: { in: "body", type: "string" },
      archived: { in: "body", type: "boolean" },
    },
    WRITE,
    "Repository",
    "repos#update-a-repository",
    "Update a repository",
  ),
  delete: repositoryRow(
    "DELETE",
    "/repos/:user/:repo",
    repoPath,
    { ...WRITE, acceptedScopes: DELETE_REPOSITORY_SCOPES },
    "empty",
    "repos#delete-a-repository",
    "Delete a repository",
  ),
  createFork: repositoryRow(
    "POST",
    "/repos/:user/:repo/forks",
    {
      ...repoPath,
      organization: { in: "body", type: "string" },
      name: { in: "body", type: "string" },
      default_branch_only: { in: "body", type: "boolean" },
    },
    WRITE,
    "Fork",
    "forks#create-a-fork",
    "Create a fork",
  ),
  listForks: repositoryRow(
    "GET",
    "/repos/:user/:repo/forks",
    { ...repoPath, sort: { in: "query", type: "string" }, ...paging },
    READ,
    "MinimalRepository[]",
    "forks#list-forks",
    "List forks",
  ),
  listForAuthenticatedUser: repositoryRow(
    "GET",
    "/user/repos",
    {
      visibility: { in: "query", type: "string" },
      affiliation: { in: "query", type: "string" },
      type: { in: "query", type: "string" },
      ...listOrder,
      since: { in: "query", type: "string" },
      before: { in: "query", type: "string" },
      ...paging,
    },
    { auth: "required", acceptedScopes: [], permissions: METADATA },
    "MinimalRepository[]",
    "repos#list-repositories-for-the-authenticated-user",
    "List repositories for the authenticated user",
  ),
  listForUser: repositoryRow(
    "GET",
    "/users/:user/repos",
    { user: required, type: { in: "query", type: "string" }, ...listOrder, ...paging },
    READ,
    "MinimalRepository[]",
    "repos#list-repositories-for-a-user",
    "List repositories for a user",
  ),
  listForOrg: repositoryRow(
    "GET",
    "/orgs/:org/repos",
    { org: required, type: { in: "query", type: "string" }, ...listOrder, ...paging },
    READ,
    "MinimalRepository[]",
    "repos#list-organization-repositories",
    "List organization repositories",
  ),
} as const;
