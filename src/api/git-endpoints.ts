/**
 * The code family's rows of the endpoint table (./endpoints.ts spreads them in as `git` and `contents`): git data
 * (https://docs.github.com/rest/git: blobs, trees, commits, refs, annotated tags) and a repository's contents
 * (https://docs.github.com/rest/repos/contents). A ref's name and a content's path hold slashes, so those rows end in
 * Fastify's wildcard (`*`), which the API description names `ref` and `path` as GitHub does. No Node-only imports.
 */
import { paging, type ParamSpec } from "./params.js";
import type { AcceptedPermissions } from "./permissions.js";
import type { ResponseKind } from "./responses.js";

/**
 * A classic token's scopes for writing a repository's code, as for its issues: `repo`, or `public_repo` on a public one
 * (the services apply that restriction). Reads of a public repository need none.
 */
export const CODE_SCOPES = ["public_repo", "repo"] as const;

/** Fine-grained tokens and apps: the repository's Contents permission. */
const READ: AcceptedPermissions = [{ contents: "read" }];
const WRITE: AcceptedPermissions = [{ contents: "write" }];

const required = { in: "path", type: "string", required: true } as const;
const repoPath = { user: required, repo: required } as const satisfies Record<string, ParamSpec>;
/** The wildcard's value: what follows the row's fixed part of the path (`heads/main`, `docs/README.md`). */
const rest = { "*": { ...required, description: "The rest of the path" } } as const satisfies Record<string, ParamSpec>;

/** A commit as the commit look-ups name it: GitHub's `commit_sha`, which may be a branch's name too. */
const commitRef = {
  ...required,
  description: "The commit's SHA-1 (GitHub's `commit_sha`), or a branch or tag",
} as const satisfies ParamSpec;

/** A commit's author, committer or an annotated tag's tagger as GitHub takes them (`date`: ISO 8601). */
const person = {
  in: "body",
  type: "object",
  properties: { name: "string", email: "string", date: "string" },
} as const satisfies ParamSpec;

/** What the contents API takes besides the content: where, and who. */
const commitOptions = {
  message: { in: "body", type: "string", required: true },
  branch: { in: "body", type: "string", description: "The branch to commit to; the default branch when left out." },
  committer: person,
  author: person,
} as const satisfies Record<string, ParamSpec>;

function codeRow<
  const M extends "GET" | "POST" | "PATCH" | "PUT" | "DELETE",
  const P extends Readonly<Record<string, ParamSpec>>,
  const R extends ResponseKind,
>(
  method: M,
  path: string,
  params: P,
  response: R,
  page: { docs: string; resource: string; tag: "git" | "contents" | "repos"; wildcard?: string },
  summary: string,
) {
  return {
    method,
    path,
    params,
    // Anonymous callers read public repositories; writes refuse them in the services, with GitHub's 404 or 401.
    auth: method === "GET" ? "optional" : "required",
    acceptedScopes: method === "GET" ? [] : CODE_SCOPES,
    permissions: method === "GET" ? READ : WRITE,
    response,
    resource: page.resource,
    documentationUrl: page.docs,
    summary,
    tag: page.tag,
    // GitHub checks these bodies against its JSON schema first: `Invalid request.\n\n"sha" wasn't supplied.`
    ...(method === "GET" ? {} : { schemaChecked: true }),
    ...(path.endsWith("/*") ? { wildcard: page.wildcard ?? (page.tag === "git" ? "ref" : "path") } : {}),
  } as const;
}

const GIT_DOCS = "https://docs.github.com/rest/git";
const git = (page: string, anchor: string, resource: string) =>
  ({ docs: `${GIT_DOCS}/${page}#${anchor}`, resource, tag: "git" }) as const;
const contents = (anchor: string) =>
  ({ docs: `https://docs.github.com/rest/repos/contents#${anchor}`, resource: "Content", tag: "contents" }) as const;

