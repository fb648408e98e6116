/**
 * GitHub's git data API for objects (https://docs.github.com/rest/git/blobs, /trees, /commits, /tags): each object made
 * is hashed as git hashes it and stored in the repository's fork network; nothing else changes (no ref moves, so no
 * event and no webhook: a ref update is what pushes, ./git-refs.ts). Reads answer any object of the network by its
 * SHA-1, as GitHub's do. A repository without a commit answers 409 (repositoryEmpty).
 */
import type { Endpoints } from "../../../api/endpoints.js";
import type { RequestOf } from "../../../api/schemas.js";
import { ApiError, notFound } from "../../errors.js";
import { InvalidInputError } from "../../failures.js";
import type { RepoRow } from "../../store/store.js";
import type { Principal } from "../authenticator.js";
import type { FeedParams } from "../feeds.js";
import type { ActionAccess } from "../actions/repository-access.js";
import type { TreeListing } from "../../convert/git.js";
import { gitObject, type NetworkObjects } from "./network-objects.js";
import {
  type CommitFields,
  encodeCommit,
  encodeTag,
  entryType,
  GitInputError,
  type GitMode,
  type GitObjectType,
  isGitMode,
  isSha,
  type TagFields,
} from "../../git/objects.js";
import { personFrom, type RepositoryCode } from "./repository-code.js";
import { editTree, type FlatEntry, flattenTree, type PathChange } from "../../git/tree-edit.js";

type BlobInput = RequestOf<Endpoints["git"]["createBlob"], "body">;
type TreeInput = RequestOf<Endpoints["git"]["createTree"], "body">;
type CommitInput = RequestOf<Endpoints["git"]["createCommit"], "body">;
type TagInput = RequestOf<Endpoints["git"]["createTag"], "body">;

export type ObjectPath<K extends string> = FeedParams & Record<K, string>;

/** A blob GitHub's API still answers in its JSON (100 MB, the largest file GitHub keeps). */
export const MAX_BLOB_BYTES = 100 * 1024 * 1024;

export interface ObjectView<T> {
  repo: RepoRow;
  sha: string;
  value: T;
}

const invalid = (message: string, field: string) => new InvalidInputError(message, { field, code: "invalid" });

/** GitHub's 422 for git's own refusals of a tree's input, which name the path. */
function treeInputError(error: unknown): never {
  if (error instanceof GitInputError) throw new ApiError(422, `tree.path ${error.message}`);
  throw error;
}

export class GitDataService {
  constructor(private readonly code: RepositoryCode) {}

  private async readObject(params: FeedParams, principal: Principal | null, sha: string, type: GitObjectType) {
    const repo = await this.code.notEmpty(await this.code.readable(params, principal));
    const objects = this.code.objects(repo);
    const object = await objects.ofType(sha, type);
    if (!object) throw notFound();
    return { repo, objects, object };
  }

  private async writable(params: FeedParams, access: ActionAccess) {
    const { repo, user } = await this.code.pushable(params, access);
    await this.code.notEmpty(repo);
    return { repo, user, objects: this.code.objects(repo) };
  }

  async getBlob(path: ObjectPath<"file_sha">, principal: Principal | null): Promise<ObjectView<Buffer>> {
    const { repo, object } = await this.readObject(path, principal, path.file_sha, "blob");
    return { repo, sha: object.sha, value: object.body };
  }

  async createBlob(params: FeedParams, input: BlobInput, access: ActionAccess): Promise<ObjectView<null>> {
    const { repo, objects } = await this.writable(params, access);
    const encoding = input.encoding ?? "utf-8";
    if (encoding !== "utf-8" && encoding !== "base64")
      throw invalid(`encoding must be utf-8 or base64, got ${JSON.stringify(encoding)}`, "encoding");
    const body = Buffer.from(input.content, encoding === "base64" ? "base64" : "utf8");
    if (body.length > MAX_BLOB_BYTES) throw invalid("content is larger than 100 MB", "content");
    const blob = objects.add(gitObject("blob", body));
    await objects.write();
    return { repo, sha: blob.sha, value: null };
  }

  async getTree(
    path: ObjectPath<"tree_sha">,
    principal: Principal | null,
    recursive: boolean,
  ): Promise<ObjectView<TreeListing>> {
    const repo = await this.code.notEmpty(await this.code.readable(path, principal));
    const objects = this.code.objects(repo);
    // GitHub answers a tree's SHA-1 or a commit's, whose tree it lists (and a branch's name; not served here).
    const commit = await objects.commit(path.tree_sha);
    const sha = commit?.tree ?? path.tree_sha;
    const flat = await flattenTree(objects.trees, sha, { recursive });
    if (!flat) throw notFound();
    return { repo, sha, value: await withSizes(objects, flat) };
  }

  async createTree(params: FeedParams, input: TreeInput, access: ActionAccess): Promise<ObjectView<TreeListing>> {
    const { repo, objects } = await this.writable(params, access);
    if (input.base_tree !== undefined && !(await objects.tree(input.base_tree)))
      throw new ApiError(422, "base_tree is not a valid tree oid");
    const changes: PathChange[] = [];
    for (const [index, item] of input.tree.entries()) changes.push(await treeChange(objects, item, index));
    const edit = await editTree(objects.trees, input.base_tree ?? null, changes).catch(treeInputError);
    for (const tree of edit.written) objects.add(tree);
    await objects.write();
    const flat = await flattenTree(objects.trees, edit.root, { recursive: false });
    return { repo, sha: edit.root, value: await withSizes(objects, flat!) };
  }

