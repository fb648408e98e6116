/**
 * Merging a branch (https://docs.github.com/rest/branches/branches#merge-a-branch): the head (a branch, tag or SHA-1)
 * merged into the base branch by a merge commit whose parents are the base and the head, computed on paths as a pull
 * request's merge is (git/merge.ts), then pushed to the base as any other push (./pushes.ts: the PushEvent and the
 * `push` webhook in the action's transaction). Nothing is written when GitHub refuses: a base or head that does not
 * exist (404), a merge that conflicts (409), or a base that already has the head (204, nothing to merge).
 */
import type { Endpoints } from "../../../api/endpoints.js";
import type { RequestOf } from "../../../api/schemas.js";
import { ApiError } from "../../errors.js";
import { type CommitFields, encodeCommit } from "../../git/objects.js";
import { editTree } from "../../git/tree-edit.js";
import type { RepoRow } from "../../store/store.js";
import type { FeedParams } from "../feeds.js";
import { Acting, type ActionParts } from "../actions/acting.js";
import type { ActionAccess } from "../actions/repository-access.js";
import { mergeOf } from "../pulls/pull-facts.js";
import { GITHUB_COMMITTER } from "../pulls/pull-merges.js";
import { changedFiles, type ChangedFile } from "./changed-files.js";
import { commitView, type CommitView } from "./commits.js";
import { ancestorsOf } from "./history.js";
import { gitObject } from "./network-objects.js";
import { type ProtectedRefusal, push } from "./pushes.js";
import { PROTECTED_BRANCHES_DOCS } from "../protection/protection-rules.js";
import type { RepositoryCode } from "./repository-code.js";

type MergeInput = RequestOf<Endpoints["branches"]["merge"], "body">;

/** GitHub's answers (https://docs.github.com/rest/branches/branches#merge-a-branch, "Response codes"). */
const baseMissing = () => new ApiError(404, "Base does not exist");
const headMissing = () => new ApiError(404, "Head does not exist");
const conflict = () => new ApiError(409, "Merge conflict");
/** Another push moved the base between the merge's read and its write. */
const baseMoved = () => new ApiError(409, "Base branch was modified. Review and try the merge again.");
/** A protected base refuses the merge as a push, with the protection's reasons, as the conflicts' 409 does. */
const protectedBase: ProtectedRefusal = (reasons) =>
  new ApiError(409, reasons.join(" "), { documentationUrl: PROTECTED_BRANCHES_DOCS });

export interface BranchMerge {
  repo: RepoRow;
  commit: CommitView & { files: ChangedFile[] };
}

export class BranchMergeService {
  private readonly acting: Acting;

  constructor(
    private readonly parts: ActionParts,
    private readonly code: RepositoryCode,
  ) {
    this.acting = new Acting(parts);
  }

  /** The merge commit made and pushed; null when the base already has the head. */
  async merge(params: FeedParams, input: MergeInput, access: ActionAccess): Promise<BranchMerge | null> {
    const { repo, user } = await this.code.pushable(params, access);
    const name = `refs/heads/${input.base}`;
    const base = await this.code.storeRef(repo, name);
    if (!base) throw baseMissing();
    const objects = this.code.objects(repo);
    const head = await this.code.commitOf(repo, objects, input.head);
    if (!head) throw headMissing();
    if ((await ancestorsOf(objects, [base.sha])).has(head.sha)) return null;
    const merge = await mergeOf(objects, base.sha, head.sha);
    if (merge.conflicts.length > 0) throw conflict();
    const edit = await editTree(objects.trees, merge.baseTree, merge.changes);
    for (const written of edit.written) objects.add(written);
    const at = this.code.now();
    const fields: CommitFields = {
      tree: edit.root,
      parents: [base.sha, head.sha],
      // "The authenticated user will be the author of any merges done through this endpoint."
      author: this.code.person(user, at),
      committer: GITHUB_COMMITTER(at),
      // An empty message is a message left out: GitHub writes its default then too.
      message: input.commit_message || `Merge ${input.head} into ${input.base}`,
    };
    const sha = objects.add(gitObject("commit", encodeCommit(fields))).sha;
    const scene = await this.acting.scene(repo, user);
    await this.acting.perform(scene, async (making) => {
      const inTransaction = this.code.objectsIn(making.tx, repo);
      for (const object of objects.pending()) inTransaction.add(object);
      await push(
        making,
        inTransaction,
        { name, before: base.sha, after: sha, forced: false },
        baseMoved,
        protectedBase,
      );
    });
    // Its files against its first parent, the base, as a commit's answer lists them.
    const { files } = await changedFiles(objects, merge.baseTree, edit.root);
    return { repo, commit: { ...(await commitView(this.parts.store, sha, fields, new Map())), files } };
  }
}