export const gitEndpoints = {
  createBlob: codeRow(
    "POST",
    "/repos/:user/:repo/git/blobs",
    {
      ...repoPath,
      content: { in: "body", type: "string", required: true },
      encoding: { in: "body", type: "string", description: "`utf-8` (the default) or `base64`." },
    },
    "ShortBlob",
    git("blobs", "create-a-blob", "Blob"),
    "Create a blob",
  ),
  getBlob: codeRow(
    "GET",
    "/repos/:user/:repo/git/blobs/:file_sha",
    { ...repoPath, file_sha: required },
    "GitBlob",
    git("blobs", "get-a-blob", "Blob"),
    "Get a blob",
  ),
  createTree: codeRow(
    "POST",
    "/repos/:user/:repo/git/trees",
    {
      ...repoPath,
      tree: {
        in: "body",
        type: "array",
        required: true,
        items: { path: "string", mode: "string", type: "string", sha: "string", content: "string" },
      },
      base_tree: { in: "body", type: "string" },
    },
    "GitTree",
    git("trees", "create-a-tree", "Tree"),
    "Create a tree",
  ),
  getTree: codeRow(
    "GET",
    "/repos/:user/:repo/git/trees/:tree_sha",
    { ...repoPath, tree_sha: required, recursive: { in: "query", type: "string" } },
    "GitTree",
    git("trees", "get-a-tree", "Tree"),
    "Get a tree",
  ),
  createCommit: codeRow(
    "POST",
    "/repos/:user/:repo/git/commits",
    {
      ...repoPath,
      message: { in: "body", type: "string", required: true },
      tree: { in: "body", type: "string", required: true },
      parents: { in: "body", type: "array" },
      author: person,
      committer: person,
    },
    "GitCommit",
    git("commits", "create-a-commit", "Commit"),
    "Create a commit",
  ),
  getCommit: codeRow(
    "GET",
    "/repos/:user/:repo/git/commits/:commit_sha",
    { ...repoPath, commit_sha: required },
    "GitCommit",
    git("commits", "get-a-commit-object", "Commit"),
    "Get a commit object",
  ),
  listMatchingRefs: codeRow(
    "GET",
    "/repos/:user/:repo/git/matching-refs/*",
    { ...repoPath, ...rest },
    "GitRef[]",
    git("refs", "list-matching-references", "Reference"),
    "List matching references",
  ),
  getRef: codeRow(
    "GET",
    "/repos/:user/:repo/git/ref/*",
    { ...repoPath, ...rest },
    "GitRef",
    git("refs", "get-a-reference", "Reference"),
    "Get a reference",
  ),
  createRef: codeRow(
    "POST",
    "/repos/:user/:repo/git/refs",
    {
      ...repoPath,
      ref: { in: "body", type: "string", required: true },
      sha: { in: "body", type: "string", required: true },
    },
    "GitRef",
    git("refs", "create-a-reference", "Reference"),
    "Create a reference",
  ),
  updateRef: codeRow(
    "PATCH",
    "/repos/:user/:repo/git/refs/*",
    {
      ...repoPath,
      ...rest,
      sha: { in: "body", type: "string", required: true },
      force: { in: "body", type: "boolean" },
    },
    "GitRef",
    git("refs", "update-a-reference", "Reference"),
    "Update a reference",
  ),
  deleteRef: codeRow(
    "DELETE",
    "/repos/:user/:repo/git/refs/*",
    { ...repoPath, ...rest },
    "empty",
    git("refs", "delete-a-reference", "Reference"),
    "Delete a reference",
  ),
  createTag: codeRow(
    "POST",
    "/repos/:user/:repo/git/tags",
    {
      ...repoPath,
      tag: { in: "body", type: "string", required: true },
      message: { in: "body", type: "string", required: true },
      object: { in: "body", type: "string", required: true },
      type: { in: "body", type: "string", required: true },
      tagger: person,
    },
    "GitTag",
    git("tags", "create-a-tag-object", "Tag"),
    "Create a tag object",
  ),
  getTag: codeRow(
    "GET",
    "/repos/:user/:repo/git/tags/:tag_sha",
    { ...repoPath, tag_sha: required },
    "GitTag",
    git("tags", "get-a-tag", "Tag"),
    "Get a tag",
  ),
} as const;

export const contentEndpoints = {
  get: codeRow(
    "GET",
    "/repos/:user/:repo/contents/*",
    { ...repoPath, ...rest, ref: { in: "query", type: "string" } },
    "Contents",
    contents("get-repository-content"),
    "Get repository content",
  ),
  // The root directory without a path (`.../contents`), which GitHub serves and Octokit asks for a path of "".
  getRoot: codeRow(
    "GET",
    "/repos/:user/:repo/contents",
    { ...repoPath, ref: { in: "query", type: "string" } },
    "Contents",
    contents("get-repository-content"),
    "Get repository content (the root directory)",
  ),
  getReadme: codeRow(
    "GET",
    "/repos/:user/:repo/readme",
    { ...repoPath, ref: { in: "query", type: "string" } },
    "ContentFile",
    contents("get-a-repository-readme"),
    "Get a repository README",
  ),
  // The README of a directory: `dir` holds slashes, hence the wildcard.
  getReadmeInDirectory: codeRow(
    "GET",
    "/repos/:user/:repo/readme/*",
    { ...repoPath, ...rest, ref: { in: "query", type: "string" } },
    "ContentFile",
    { ...contents("get-a-repository-readme-for-a-directory"), wildcard: "dir" },
    "Get a repository README for a directory",
  ),
  // 200 for a replaced file; the route answers a new one 201, as GitHub does.
  createOrUpdateFile: codeRow(
    "PUT",
    "/repos/:user/:repo/contents/*",
    {
      ...repoPath,
      ...rest,
      content: { in: "body", type: "string", required: true, description: "The file's new content, in base64." },
      sha: { in: "body", type: "string", description: "The blob SHA of the file being replaced." },
      ...commitOptions,
    },
    "FileCommit",
    contents("create-or-update-file-contents"),
    "Create or update file contents",
  ),
  deleteFile: codeRow(
    "DELETE",
    "/repos/:user/:repo/contents/*",
    { ...repoPath, ...rest, sha: { in: "body", type: "string", required: true }, ...commitOptions },
    "FileCommit",
    contents("delete-a-file"),
    "Delete a file",
  ),
} as const;

