/**
 * Releases and their assets, written once over the executor. An asset's bytes are read only by its download: lists
 * and reads select its other columns.
 */
import type { Executor } from "./executor.js";
import { LISTED, listParameter } from "./issues.js";
import type { PageRequest } from "./page.js";
import { date, type Bool, type Time } from "./sql-values.js";
import type {
  AssetRow,
  MakeLatest,
  NewAsset,
  NewRelease,
  ReleaseChanges,
  ReleaseRow,
  ReleaseStore,
} from "./release-store.js";

type Id = number | string;

interface ReleaseRecord {
  id: Id;
  repo_id: Id;
  tag_name: string;
  target_commitish: string;
  name: string | null;
  body: string | null;
  draft: Bool;
  prerelease: Bool;
  make_latest: string;
  latest_at: Time | null;
  author_id: Id | null;
  created_at: Time;
  updated_at: Time;
  published_at: Time | null;
}

interface AssetRecord {
  id: Id;
  release_id: Id;
  name: string;
  label: string | null;
  content_type: string;
  size: Id;
  digest: string;
  download_count: Id;
  state: string;
  uploader_id: Id | null;
  created_at: Time;
  updated_at: Time;
}

const orNull = <T, R>(value: T | null, map: (value: T) => R): R | null => (value === null ? null : map(value));

const toRelease = (r: ReleaseRecord): ReleaseRow => ({
  id: Number(r.id),
  repoId: Number(r.repo_id),
  tagName: r.tag_name,
  targetCommitish: r.target_commitish,
  name: r.name,
  body: r.body,
  draft: Boolean(r.draft),
  prerelease: Boolean(r.prerelease),
  makeLatest: r.make_latest as MakeLatest,
  latestAt: orNull(r.latest_at, date),
  authorId: orNull(r.author_id, Number),
  createdAt: date(r.created_at),
  updatedAt: date(r.updated_at),
  publishedAt: orNull(r.published_at, date),
});

const toAsset = (r: AssetRecord): AssetRow => ({
  id: Number(r.id),
  releaseId: Number(r.release_id),
  name: r.name,
  label: r.label,
  contentType: r.content_type,
  size: Number(r.size),
  digest: r.digest,
  downloadCount: Number(r.download_count),
  state: r.state as AssetRow["state"],
  uploaderId: orNull(r.uploader_id, Number),
  createdAt: date(r.created_at),
  updatedAt: date(r.updated_at),
});

const ASSET_COLUMNS = `a.id, a.release_id, a.name, a.label, a.content_type, a.size, a.digest, a.download_count, a.state,
  a.uploader_id, a.created_at, a.updated_at`;

/** The columns of ReleaseChanges, by key. */
const RELEASE_COLUMNS: Record<keyof ReleaseChanges, string> = {
  tagName: "tag_name",
  targetCommitish: "target_commitish",
  name: "name",
  body: "body",
  draft: "draft",
  prerelease: "prerelease",
  makeLatest: "make_latest",
  latestAt: "latest_at",
  updatedAt: "updated_at",
  publishedAt: "published_at",
};

/**
 * The latest release's order: made latest most recently first, a `legacy` one (never made latest) by its creation;
 * the newest id breaks ties.
 */
const LATEST = `SELECT * FROM releases WHERE repo_id = @repo AND draft = @no AND prerelease = @no
  AND make_latest <> 'false' ORDER BY coalesce(latest_at, created_at) DESC, id DESC LIMIT 1`;

export class Releases implements ReleaseStore {
  constructor(private readonly db: Executor) {}

  private value(value: unknown): unknown {
    if (typeof value === "boolean") return this.db.values.bool(value);
    if (value instanceof Date) return this.db.values.time(value);
    return value;
  }

  async insert(release: NewRelease, now: Date): Promise<ReleaseRow> {
    const row = await this.db.get<ReleaseRecord>(
      `INSERT INTO releases (repo_id, tag_name, target_commitish, name, body, draft, prerelease, make_latest,
         latest_at, author_id, created_at, updated_at, published_at)
       VALUES (@repo, @tag, @target, @name, @body, @draft, @prerelease, @makeLatest, @latestAt, @author, @now, @now,
         @publishedAt)
       RETURNING *`,
      {
        repo: release.repoId,
        tag: release.tagName,
        target: release.targetCommitish,
        name: release.name,
        body: release.body,
        draft: this.value(release.draft),
        prerelease: this.value(release.prerelease),
        makeLatest: release.makeLatest,
        latestAt: this.value(release.latestAt),
        author: release.authorId,
        now: this.value(now),
        publishedAt: this.value(release.publishedAt),
      },
    );
    return toRelease(row!);
  }

  async update(id: number, changes: ReleaseChanges): Promise<ReleaseRow> {
    const keys = Object.keys(changes) as (keyof ReleaseChanges)[];
    const values: Record<string, unknown> = { id };
    for (const key of keys) values[key] = this.value(changes[key] ?? null);
    const set = keys.map((key) => `${RELEASE_COLUMNS[key]} = @${key}`).join(", ");
    const row = keys.length
      ? await this.db.get<ReleaseRecord>(`UPDATE releases SET ${set} WHERE id = @id RETURNING *`, values)
      : await this.db.get<ReleaseRecord>("SELECT * FROM releases WHERE id = @id", values);
    return toRelease(row!);
  }

