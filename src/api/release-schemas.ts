/**
 * Releases' wire shapes (https://docs.github.com/rest/releases): a release with its assets, and an asset, keys in the
 * order GitHub sends them (`../shared/data/openapi/release.schema.json`, `release-asset.schema.json` and the examples
 * of `releases.paths.json`). No Node-only imports.
 */
import { Type, type Static } from "@sinclair/typebox";
import { SimpleUser } from "./schemas.js";

const NullableString = Type.Union([Type.String(), Type.Null()]);
/** Null once the account is deleted. */
const NullableUser = Type.Union([SimpleUser, Type.Null()]);

export const ReleaseAsset = Type.Object({
  url: Type.String(),
  browser_download_url: Type.String(),
  id: Type.Integer(),
  node_id: Type.String(),
  name: Type.String(),
  label: NullableString,
  state: Type.Union([Type.Literal("uploaded"), Type.Literal("open")]),
  content_type: Type.String(),
  size: Type.Integer(),
  digest: NullableString,
  download_count: Type.Integer(),
  created_at: Type.String(),
  updated_at: Type.String(),
  uploader: NullableUser,
});
export type ReleaseAsset = Static<typeof ReleaseAsset>;

export const Release = Type.Object({
  url: Type.String(),
  html_url: Type.String(),
  assets_url: Type.String(),
  /** An RFC 6570 template (`{?name,label}`) that Octokit expands; on the API's own origin, not `uploads.github.com`. */
  upload_url: Type.String(),
  tarball_url: NullableString,
  zipball_url: NullableString,
  id: Type.Integer(),
  node_id: Type.String(),
  tag_name: Type.String(),
  target_commitish: Type.String(),
  name: NullableString,
  body: NullableString,
  draft: Type.Boolean(),
  prerelease: Type.Boolean(),
  immutable: Type.Boolean(),
  created_at: Type.String(),
  published_at: NullableString,
  updated_at: NullableString,
  author: NullableUser,
  assets: Type.Array(ReleaseAsset),
});
export type Release = Static<typeof Release>;
