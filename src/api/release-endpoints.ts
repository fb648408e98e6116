/**
 * The release family's rows of the endpoint table (./endpoints.ts spreads them in as `releases`): GitHub's releases
 * and release assets (https://docs.github.com/rest/releases), under the repository's Contents permission as on
 * GitHub. An asset is uploaded as the request's raw body (`upload_url`, on feedgate's own origin) and downloaded with
 * `Accept: application/octet-stream` from the row that reads it. No Node-only imports.
 */
import { DIGITS, paging, type ParamSpec } from "./params.js";
import type { AcceptedPermissions } from "./permissions.js";
import type { ResponseKind } from "./responses.js";
import { CODE_SCOPES } from "./git-endpoints.js";

const DOCS = "https://docs.github.com/rest/releases";

/** Fine-grained tokens and apps: the repository's Contents permission. */
const READ: AcceptedPermissions = [{ contents: "read" }];
const WRITE: AcceptedPermissions = [{ contents: "write" }];

const required = { in: "path", type: "string", required: true } as const;
const repoPath = { user: required, repo: required } as const satisfies Record<string, ParamSpec>;
const releasePath = { ...repoPath, release_id: { ...required, pattern: DIGITS } } as const;
const assetPath = { ...repoPath, asset_id: { ...required, pattern: DIGITS } } as const;

/** What a release's create and update take; `tag_name` is required to create one. */
const releaseFields = {
  target_commitish: {
    in: "body",
    type: "string",
    description: "Where the tag is made when it does not exist yet: a branch or a commit's SHA-1; the default branch.",
  },
  name: { in: "body", type: "string", nullable: true },
  body: { in: "body", type: "string", nullable: true },
  draft: { in: "body", type: "boolean", description: "A draft is unpublished: seen only by those who push." },
  prerelease: { in: "body", type: "boolean" },
  make_latest: {
    in: "body",
    type: "string",
    description: "`true` (the default), `false` or `legacy` (the latest by creation date).",
  },
} as const satisfies Record<string, ParamSpec>;

function releaseRow<
  const M extends "GET" | "POST" | "PATCH" | "DELETE",
  const P extends Readonly<Record<string, ParamSpec>>,
  const R extends ResponseKind,
>(method: M, path: string, params: P, response: R, page: { anchor: string; resource: string }, summary: string) {
  return {
    method,
    path,
    params,
    // Anonymous callers read public repositories' published releases; writes refuse them in the services.
    auth: method === "GET" ? "optional" : "required",
    acceptedScopes: method === "GET" ? [] : CODE_SCOPES,
    permissions: method === "GET" ? READ : WRITE,
    response,
    resource: page.resource,
    documentationUrl: `${DOCS}/${page.anchor}`,
    summary,
    tag: "releases",
  } as const;
}

const releases = (anchor: string) => ({ anchor: `releases#${anchor}`, resource: "Release" }) as const;
const assets = (anchor: string) => ({ anchor: `assets#${anchor}`, resource: "ReleaseAsset" }) as const;

export const releaseEndpoints = {
  list: releaseRow(
    "GET",
    "/repos/:user/:repo/releases",
    { ...repoPath, ...paging },
    "Release[]",
    releases("list-releases"),
    "List releases",
  ),
  create: {
    ...releaseRow(
      "POST",
      "/repos/:user/:repo/releases",
      { ...repoPath, tag_name: { in: "body", type: "string", required: true }, ...releaseFields },
      "Release",
      releases("create-a-release"),
      "Create a release",
    ),
    schemaChecked: true,
  },
  getLatest: releaseRow(
    "GET",
    "/repos/:user/:repo/releases/latest",
    repoPath,
    "Release",
    releases("get-the-latest-release"),
    "Get the latest release",
  ),
  getByTag: releaseRow(
    "GET",
    "/repos/:user/:repo/releases/tags/:tag",
    { ...repoPath, tag: required },
    "Release",
    releases("get-a-release-by-tag-name"),
    "Get a release by tag name",
  ),
  get: releaseRow(
    "GET",
    "/repos/:user/:repo/releases/:release_id",
    releasePath,
    "Release",
    releases("get-a-release"),
    "Get a release",
  ),
  update: releaseRow(
    "PATCH",
    "/repos/:user/:repo/releases/:release_id",
    { ...releasePath, tag_name: { in: "body", type: "string" }, ...releaseFields },
    "Release",
    releases("update-a-release"),
    "Update a release",
  ),
  delete: releaseRow(
    "DELETE",
    "/repos/:user/:repo/releases/:release_id",
    releasePath,
    "empty",
    releases("delete-a-release"),
    "Delete a release",
  ),
  listAssets: releaseRow(
    "GET",
    "/repos/:user/:repo/releases/:release_id/assets",
    { ...releasePath, ...paging },
    "ReleaseAsset[]",
    assets("list-release-assets"),
    "List release assets",
  ),
  uploadAsset: releaseRow(
    "POST",
    "/repos/:user/:repo/releases/:release_id/assets",
    {
      ...releasePath,
      name: { in: "query", type: "string", required: true, description: "The asset's file name." },
      label: { in: "query", type: "string", description: "A short description shown in place of the name." },
    },
    "ReleaseAsset",
    assets("upload-a-release-asset"),
    "Upload a release asset",
  ),
  getAsset: releaseRow(
    "GET",
    "/repos/:user/:repo/releases/assets/:asset_id",
    assetPath,
    "ReleaseAsset",
    assets("get-a-release-asset"),
    "Get a release asset",
  ),
  updateAsset: releaseRow(
    "PATCH",
    "/repos/:user/:repo/releases/assets/:asset_id",
    {
      ...assetPath,
      name: { in: "body", type: "string" },
      label: { in: "body", type: "string" },
      state: { in: "body", type: "string", description: "Accepted and ignored: an uploaded asset stays `uploaded`." },
    },
    "ReleaseAsset",
    assets("update-a-release-asset"),
    "Update a release asset",
  ),
  deleteAsset: releaseRow(
    "DELETE",
    "/repos/:user/:repo/releases/assets/:asset_id",
    assetPath,
    "empty",
    assets("delete-a-release-asset"),
    "Delete a release asset",
  ),
} as const;
