/**
 * A repository's tarball and zipball (https://docs.github.com/rest/repos/contents#download-a-repository-archive-tar):
 * the tree of a ref (a branch, a tag or a commit's SHA-1; the default branch when none is named) as `git archive`
 * writes it, under GitHub's top folder `{owner}-{repo}-{first 7 of the commit}/`. The API answers with where the
 * archive is (GitHub's 302 to codeload; feedgate's is its own `/_codeload/` path, GitHub Enterprise's layout), and
 * that path serves it, streamed: a file's bytes are read from the store when the archive reaches them, one at a time.
 * Reading needs what reading the repository's contents needs.
 */
import { pipeline, type Readable } from "node:stream";
import { createGzip } from "node:zlib";
import type { RepoRow } from "../../store/store.js";
import type { Principal } from "../authenticator.js";
import type { FeedParams } from "../feeds.js";
import type { ArchiveEntry, ArchiveOf } from "../../git/archive-entries.js";
import { tarArchive } from "../../git/archive-tar.js";
import { zipArchive } from "../../git/archive-zip.js";
import { GitObjectError } from "../../git/objects.js";
import { flattenTree } from "../../git/tree-edit.js";
import type { ContentService } from "./contents.js";
import type { NetworkObjects } from "./network-objects.js";
import { defaultBranchOf } from "./pushes.js";
import type { RepositoryCode } from "./repository-code.js";

export type ArchiveFormat = "tarball" | "zipball";

/** Each format as codeload names its path, and the file a download saves. */
export const ARCHIVE_FORMATS = {
  tarball: { path: "legacy.tar.gz", extension: "tar.gz", contentType: "application/x-gzip" },
  zipball: { path: "legacy.zip", extension: "zip", contentType: "application/zip" },
} as const satisfies Record<ArchiveFormat, { path: string; extension: string; contentType: string }>;

/** Where an archive is: the repository's canonical name and the ref, as the redirect names them. */
export interface ArchiveLink {
  fullName: string;
  ref: string;
}

export interface Archive {
  /** GitHub's `Content-Disposition` file name: the top folder's name with the format's extension. */
  fileName: string;
  contentType: string;
  /** The commit archived: the archive's bytes are its alone, so it is their strong ETag. */
  commit: string;
  body: Readable;
}

export class ArchiveService {
  constructor(
    private readonly code: RepositoryCode,
    private readonly contents: ContentService,
  ) {}

  /**
   * Where the archive of `ref` is, for a caller who may read the code; a ref that names no commit is 404 here, as on
   * GitHub. An empty repository's link is given all the same: GitHub's 404 comes when it is followed.
   */
  async link(params: FeedParams, ref: string | undefined, principal: Principal | null): Promise<ArchiveLink> {
    const repo = await this.code.readable(params, principal);
    const name = ref || defaultBranchOf(repo);
    if (await this.code.hasRefs(repo)) await this.contents.resolve(repo, this.code.objects(repo), name);
    return { fullName: repo.fullName, ref: name };
  }

  /** The archive of `ref` in `format`, as its bytes are made. */
  async archive(params: FeedParams, format: ArchiveFormat, ref: string, principal: Principal | null): Promise<Archive> {
    const repo = await this.code.readable(params, principal);
    const objects = this.code.objects(repo);
    const resolved = await this.contents.resolve(repo, objects, ref);
    const committed = (await objects.commit(resolved.commit))!.committer.date;
    const folder = `${repo.fullName.replace("/", "-")}-${resolved.commit.slice(0, 7)}`;
    const archive: ArchiveOf = {
      commit: resolved.commit,
      time: committed,
      prefix: `${folder}/`,
      entries: await entries(objects, repo, resolved.tree),
    };
    const { extension, contentType } = ARCHIVE_FORMATS[format];
    const body = format === "tarball" ? gzipped(tarArchive(archive)) : zipArchive(archive);
    return { fileName: `${folder}.${extension}`, contentType, commit: resolved.commit, body };
  }
}

/** A tar gzipped as GitHub serves it (no name or time in the gzip header); an error in either ends the stream. */
function gzipped(tar: Readable): Readable {
  const gzip = createGzip();
  pipeline(tar, gzip, () => {});
  return gzip;
}

/** Every path of the tree, directories before what they hold, a file's bytes read when asked for. */
async function entries(objects: NetworkObjects, repo: RepoRow, tree: string): Promise<ArchiveEntry[]> {
  const flat = await flattenTree(objects.trees, tree, {
    recursive: true,
    maxEntries: Number.POSITIVE_INFINITY,
    maxBytes: Number.POSITIVE_INFINITY,
    sizeOf: () => 0,
  });
  if (!flat) throw new GitObjectError(`${repo.fullName}'s commit names tree ${tree}, which the store does not hold`);
  return flat.entries.map((entry) => ({
    path: entry.path,
    mode: entry.mode,
    ...(entry.type === "blob" ? { read: () => blobBody(objects, entry.sha) } : {}),
  }));
}

async function blobBody(objects: NetworkObjects, sha: string): Promise<Buffer> {
  const blob = await objects.ofType(sha, "blob");
  if (!blob) throw new GitObjectError(`a tree names blob ${sha}, which the store does not hold`, sha);
  return blob.body;
}
