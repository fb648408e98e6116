/**
 * GitHub's contents API (https://docs.github.com/rest/repos/contents): a path read from the tree of a ref (a branch,
 * a tag or a commit's SHA-1; the default branch when none is named), and files written or deleted as commits on a
 * branch, each a push of the action log (./pushes.ts). A write names the blob it replaces (`sha`), so that one made
 * from a stale read is refused (409) rather than lost. A repository without a commit gets its first one, on the
 * branch named or the default branch, from its first write.
 */
import type { Endpoints } from "../../../api/endpoints.js";
import type { RequestOf } from "../../../api/schemas.js";
import { ApiError, notFound } from "../../errors.js";
import { InvalidInputError } from "../../failures.js";
import type { RepoRow, UserRow } from "../../store/store.js";
import type { Principal } from "../authenticator.js";
import type { FeedParams } from "../feeds.js";
import { Acting, type ActionParts } from "../actions/acting.js";
import type { ActionAccess } from "../actions/repository-access.js";
import type { ListedEntry, PathContent } from "../../convert/git.js";
import { parseGitmodules, type Submodule } from "../../git/gitmodules.js";
import { gitObject, type NetworkObjects } from "./network-objects.js";
import { type CommitFields, encodeCommit, type GitMode, pathSegments, type TreeEntry } from "../../git/objects.js";
import { defaultBranchOf, type ProtectedRefusal, protectedRef, push } from "./pushes.js";
import { PROTECTED_BRANCHES_DOCS } from "../protection/protection-rules.js";
import { personFrom, type RepositoryCode } from "./repository-code.js";
import { editTree, type PathChange } from "../../git/tree-edit.js";

type PutInput = RequestOf<Endpoints["contents"]["createOrUpdateFile"], "body">;
type DeleteInput = RequestOf<Endpoints["contents"]["deleteFile"], "body">;

/** A path ending in a repository path after `contents/` (Fastify's wildcard). */
export type ContentPath = FeedParams & { "*": string };

/** What a ref names, as the contents API reads it: the commit, and the name its URLs say (`?ref=main`). */
export interface ResolvedRef {
  commit: string;
  tree: string;
  name: string;
}

export interface ContentView {
  repo: RepoRow;
  ref: ResolvedRef;
  content: PathContent;
}

/** What a write answers: the file written (null after a delete) and the commit. */
export interface FileCommitView {
  repo: RepoRow;
  branch: string;
  created: boolean;
  file: { path: string; sha: string; size: number } | null;
  commit: { sha: string; fields: CommitFields };
}

/** GitHub's answer for a ref that names no commit. */
const noCommit = (ref: string) => new ApiError(404, `No commit found for the ref ${ref}`);
/** GitHub's contents answer for a repository without a commit. */
const repositoryIsEmpty = () => new ApiError(404, "This repository is empty.");
const branchNotFound = (branch: string) => new ApiError(404, `Branch ${branch} not found`);
/** GitHub's 409 for a write whose `sha` is not the file's blob now. */
const doesNotMatch = (path: string, sha: string) => new ApiError(409, `${path} does not match ${sha}`);
/** GitHub's answer when a branch moved during the write: the caller's read is stale. */
const branchMoved = (branch: string) => () => new ApiError(409, `${branch} was updated while the file was written`);
/**
 * GitHub's 409 for a file write its branch's protection refuses, with the protection's reasons ("Could not update
 * file: 2 of 2 required status checks are expected. Changes must be made through a pull request.").
 */
const protectedFile =
  (verb: "update" | "delete"): ProtectedRefusal =>
  (reasons) =>
    new ApiError(409, `Could not ${verb} file: ${reasons.join(" ")}`, { documentationUrl: PROTECTED_BRANCHES_DOCS });
/** GitHub checks the contents body against its schema first: a file that exists needs its `sha`. */
const shaNotSupplied = () => new ApiError(422, 'Invalid request.\n\n"sha" wasn\'t supplied.');

/** A file GitHub takes for a README: named README, in any case, with any extension or none. */
const README = /^readme(\.|$)/i;

/** How many links to links the contents API follows before it answers the link itself (Linux's MAXSYMLINKS). */
const MAX_LINK_HOPS = 40;

/**
 * Where a symbolic link's text leads, from the link at `from`: its segments from the root, or null for a target
 * outside the repository (absolute, or above the root).
 */