  async delete(id: number): Promise<void> {
    await this.db.run("DELETE FROM release_assets WHERE release_id = @id", { id });
    await this.db.run("DELETE FROM releases WHERE id = @id", { id });
  }

  async find(repoId: number, id: number): Promise<ReleaseRow | null> {
    const row = await this.db.get<ReleaseRecord>("SELECT * FROM releases WHERE repo_id = @repo AND id = @id", {
      repo: repoId,
      id,
    });
    return row ? toRelease(row) : null;
  }

  async byTag(repoId: number, tagName: string): Promise<ReleaseRow | null> {
    const row = await this.db.get<ReleaseRecord>("SELECT * FROM releases WHERE repo_id = @repo AND tag_name = @tag", {
      repo: repoId,
      tag: tagName,
    });
    return row ? toRelease(row) : null;
  }

  async page(repoId: number, drafts: boolean, window: PageRequest) {
    const where = `repo_id = @repo${drafts ? "" : " AND draft = @no"}`;
    const values = { repo: repoId, ...(drafts ? {} : { no: this.db.values.bool(false) }) };
    const [rows, count] = await Promise.all([
      this.db.all<ReleaseRecord>(`SELECT * FROM releases WHERE ${where} ORDER BY id DESC LIMIT @limit OFFSET @offset`, {
        ...values,
        ...window,
      }),
      this.db.get<{ n: Id }>(`SELECT count(*) AS n FROM releases WHERE ${where}`, values),
    ]);
    return { rows: rows.map(toRelease), total: Number(count!.n) };
  }

  async latest(repoId: number): Promise<ReleaseRow | null> {
    const row = await this.db.get<ReleaseRecord>(LATEST, { repo: repoId, no: this.db.values.bool(false) });
    return row ? toRelease(row) : null;
  }

  async insertAsset(asset: NewAsset, now: Date): Promise<AssetRow> {
    const row = await this.db.get<AssetRecord>(
      `INSERT INTO release_assets (release_id, name, label, content_type, size, body, digest, uploader_id,
         created_at, updated_at)
       VALUES (@release, @name, @label, @type, @size, @body, @digest, @uploader, @now, @now)
       RETURNING ${ASSET_COLUMNS.replaceAll("a.", "")}`,
      {
        release: asset.releaseId,
        name: asset.name,
        label: asset.label,
        type: asset.contentType,
        size: asset.size,
        body: asset.body,
        digest: asset.digest,
        uploader: asset.uploaderId,
        now: this.db.values.time(now),
      },
    );
    return toAsset(row!);
  }

  async asset(repoId: number, id: number): Promise<AssetRow | null> {
    const row = await this.db.get<AssetRecord>(
      `SELECT ${ASSET_COLUMNS} FROM release_assets a JOIN releases r ON r.id = a.release_id
       WHERE r.repo_id = @repo AND a.id = @id`,
      { repo: repoId, id },
    );
    return row ? toAsset(row) : null;
  }

  async assetsOf(releaseIds: readonly number[]): Promise<Map<number, AssetRow[]>> {
    const byRelease = new Map<number, AssetRow[]>(releaseIds.map((id) => [id, []]));
    if (releaseIds.length === 0) return byRelease;
    const rows = await this.db.all<AssetRecord>(
      `SELECT ${ASSET_COLUMNS} FROM release_assets a WHERE ${LISTED[this.db.dialect]("a.release_id", "int8")}
       ORDER BY a.id`,
      { list: listParameter(this.db.dialect, releaseIds) },
    );
    for (const row of rows) byRelease.get(Number(row.release_id))?.push(toAsset(row));
    return byRelease;
  }

  async assetPage(releaseId: number, window: PageRequest) {
    const [rows, count] = await Promise.all([
      this.db.all<AssetRecord>(
        `SELECT ${ASSET_COLUMNS} FROM release_assets a WHERE a.release_id = @release ORDER BY a.id
         LIMIT @limit OFFSET @offset`,
        { release: releaseId, ...window },
      ),
      this.db.get<{ n: Id }>("SELECT count(*) AS n FROM release_assets WHERE release_id = @release", {
        release: releaseId,
      }),
    ]);
    return { rows: rows.map(toAsset), total: Number(count!.n) };
  }

  async updateAsset(id: number, changes: Partial<Pick<AssetRow, "name" | "label">>, now: Date): Promise<AssetRow> {
    const set = [
      ...(changes.name === undefined ? [] : ["name = @name"]),
      ...(changes.label === undefined ? [] : ["label = @label"]),
      "updated_at = @now",
    ].join(", ");
    const row = await this.db.get<AssetRecord>(
      `UPDATE release_assets SET ${set} WHERE id = @id RETURNING ${ASSET_COLUMNS.replaceAll("a.", "")}`,
      {
        id,
        now: this.db.values.time(now),
        ...(changes.name === undefined ? {} : { name: changes.name }),
        ...(changes.label === undefined ? {} : { label: changes.label }),
      },
    );
    return toAsset(row!);
  }

  async deleteAsset(id: number): Promise<void> {
    await this.db.run("DELETE FROM release_assets WHERE id = @id", { id });
  }

  async download(id: number): Promise<Buffer | null> {
    const row = await this.db.get<{ body: Buffer | Uint8Array }>(
      "UPDATE release_assets SET download_count = download_count + 1 WHERE id = @id RETURNING body",
      { id },
    );
    if (!row) return null;
    return Buffer.isBuffer(row.body) ? row.body : Buffer.from(row.body);
  }
}
