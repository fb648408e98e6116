/**
 * GitHub's release assets (https://docs.github.com/rest/releases/assets): files uploaded to a release as the request's
 * raw body, listed, renamed and relabelled, deleted, and downloaded byte for byte with their downloads counted. Each
 * write is an action of the log (GitHub makes no event nor webhook of an asset, but caches key on the log's count);
 * a download too, as it changes the asset's `download_count`. An asset of a draft is seen only by those who see the
 * draft.
 */
import { createHash } from "node:crypto";
import type { Endpoints } from "../../../api/endpoints.js";
import type { RequestOf } from "../../../api/schemas.js";
import type { AssetFacts } from "../../convert/release.js";
import { notFound, validationFailed } from "../../errors.js";
import type { AssetRow, PageRequest, ReleaseRow, RepoRow, Store } from "../../store/store.js";
import type { Principal } from "../authenticator.js";
import type { FeedParams } from "../feeds.js";
import { numberOf, type ActionParts } from "../actions/acting.js";
import type { ActionAccess } from "../actions/repository-access.js";
import { releaseFacts, seesDrafts } from "./release-facts.js";
import type { ReleasePath, ReleaseService } from "./releases.js";

type UploadQuery = RequestOf<Endpoints["releases"]["uploadAsset"], "query">;
type UpdateInput = RequestOf<Endpoints["releases"]["updateAsset"], "body">;

export type AssetPath = FeedParams & { asset_id: string };

/**
 * The largest asset feedgate keeps: GitHub takes up to 2 GiB a file, but feedgate keeps an asset's bytes in its
 * database row and hands them over in one piece, so it stops far below, at what a test or a CI artifact needs.
 */
export const ASSET_SIZE_LIMIT = 100 * 1024 * 1024;

const DOCS = "https://docs.github.com/rest/releases/assets#upload-a-release-asset";

const refused = (entry: { field: string; code: string; message?: string }) =>
  validationFailed([{ resource: "ReleaseAsset", ...entry }], DOCS);

/** GitHub's 422 for an asset over the limit, before its bytes are read. */
export const assetTooLarge = () =>
  refused({ field: "size", code: "custom", message: `size must be at most ${ASSET_SIZE_LIMIT} bytes on this server` });

/**
 * The name GitHub gives an uploaded file: characters other than letters, digits, `-`, `_`, `+` and `.` become a
 * period each run, and leading and trailing periods go ("GitHub renames asset filenames that have special
 * characters, non-alphanumeric characters, and leading or trailing periods").
 */
export function assetName(name: string): string {
  return name.replace(/[^A-Za-z0-9_.+-]+/g, ".").replace(/^\.+|\.+$/g, "");
}

export interface AssetView {
  repo: RepoRow;
  release: ReleaseRow;
  facts: AssetFacts;
}

export class ReleaseAssetService {
  private readonly store: Store;

  constructor(
    private readonly parts: ActionParts,
    private readonly releases: ReleaseService,
  ) {
    this.store = parts.store;
  }

  private async view(repo: RepoRow, release: ReleaseRow, asset: AssetRow): Promise<AssetView> {
    const uploader = asset.uploaderId === null ? null : await this.store.users.findById(asset.uploaderId);
    return { repo, release, facts: { asset, uploader } };
  }

  /** The asset the path names, when the caller sees its release; 404 otherwise. */
  private async find(path: AssetPath, repo: RepoRow, principal: Principal | null) {
    const id = numberOf(path.asset_id);
    const asset = id === null ? null : await this.store.releases.asset(repo.id, id);
    const release = asset && (await this.store.releases.find(repo.id, asset.releaseId));
    if (!asset || !release || (release.draft && !(await seesDrafts(this.store, repo, principal)))) throw notFound();
    return { asset, release };
  }