function linkTarget(from: string, text: string): string[] | null {
  if (text.startsWith("/")) return null;
  const parts = from.split("/").slice(0, -1);
  for (const segment of text.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") {
      if (parts.length === 0) return null;
      parts.pop();
    } else parts.push(segment);
  }
  return parts.length === 0 ? null : parts;
}

/** The submodules the `.gitmodules` file at the root of tree `root` describes; none without one. */
async function submodulesOf(objects: NetworkObjects, root: string): Promise<Submodule[]> {
  const entry = (await objects.tree(root))?.find((e) => e.name === ".gitmodules" && e.mode !== "040000");
  const blob = entry ? await objects.ofType(entry.sha, "blob") : null;
  return blob ? parseGitmodules(blob.body.toString("utf8")) : [];
}

/** A repository path as the contents API takes it: no leading or trailing slash; null for the root directory. */
function repositoryPath(raw: string): string[] | null {
  const path = raw.replace(/^\/+|\/+$/g, "");
  if (path === "") return null;
  const segments = pathSegments(path);
  if (!segments) throw notFound();
  return segments;
}

export class ContentService {
  private readonly acting: Acting;

  constructor(
    parts: ActionParts,
    private readonly code: RepositoryCode,
  ) {
    this.acting = new Acting(parts);
  }

  /**
   * The commit `ref` names (a branch, a tag, a commit's SHA-1), or the default branch's; 404 when none is there. Only
   * a ref that names nothing asks whether the repository has any (GitHub's "This repository is empty."), so that a
   * read of a branch costs no look-up of every ref.
   */
  async resolve(repo: RepoRow, objects: NetworkObjects, ref: string | undefined): Promise<ResolvedRef> {
    const name = ref ?? defaultBranchOf(repo);
    const commit = await this.code.commitOf(repo, objects, name);
    if (commit) return { commit: commit.sha, tree: commit.fields.tree, name };
    throw (await this.code.hasRefs(repo)) ? noCommit(name) : repositoryIsEmpty();
  }

  /** The entry at `segments` below `tree`, or null. */
  private async entryAt(objects: NetworkObjects, tree: string, segments: string[]): Promise<TreeEntry | null> {
    let entries = await objects.tree(tree);
    let found: TreeEntry | null = null;
    for (const segment of segments) {
      if (!entries) return null;
      found = entries.find((entry) => entry.name === segment) ?? null;
      if (!found) return null;
      entries = found.mode === "040000" ? await objects.tree(found.sha) : null;
    }
    return found;
  }

  async get(path: ContentPath, ref: string | undefined, principal: Principal | null): Promise<ContentView> {
    const repo = await this.code.readable(path, principal);
    const objects = this.code.objects(repo);
    const resolved = await this.resolve(repo, objects, ref);
    const segments = repositoryPath(path["*"]);
    const entry = segments ? await this.entryAt(objects, resolved.tree, segments) : null;
    if (segments && !entry) throw notFound();
    const content = await this.contentOf(objects, resolved.tree, segments?.join("/") ?? "", entry);
    return { repo, ref: resolved, content };
  }

  /** What the entry at `at` (null: the root directory) of tree `root` is, as the contents API answers it. */
  private async contentOf(
    objects: NetworkObjects,
    root: string,
    at: string,
    entry: TreeEntry | null,
  ): Promise<PathContent> {
    if (!entry || entry.mode === "040000") {
      const sha = entry?.sha ?? root;
      const listed = (await objects.tree(sha)) ?? [];
      const submodules = listed.some((child) => child.mode === "160000") ? await submodulesOf(objects, root) : [];
      const entries: ListedEntry[] = [];
      for (const child of listed) {
        const path = at === "" ? child.name : `${at}/${child.name}`;
        if (child.mode === "160000") {
          const submoduleUrl = submodules.find((s) => s.path === path)?.url ?? null;
          entries.push({ path, entry: child, size: 0, submoduleUrl });
          continue;
        }
        const blob = child.mode === "040000" ? null : await objects.ofType(child.sha, "blob");
        entries.push({ path, entry: child, size: blob?.body.length ?? 0 });
      }
      return { kind: "dir", path: at, sha, entries };
    }
    if (entry.mode === "160000") {
      // A gitlink is a submodule only where `.gitmodules` says where to clone it from, as git reads it.
      const submodule = (await submodulesOf(objects, root)).find((s) => s.path === at);
      if (!submodule) throw notFound();
      return { kind: "submodule", path: at, entry, submoduleUrl: submodule.url };
    }
    const blob = await objects.ofType(entry.sha, "blob");
    if (!blob) throw notFound();
    if (entry.mode === "120000") {
      const target = await this.linkedFile(objects, root, at, blob.body);
      return target ?? { kind: "symlink", path: at, entry, body: blob.body };
    }
    return { kind: "file", path: at, entry, body: blob.body };
  }

