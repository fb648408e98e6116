/**
 * Releases and their assets as stored state (https://docs.github.com/rest/releases): a release per tag name of a
 * repository, a draft until published, and the files uploaded to it, their bytes kept with them. Written in the
 * action log's transaction with the ReleaseEvent and `release` webhooks they make.
 */
import type { Page, PageRequest } from "./page.js";

/** GitHub's `make_latest`: made the latest when published, never, or by creation date and version (`legacy`). */
export const MAKE_LATEST = ["true", "false", "legacy"] as const;
export type MakeLatest = (typeof MAKE_LATEST)[number];

export interface ReleaseRow {
  id: number;
  repoId: number;
  tagName: string;
  /** What the tag was to be made at, as given: a branch or a SHA (GitHub shows it so, whatever the tag points at). */
  targetCommitish: string;
  name: string | null;
  body: string | null;
  draft: boolean;
  prerelease: boolean;
  makeLatest: MakeLatest;
  /** When `make_latest: true` last made it the latest; null for `legacy` and `false`, and for drafts. */
  latestAt: Date | null;
  /** null once the account that made it is deleted. */
  authorId: number | null;
  createdAt: Date;
  updatedAt: Date;
  /** null while a draft. */
  publishedAt: Date | null;
}

export type NewRelease = Omit<ReleaseRow, "id" | "createdAt" | "updatedAt">;

/** The columns an update may set; each left out stays as it is. */
export type ReleaseChanges = Partial<Omit<ReleaseRow, "id" | "repoId" | "authorId" | "createdAt">>;

export interface AssetRow {
  id: number;
  releaseId: number;
  name: string;
  label: string | null;
  contentType: string;
  size: number;
  /** `sha256:` and the hex digest of its bytes, as GitHub's `digest`. */
  digest: string;
  downloadCount: number;
  state: "uploaded" | "open";
  uploaderId: number | null;
  createdAt: Date;
  updatedAt: Date;
}

export type NewAsset = Omit<AssetRow, "id" | "downloadCount" | "state" | "createdAt" | "updatedAt"> & { body: Buffer };

export interface ReleaseStore {
  insert(release: NewRelease, now: Date): Promise<ReleaseRow>;
  update(id: number, changes: ReleaseChanges): Promise<ReleaseRow>;
  delete(id: number): Promise<void>;
  find(repoId: number, id: number): Promise<ReleaseRow | null>;
  byTag(repoId: number, tagName: string): Promise<ReleaseRow | null>;
  /** The repository's releases, newest first; drafts only with `drafts` (the reader has push access). */
  page(repoId: number, drafts: boolean, window: PageRequest): Promise<Page<ReleaseRow>>;
  /**
   * GitHub's latest release: of the published, full releases not kept from it (`make_latest: false`), the one made
   * latest most recently, a `legacy` one competing by its creation.
   */
  latest(repoId: number): Promise<ReleaseRow | null>;
  insertAsset(asset: NewAsset, now: Date): Promise<AssetRow>;
  asset(repoId: number, id: number): Promise<AssetRow | null>;
  /** The assets of releases, in the order they were uploaded, by release. */
  assetsOf(releaseIds: readonly number[]): Promise<Map<number, AssetRow[]>>;
  assetPage(releaseId: number, window: PageRequest): Promise<Page<AssetRow>>;
  updateAsset(id: number, changes: Partial<Pick<AssetRow, "name" | "label">>, now: Date): Promise<AssetRow>;
  deleteAsset(id: number): Promise<void>;
  /** The asset's bytes, its download counted in the same statement. */
  download(id: number): Promise<Buffer | null>;
}