  async upload(
    path: ReleasePath,
    query: UploadQuery,
    upload: { body: Buffer; contentType: string | undefined },
    access: ActionAccess,
  ): Promise<AssetView> {
    const { repo, user } = await this.releases.code.pushable(path, access);
    const release = await this.releases.find(repo, path.release_id, access.principal);
    const name = assetName(query.name);
    if (name === "") throw refused({ field: "name", code: "missing_field" });
    if (upload.body.length > ASSET_SIZE_LIMIT) throw assetTooLarge();
    const scene = await this.releases.acting.scene(repo, user);
    const asset = await this.releases.acting.perform(scene, async ({ tx }) => {
      if ((await tx.releases.assetsOf([release.id])).get(release.id)?.some((a) => a.name === name))
        throw refused({ field: "name", code: "already_exists" });
      return tx.releases.insertAsset(
        {
          releaseId: release.id,
          name,
          label: query.label ?? null,
          contentType: upload.contentType?.trim() || "application/octet-stream",
          size: upload.body.length,
          digest: `sha256:${createHash("sha256").update(upload.body).digest("hex")}`,
          uploaderId: user.id,
          body: upload.body,
        },
        scene.at,
      );
    });
    return this.view(repo, release, asset);
  }

  async list(path: ReleasePath, principal: Principal | null, window: PageRequest) {
    const repo = await this.releases.code.readable(path, principal);
    const release = await this.releases.find(repo, path.release_id, principal);
    const page = await this.store.releases.assetPage(release.id, window);
    const [facts] = await releaseFacts(this.store, [release]);
    const uploaders = new Map(facts!.assets.map((a) => [a.asset.id, a.uploader]));
    return {
      repo,
      release,
      rows: page.rows.map((asset) => ({ asset, uploader: uploaders.get(asset.id) ?? null })),
      total: page.total,
    };
  }

  async get(path: AssetPath, principal: Principal | null): Promise<AssetView> {
    const repo = await this.releases.code.readable(path, principal);
    const { asset, release } = await this.find(path, repo, principal);
    return this.view(repo, release, asset);
  }

  /** The asset's bytes, its download counted in an action of its own (no event: GitHub makes none). */
  async download(path: AssetPath, principal: Principal | null) {
    const repo = await this.releases.code.readable(path, principal);
    const { asset } = await this.find(path, repo, principal);
    return this.counted(asset);
  }

  /** The file of a release's web download path (`/{owner}/{repo}/releases/download/{tag}/{name}`). */
  async downloadByName(path: FeedParams & { tag: string; name: string }, principal: Principal | null) {
    const repo = await this.releases.code.readable(path, principal);
    const release = await this.store.releases.byTag(repo.id, path.tag);
    if (!release || (release.draft && !(await seesDrafts(this.store, repo, principal)))) throw notFound();
    const asset = (await this.store.releases.assetsOf([release.id])).get(release.id)?.find((a) => a.name === path.name);
    if (!asset) throw notFound();
    return this.counted(asset);
  }

  private async counted(asset: AssetRow) {
    const { value: body } = await this.store.actions.perform(
      async (tx) => ({ value: await tx.releases.download(asset.id) }),
      this.parts.clock(),
      this.parts.options,
    );
    if (!body) throw notFound();
    return { asset, body };
  }

  async update(path: AssetPath, input: UpdateInput, access: ActionAccess): Promise<AssetView> {
    const { repo, user } = await this.releases.code.pushable(path, access);
    const { asset, release } = await this.find(path, repo, access.principal);
    const name = input.name === undefined ? undefined : assetName(input.name);
    if (name === "") throw refused({ field: "name", code: "missing_field" });
    const scene = await this.releases.acting.scene(repo, user);
    const updated = await this.releases.acting.perform(scene, async ({ tx }) => {
      if (name !== undefined && name !== asset.name) {
        const taken = (await tx.releases.assetsOf([release.id])).get(release.id)?.some((a) => a.name === name);
        if (taken) throw refused({ field: "name", code: "already_exists" });
      }
      return tx.releases.updateAsset(
        asset.id,
        { ...(name === undefined ? {} : { name }), ...(input.label === undefined ? {} : { label: input.label }) },
        scene.at,
      );
    });
    return this.view(repo, release, updated);
  }

  async delete(path: AssetPath, access: ActionAccess): Promise<void> {
    const { repo, user } = await this.releases.code.pushable(path, access);
    const { asset } = await this.find(path, repo, access.principal);
    const scene = await this.releases.acting.scene(repo, user);
    await this.releases.acting.perform(scene, ({ tx }) => tx.releases.deleteAsset(asset.id));
  }
}