  /**
   * The file a symbolic link at `at` leads to in the same tree, through links to links, when it leads to a file:
   * GitHub then "responds with the content of the file" (its contents API documentation). Null for a target outside
   * the repository, a directory, a submodule, nothing, or a loop.
   */
  private async linkedFile(objects: NetworkObjects, root: string, at: string, target: Buffer) {
    let from = at;
    let text = target.toString("utf8");
    for (let hop = 0; hop < MAX_LINK_HOPS; hop++) {
      const path = linkTarget(from, text);
      const entry = path && (await this.entryAt(objects, root, path));
      if (!path || !entry || (entry.mode !== "100644" && entry.mode !== "100755" && entry.mode !== "120000"))
        return null;
      const blob = await objects.ofType(entry.sha, "blob");
      if (!blob) return null;
      const joined = path.join("/");
      if (entry.mode !== "120000") return { kind: "file" as const, path: joined, entry, body: blob.body };
      from = joined;
      text = blob.body.toString("utf8");
    }
    return null;
  }

  /**
   * The README GitHub shows: in `dir` when named (`GET /readme/{dir}`), else the first of the `.github` directory's,
   * the root directory's and the `docs` directory's ("the file shown is chosen from locations in the following
   * order", GitHub's README documentation); in each, the first file named README (any case, any extension).
   */
  async readme(
    params: FeedParams,
    ref: string | undefined,
    principal: Principal | null,
    dir?: string,
  ): Promise<ContentView> {
    const places = dir === undefined ? [".github", "", "docs"] : [dir.replace(/^\/+|\/+$/g, "")];
    for (const place of places) {
      const listing = await this.get({ ...params, "*": place }, ref, principal).catch((error: unknown) =>
        error instanceof ApiError && error.code === "FEEDGATE_NOT_FOUND" && place !== "" ? null : Promise.reject(error),
      );
      if (listing?.content.kind !== "dir") continue;
      const readme = listing.content.entries.find(
        (e) =>
          (e.entry.mode === "100644" || e.entry.mode === "100755" || e.entry.mode === "120000") &&
          README.test(e.entry.name),
      );
      if (readme) return this.get({ ...params, "*": readme.path }, ref, principal);
    }
    throw notFound();
  }

  async put(path: ContentPath, input: PutInput, access: ActionAccess): Promise<FileCommitView> {
    const body = base64Content(input.content);
    return this.write(path, input, access, protectedFile("update"), async (current, segments) => {
      if (current && current.mode === "040000") throw new ApiError(422, `${segments.join("/")} is a directory`);
      if (current && input.sha === undefined) throw shaNotSupplied();
      if (current && input.sha !== current.sha) throw doesNotMatch(segments.join("/"), input.sha!);
      const mode: GitMode = current?.mode === "100755" ? "100755" : "100644";
      return { mode, body };
    });
  }

  async delete(path: ContentPath, input: DeleteInput, access: ActionAccess): Promise<FileCommitView> {
    return this.write(path, input, access, protectedFile("delete"), async (current, segments) => {
      if (!current || current.mode === "040000") throw notFound();
      if (input.sha !== current.sha) throw doesNotMatch(segments.join("/"), input.sha);
      return null;
    });
  }

  /**
   * A commit on the branch changing one path, as `change` decides from the path's entry now (a new body, or null to
   * delete it), pushed in one action.
   */
  private async write(
    path: ContentPath,
    input: Omit<PutInput, "content" | "sha">,
    access: ActionAccess,
    refused: ProtectedRefusal,
    change: (current: TreeEntry | null, segments: string[]) => Promise<{ mode: GitMode; body: Buffer } | null>,
  ): Promise<FileCommitView> {
    const { repo, user } = await this.code.pushable(path, access);
    const segments = repositoryPath(path["*"]);
    if (!segments) throw new ApiError(422, "path must name a file");
    const repoPath = segments.join("/");
    let created = false;
    let file: FileCommitView["file"] = null;
    const commit = await this.commitOnBranch(repo, user, input, refused, async (objects, parentTree) => {
      const current = parentTree ? await this.entryAt(objects, parentTree, segments) : null;
      created = current === null;
      const next = await change(current, segments);
      if (!next) return [{ path: repoPath, mode: "100644", type: "blob", sha: null }];
      const blob = objects.add(gitObject("blob", next.body));
      file = { path: repoPath, sha: blob.sha, size: next.body.length };
      return [{ path: repoPath, mode: next.mode, type: "blob", sha: blob.sha }];
    });
    return { repo, branch: commit.branch, created, file, commit: { sha: commit.sha, fields: commit.fields } };
  }

