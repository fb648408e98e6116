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
import type { PathContent } from "../../convert/git.js";
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
    const at = segments?.join("/") ?? "";
    if (!entry || entry.mode === "040000") {
      const listed = (await objects.tree(entry?.sha ?? resolved.tree)) ?? [];
      const entries = [];
      for (const child of listed) {
        const blob = child.mode === "040000" ? null : await objects.ofType(child.sha, "blob");
        entries.push({
          path: at === "" ? child.name : `${at}/${child.name}`,
          entry: child,
          size: blob?.body.length ?? 0,
        });
      }
      return { repo, ref: resolved, content: { kind: "dir", path: at, entries } };
    }
    const blob = await objects.ofType(entry.sha, "blob");
    // A submodule's commit is another repository's: GitHub answers it with that repository's URL, not served here.
    if (!blob) throw notFound();
    return {
      repo,
      ref: resolved,
      content: { kind: entry.mode === "120000" ? "symlink" : "file", path: at, entry, body: blob.body },
    };
  }

  /** The README GitHub shows: the first file of the root directory named README (any case, any extension). */
  async readme(params: FeedParams, ref: string | undefined, principal: Principal | null): Promise<ContentView> {
    const root = await this.get({ ...params, "*": "" }, ref, principal);
    if (root.content.kind !== "dir") throw notFound();
    const readme = root.content.entries.find((e) => e.entry.mode !== "040000" && /^readme(\.|$)/i.test(e.entry.name));
    if (!readme) throw notFound();
    return this.get({ ...params, "*": readme.path }, ref, principal);
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