  async getCommit(path: ObjectPath<"commit_sha">, principal: Principal | null): Promise<ObjectView<CommitFields>> {
    const { repo, object, objects } = await this.readObject(path, principal, path.commit_sha, "commit");
    return { repo, sha: object.sha, value: (await objects.commit(object.sha))! };
  }

  async createCommit(params: FeedParams, input: CommitInput, access: ActionAccess): Promise<ObjectView<CommitFields>> {
    const { repo, user, objects } = await this.writable(params, access);
    if (!(await objects.tree(input.tree))) throw new ApiError(422, "Tree SHA does not exist");
    const parents = input.parents ?? [];
    for (const parent of parents)
      if (!(await objects.commit(parent)))
        throw new ApiError(422, "Parent SHA does not exist or is not a commit object");
    // GitHub's defaults: the committer is the author when only the author is given, both the caller otherwise.
    const caller = this.code.person(user);
    const author = personFrom(input.author, "author", caller);
    const committer = personFrom(input.committer, "committer", input.author ? author : caller);
    const fields: CommitFields = { tree: input.tree, parents, author, committer, message: input.message };
    const commit = objects.add(
      gitObject(
        "commit",
        encodeOrRefuse(() => encodeCommit(fields)),
      ),
    );
    await objects.write();
    return { repo, sha: commit.sha, value: fields };
  }

  async getTag(path: ObjectPath<"tag_sha">, principal: Principal | null): Promise<ObjectView<TagFields>> {
    const { repo, object, objects } = await this.readObject(path, principal, path.tag_sha, "tag");
    return { repo, sha: object.sha, value: (await objects.tag(object.sha))! };
  }

  async createTag(params: FeedParams, input: TagInput, access: ActionAccess): Promise<ObjectView<TagFields>> {
    const { repo, user, objects } = await this.writable(params, access);
    const type = input.type;
    if (type !== "commit" && type !== "tree" && type !== "blob")
      throw invalid(`type must be commit, tree or blob, got ${JSON.stringify(type)}`, "type");
    if (!(await objects.ofType(input.object, type))) throw new ApiError(422, "Object does not exist");
    const fields: TagFields = {
      object: input.object,
      type,
      tag: input.tag,
      tagger: personFrom(input.tagger, "tagger", this.code.person(user)),
      message: input.message,
    };
    const tag = objects.add(
      gitObject(
        "tag",
        encodeOrRefuse(() => encodeTag(fields)),
      ),
    );
    await objects.write();
    return { repo, sha: tag.sha, value: fields };
  }
}

/** An object git could not write from the input (a name with `<`, a tag name with a newline): GitHub's 422. */
function encodeOrRefuse(encode: () => Buffer): Buffer {
  try {
    return encode();
  } catch (error) {
    if (error instanceof GitInputError) throw new ApiError(422, error.message);
    throw error;
  }
}

/** A listing with each blob's size, as GitHub lists trees. */
async function withSizes(objects: NetworkObjects, flat: { entries: FlatEntry[]; truncated: boolean }) {
  const entries = [];
  for (const entry of flat.entries) {
    const blob = entry.type === "blob" ? await objects.ofType(entry.sha, "blob") : null;
    entries.push(blob ? { ...entry, size: blob.body.length } : entry);
  }
  return { entries, truncated: flat.truncated };
}

type TreeItem = TreeInput["tree"][number];

/**
 * One entry of create-a-tree's input as a change: `content` makes a blob beside the tree; `sha` names an object the
 * network holds, of the type the mode says (GitHub's 422 otherwise); `sha: null` deletes the path.
 */
async function treeChange(objects: NetworkObjects, item: TreeItem, index: number): Promise<PathChange> {
  const field = `tree[${index}]`;
  const path = item.path;
  if (typeof path !== "string" || path === "") throw new ApiError(422, `${field}.path is missing`);
  const mode = item.mode;
  if (typeof mode !== "string" || !isGitMode(mode))
    throw new ApiError(422, `tree.mode ${JSON.stringify(mode)} is not a valid mode`);
  const type = entryType(mode as GitMode);
  if (item.type !== undefined && item.type !== null && item.type !== type)
    throw new ApiError(422, `tree.type ${JSON.stringify(item.type)} does not match mode ${mode}`);
  if (typeof item.content === "string") {
    if (item.sha !== undefined) throw new ApiError(422, `${field}: give either sha or content, not both`);
    if (type !== "blob") throw new ApiError(422, `${field}: content makes a blob; mode ${mode} is not a blob's`);
    const blob = objects.add(gitObject("blob", Buffer.from(item.content, "utf8")));
    return { path, mode: mode as GitMode, type, sha: blob.sha };
  }
  if (item.sha === null) return { path, mode: mode as GitMode, type, sha: null };
  if (typeof item.sha !== "string" || !isSha(item.sha))
    throw new ApiError(422, `${field}: Must supply a valid tree.sha or tree.content`);
  // A submodule names a commit of another repository, which need not be here.
  if (type !== "commit" && !(await objects.ofType(item.sha, type)))
    throw new ApiError(422, `tree.sha ${item.sha} is not a valid ${type}`);
  return { path, mode: mode as GitMode, type, sha: item.sha };
}