  /**
   * Files written (text) and deleted (null) in one commit on a branch (the default when none is named), pushed as a
   * person's push: the test double's `commit()`, which has a user where the API has a caller's access.
   */
  async commitFiles(
    repo: RepoRow,
    user: UserRow,
    change: { branch?: string; message: string; files: Readonly<Record<string, string | null>> },
  ): Promise<{ sha: string; branch: string }> {
    const entries = Object.entries(change.files);
    for (const [path] of entries)
      if (!pathSegments(path)) throw new ApiError(422, `${path} is not a path git can store`);
    const commit = await this.commitOnBranch(repo, user, change, protectedRef, async (objects) =>
      entries.map(
        ([path, text]): PathChange =>
          text === null
            ? { path, mode: "100644", type: "blob", sha: null }
            : { path, mode: "100644", type: "blob", sha: objects.add(gitObject("blob", Buffer.from(text))).sha },
      ),
    );
    return { sha: commit.sha, branch: commit.branch };
  }

  /**
   * A commit on a branch of the changes `changes` makes from the branch's tree (none in an empty repository, whose
   * first commit makes the branch), pushed in one action; the branch moved meanwhile is GitHub's 409.
   */
  private async commitOnBranch(
    repo: RepoRow,
    user: UserRow,
    input: Omit<PutInput, "content" | "sha">,
    refused: ProtectedRefusal,
    changes: (objects: NetworkObjects, parentTree: string | null) => Promise<PathChange[]>,
  ) {
    const at = this.code.now();
    const objects = this.code.objects(repo);
    const empty = !(await this.code.hasRefs(repo));
    const branch = input.branch ?? defaultBranchOf(repo);
    const head = empty ? null : await this.code.storeRef(repo, `refs/heads/${branch}`);
    if (!empty && !head) throw branchNotFound(branch);
    const parent = head ? await objects.commit(head.sha) : null;
    const edit = await editTree(objects.trees, parent?.tree ?? null, await changes(objects, parent?.tree ?? null));
    for (const tree of edit.written) objects.add(tree);
    const fields = this.commitFields(user, at, input, edit.root, head ? [head.sha] : []);
    const commit = objects.add(gitObject("commit", encodeCommit(fields)));
    const scene = await this.acting.scene(repo, user);
    await this.acting.perform(scene, async (making) => {
      const inTransaction = this.code.objectsIn(making.tx, repo);
      for (const object of objects.pending()) inTransaction.add(object);
      // The first branch of a repository without one becomes its default, as on GitHub.
      if (empty && !repo.settings.defaultBranch)
        await making.tx.repositories.update(repo.id, { defaultBranch: branch }, at);
      const name = `refs/heads/${branch}`;
      const update = { name, before: head?.sha ?? null, after: commit.sha, forced: false };
      await push(making, inTransaction, update, branchMoved(branch), refused);
    });
    return { sha: commit.sha, fields, branch };
  }

  /** The commit of a contents write: GitHub's committer defaults to the caller, the author to the committer. */
  private commitFields(
    user: UserRow,
    at: Date,
    input: Omit<PutInput, "content" | "sha">,
    tree: string,
    parents: string[],
  ): CommitFields {
    const caller = this.code.person(user, at);
    const committer = personFrom(input.committer, "committer", caller);
    const author = personFrom(input.author, "author", committer);
    return { tree, parents, author, committer, message: input.message };
  }
}

/** A file's new content as the contents API sends it: base64 (GitHub's 422 for anything else). */
function base64Content(content: string): Buffer {
  const text = content.replace(/\s+/g, "");
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 === 1)
    throw new InvalidInputError("content is not valid Base64", { field: "content", code: "invalid" });
  return Buffer.from(text, "base64");
}
