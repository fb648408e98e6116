/**
 * Stored releases and assets -> GitHub's release and release asset objects, as the API answers them and as the
 * `release` webhooks and ReleaseEvent carry them (`release.schema.json`, `release-asset.schema.json`,
 * `../shared/data/webhooks/examples/release.json`). `upload_url` is on the API's own origin and path (GitHub's is
 * `uploads.github.com`), so that a client expanding its template uploads to feedgate; `tarball_url` and
 * `zipball_url` are the API's archive routes of the tag, which feedgate serves (../routes/archives.ts).
 */
import type { Release, ReleaseAsset } from "../../api/release-schemas.js";
import type { AssetRow, ReleaseRow, UserRow } from "../store/store.js";
import { nodeId } from "./git.js";
import { isoSeconds } from "./time.js";
import { webOrigin } from "./urls.js";
import { toWireSimpleUser } from "./user.js";

/** An asset with the account that uploaded it (null once that account is gone). */
export interface AssetFacts {
  asset: AssetRow;
  uploader: UserRow | null;
}

/** A release with its author and its assets, in the order they were uploaded. */
export interface ReleaseFacts {
  release: ReleaseRow;
  author: UserRow | null;
  assets: AssetFacts[];
}

/** Where an asset's file is downloaded from a browser: GitHub's web path, which feedgate serves too. */
export const browserDownloadUrl = (tag: string, name: string, fullName: string, baseUrl: string) =>
  `${webOrigin(baseUrl)}/${fullName}/releases/download/${encodeURIComponent(tag)}/${encodeURIComponent(name)}`;

export function toWireAsset(
  { asset, uploader }: AssetFacts,
  tag: string,
  fullName: string,
  baseUrl: string,
): ReleaseAsset {
  return {
    url: `${baseUrl}/repos/${fullName}/releases/assets/${asset.id}`,
    browser_download_url: browserDownloadUrl(tag, asset.name, fullName, baseUrl),
    id: asset.id,
    node_id: nodeId("ReleaseAsset", asset.id),
    name: asset.name,
    label: asset.label,
    state: asset.state,
    content_type: asset.contentType,
    size: asset.size,
    digest: asset.digest,
    download_count: asset.downloadCount,
    created_at: isoSeconds(asset.createdAt),
    updated_at: isoSeconds(asset.updatedAt),
    uploader: uploader ? toWireSimpleUser(uploader, baseUrl) : null,
  };
}

export function toWireRelease({ release, author, assets }: ReleaseFacts, fullName: string, baseUrl: string): Release {
  const api = `${baseUrl}/repos/${fullName}`;
  const url = `${api}/releases/${release.id}`;
  const tag = encodeURIComponent(release.tagName);
  return {
    url,
    html_url: `${webOrigin(baseUrl)}/${fullName}/releases/tag/${tag}`,
    assets_url: `${url}/assets`,
    upload_url: `${url}/assets{?name,label}`,
    tarball_url: `${api}/tarball/${tag}`,
    zipball_url: `${api}/zipball/${tag}`,
    id: release.id,
    node_id: nodeId("Release", release.id),
    tag_name: release.tagName,
    target_commitish: release.targetCommitish,
    name: release.name,
    body: release.body,
    draft: release.draft,
    prerelease: release.prerelease,
    // GitHub's immutable releases are a repository setting feedgate does not have: every release may change.
    immutable: false,
    created_at: isoSeconds(release.createdAt),
    published_at: release.publishedAt ? isoSeconds(release.publishedAt) : null,
    updated_at: isoSeconds(release.updatedAt),
    author: author ? toWireSimpleUser(author, baseUrl) : null,
    assets: assets.map((asset) => toWireAsset(asset, release.tagName, fullName, baseUrl)),
  };
}