const repos = (page: string, anchor: string, resource: string) =>
  ({ docs: `https://docs.github.com/rest/${page}#${anchor}`, resource, tag: "repos" }) as const;

/** A repository's branches and commits (https://docs.github.com/rest/branches, /rest/commits), read from its refs. */
export const branchEndpoints = {
  list: codeRow(
    "GET",
    "/repos/:user/:repo/branches",
    { ...repoPath, protected: { in: "query", type: "string" }, ...paging },
    "BranchShort[]",
    repos("branches/branches", "list-branches", "Branch"),
    "List branches",
  ),
  get: codeRow(
    "GET",
    "/repos/:user/:repo/branches/:branch",
    { ...repoPath, branch: required },
    "BranchWithProtection",
    repos("branches/branches", "get-a-branch", "Branch"),
    "Get a branch",
  ),
  // 201 with the merge commit; 204 when the base already has the head (the route answers it).
  merge: codeRow(
    "POST",
    "/repos/:user/:repo/merges",
    {
      ...repoPath,
      base: { in: "body", type: "string", required: true, description: "The branch the head is merged into." },
      head: { in: "body", type: "string", required: true, description: "A branch, tag or SHA-1 to merge." },
      commit_message: { in: "body", type: "string", description: "The merge commit's message." },
    },
    "RepositoryCommit",
    repos("branches/branches", "merge-a-branch", "Merge"),
    "Merge a branch",
  ),
} as const;

export const commitEndpoints = {
  list: codeRow(
    "GET",
    "/repos/:user/:repo/commits",
    {
      ...repoPath,
      sha: {
        in: "query",
        type: "string",
        description: "The branch, tag or SHA-1 to list from; the default branch when left out.",
      },
      path: { in: "query", type: "string", description: "Only the commits that changed this file or directory." },
      author: { in: "query", type: "string", description: "Only the commits of this login or e-mail." },
      since: { in: "query", type: "string" },
      until: { in: "query", type: "string" },
      ...paging,
    },
    "RepositoryCommit[]",
    repos("commits/commits", "list-commits", "Commit"),
    "List commits",
  ),
  get: codeRow(
    "GET",
    "/repos/:user/:repo/commits/:ref",
    { ...repoPath, ref: required, ...paging },
    "RepositoryCommit",
    repos("commits/commits", "get-a-commit", "Commit"),
    "Get a commit",
  ),
  // `BASE...HEAD` (or `BASE..HEAD`), each side `ref` or `owner:ref`; refs hold slashes, hence the wildcard.
  compare: codeRow(
    "GET",
    "/repos/:user/:repo/compare/*",
    { ...repoPath, ...rest, ...paging },
    "CommitComparison",
    { ...repos("commits/commits", "compare-two-commits", "Commit"), wildcard: "basehead" },
    "Compare two commits",
  ),
  // GitHub names the commit `commit_sha`; the router takes one name for one position, and `/commits/:ref` has it.
  listBranchesForHeadCommit: codeRow(
    "GET",
    "/repos/:user/:repo/commits/:ref/branches-where-head",
    { ...repoPath, ref: commitRef },
    "BranchShort[]",
    repos("commits/commits", "list-branches-for-head-commit", "Commit"),
    "List branches for HEAD commit",
  ),
  listPullRequestsAssociatedWithCommit: codeRow(
    "GET",
    "/repos/:user/:repo/commits/:ref/pulls",
    { ...repoPath, ref: commitRef, ...paging },
    "PullRequestSimple[]",
    repos("commits/commits", "list-pull-requests-associated-with-commit", "Commit"),
    "List pull requests associated with a commit",
  ),
} as const;

const archives = (format: "tar" | "zip") =>
  ({
    docs: `https://docs.github.com/rest/repos/contents#download-a-repository-archive-${format}`,
    resource: "Archive",
    tag: "repos",
    wildcard: "ref",
  }) as const;

/**
 * A repository's tarball and zipball (GitHub's `repos/download-tarball-archive` and `-zipball-`): a 302 to where
 * the archive of the ref (the default branch without one) is served, as GitHub answers with codeload's URL.
 */
export const archiveEndpoints = {
  tarball: codeRow(
    "GET",
    "/repos/:user/:repo/tarball/*",
    { ...repoPath, ...rest },
    "redirect",
    archives("tar"),
    "Download a repository archive (tar)",
  ),
  tarballOfDefaultBranch: codeRow(
    "GET",
    "/repos/:user/:repo/tarball",
    repoPath,
    "redirect",
    archives("tar"),
    "Download a repository archive (tar) of the default branch",
  ),
  zipball: codeRow(
    "GET",
    "/repos/:user/:repo/zipball/*",
    { ...repoPath, ...rest },
    "redirect",
    archives("zip"),
    "Download a repository archive (zip)",
  ),
  zipballOfDefaultBranch: codeRow(
    "GET",
    "/repos/:user/:repo/zipball",
    repoPath,
    "redirect",
    archives("zip"),
    "Download a repository archive (zip) of the default branch",
  ),
} as const;
