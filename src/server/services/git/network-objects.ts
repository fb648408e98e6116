/**
 * A fork network's git objects as the services read and write them: typed look-ups over the store (a tree's entries,
 * a commit's fields), and the objects an action makes, hashed as git hashes them, held until the action writes them
 * with its ref update.
 */
import type { GitStore, StoredGitObject } from "../../store/store.js";
import {
  type CommitFields,
  decodeCommit,
  decodeTag,
  decodeTree,
  type GitObjectType,
  hashObject,
  isSha,
  type TagFields,
  type TreeEntry,
} from "../../git/objects.js";
import type { TreeReader } from "../../git/tree-edit.js";

/** An object of `type` with `body`, under the SHA-1 git gives it. */
export const gitObject = (type: GitObjectType, body: Buffer): StoredGitObject => ({
  type,
  body,
  sha: hashObject(type, body),
});

export class NetworkObjects {
  /** What this action made and has not written yet: read as if stored, so a tree can name a blob made beside it. */
  private readonly made = new Map<string, StoredGitObject>();

  constructor(
    private readonly git: GitStore,
    readonly networkId: number,
  ) {}

  /** The object of that SHA-1, of that type; null for no such object (or not a SHA-1 at all). */
  async ofType(sha: string, type?: GitObjectType): Promise<StoredGitObject | null> {
    if (!isSha(sha)) return null;
    const object = this.made.get(sha) ?? (await this.git.object(this.networkId, sha));
    return object && (type === undefined || object.type === type) ? object : null;
  }

  async tree(sha: string): Promise<TreeEntry[] | null> {
    const object = await this.ofType(sha, "tree");
    return object ? decodeTree(object.body) : null;
  }

  async commit(sha: string): Promise<CommitFields | null> {
    const object = await this.ofType(sha, "commit");
    return object ? decodeCommit(object.body) : null;
  }

  async tag(sha: string): Promise<TagFields | null> {
    const object = await this.ofType(sha, "tag");
    return object ? decodeTag(object.body) : null;
  }

  /** tree-edit.ts's and tree-diff.ts's view of the trees. */
  readonly trees: TreeReader = (sha) => this.tree(sha);

  /** Keeps a made object for `write`, and answers it as stored meanwhile. */
  add(object: StoredGitObject): StoredGitObject {
    this.made.set(object.sha, object);
    return object;
  }

  /** What was made and not written yet, to hand to an action's transaction. */
  pending(): StoredGitObject[] {
    return [...this.made.values()];
  }

  /** Stores what was made (in the caller's transaction, when the store is a transaction's). */
  async write(): Promise<void> {
    await this.git.put(this.networkId, [...this.made.values()]);
    this.made.clear();
  }
}
