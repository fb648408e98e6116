/**
 * Merging a pull request (https://docs.github.com/rest/pulls/pulls#merge-a-pull-request): a merge commit with both
 * heads as parents, a squash (one commit on the base), or a rebase (each of the pull request's commits written again
 * on the base), computed on paths (git/merge.ts), then a push of the base branch as any other (../git/pushes.ts),
 * and in the same transaction the pull request merged and closed: the `merged` and `closed` issue events, the
 * PullRequestEvent `closed`, the `pull_request.closed` webhook with `merged: true`; and the issues its body closes
 * with GitHub's keywords (`Fixes #12`), closed by its merge commit, when it merges into the default branch. A
 * protected base's rules refuse it first (GitHub's 405 with their reasons: approvals, required checks, pushers).
 */
import type { Endpoints } from "../../../api/endpoints.js";
import type { RequestOf } from "../../../api/schemas.js";
import { ApiError } from "../../errors.js";
import { InvalidInputError } from "../../failures.js";
import { type CommitFields, encodeCommit, type GitPerson } from "../../git/objects.js";
import { mergePaths } from "../../git/merge.js";
import { diffTrees } from "../../git/tree-diff.js";
import { editTree, type PathChange } from "../../git/tree-edit.js";
import type { IssueRow, PullRow, UserRow } from "../../store/store.js";
import { withoutAssociation, type Acting, type Making } from "../actions/acting.js";
import { mustHavePushAccess, writableRepository, type ActionAccess } from "../actions/repository-access.js";
import { gitObject, NetworkObjects } from "../git/network-objects.js";
import { defaultBranchOf, MERGING, personOf, push } from "../git/pushes.js";
import { mergeRefusals, PROTECTED_BRANCHES_DOCS } from "../protection/protection-rules.js";
import { ancestorsOf } from "../git/history.js";
import { mergeOf, pullCommits } from "./pull-facts.js";
import { pullAbout, pullEvent, pullWebhook } from "./pull-made.js";
import type { PullPath, PullRequestService } from "./pull-requests.js";

type MergeInput = RequestOf<Endpoints["pulls"]["merge"], "body">;
type UpdateBranchInput = RequestOf<Endpoints["pulls"]["updateBranch"], "body">;

const MERGE_METHODS = ["merge", "squash", "rebase"] as const;
type MergeMethod = (typeof MERGE_METHODS)[number];

/** GitHub's committer of the commits a merge writes on the web and through the API (a branch's merge too). */
export const GITHUB_COMMITTER = (at: Date): GitPerson => ({
  name: "GitHub",
  email: "noreply@github.com",
  date: new Date(Math.floor(at.getTime() / 1000) * 1000),
  offsetMinutes: 0,
});

const notMergeable = () => new ApiError(405, "Pull Request is not mergeable");
const headModified = () => new ApiError(409, "Head branch was modified. Review and try the merge again.");
const baseModified = () => new ApiError(409, "Base branch was modified. Review and try the merge again.");

/** GitHub's closing keywords (https://docs.github.com/issues/tracking-your-work-with-issues/linking-a-pull-request-to-an-issue). */
const CLOSING = /\b(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?)\b:?\s+#(\d+)\b/gi;

/** The issue numbers a text closes with GitHub's keywords, each once, in order. */
export function closedIssueNumbers(text: string | null): number[] {
  return [...new Set([...(text ?? "").matchAll(CLOSING)].map((m) => Number(m[1])))];
}

export interface MergeResult {
  sha: string;
  message: string;
}

export class PullMergeService {
  constructor(private readonly pulls: PullRequestService) {}

  private get parts() {
    return this.pulls.acting.parts;
  }

  async merge(path: PullPath, input: MergeInput | undefined, access: ActionAccess): Promise<MergeResult> {
    const { store, feeds, clock } = this.parts;
    const w = await writableRepository(store, feeds, path, access);
    if (!w.pushes) throw mustHavePushAccess();
    const { issue, pull } = await this.pulls.find(w.repo, path);
    const method = (input?.merge_method ?? "merge") as MergeMethod;
    if (!MERGE_METHODS.includes(method))
      throw new InvalidInputError(`merge_method must be one of ${MERGE_METHODS.join(", ")}`, {
        field: "merge_method",
        code: "invalid",
      });
    if (issue.state !== "open" || pull.mergedAt !== null) throw notMergeable();
    if (pull.draft) throw new ApiError(405, "Pull Request is still a draft");
    if (input?.sha !== undefined && input.sha !== pull.headSha) throw headModified();
    const base = await store.git.ref(w.repo.id, `refs/heads/${pull.baseRef}`);
    if (!base) throw notMergeable();
    const refusals = await mergeRefusals(store, w.repo, pull, w.principal.user);
    if (refusals.length > 0) throw new ApiError(405, refusals.join(" "), { documentationUrl: PROTECTED_BRANCHES_DOCS });
    const objects = new NetworkObjects(store.git, w.repo.networkId);
    const at = clock();
    const author = (await store.users.findById(issue.userId))!;
    const sha = await this.write(
      objects,
      method,
      { issue, pull, baseSha: base.sha },
      input,
      w.principal.user,
      author,
      at,
    );
    const scene = await this.pulls.acting.scene(w.repo, w.principal.user);
    await this.pulls.acting.perform(scene, async (making) => {
      const { tx } = making;
      const current = (await tx.pulls.find(w.repo.id, pull.number))!;
      const currentIssue = (await tx.issues.findById(issue.id))!;
      if (currentIssue.state !== "open" || current.mergedAt !== null) throw notMergeable();
      if (current.headSha !== pull.headSha) throw headModified();
      const inTransaction = new NetworkObjects(tx.git, w.repo.networkId);
      for (const object of objects.pending()) inTransaction.add(object);
      const update = { name: `refs/heads/${pull.baseRef}`, before: base.sha, after: sha, forced: false };
      await push(making, inTransaction, update, baseModified, MERGING);
      // The base as it was before the merge stays the pull request's, so that what it brought is still its own.
      await tx.pulls.update(issue.id, {
        mergedAt: scene.at,
        mergedById: scene.actor.id,
        mergeCommitSha: sha,
        baseSha: base.sha,
      });
      const closed = await tx.issues.update(issue.id, {
        state: "closed",
        closedAt: scene.at,
        closedById: scene.actor.id,
        updatedAt: scene.at,
      });
      const about = await pullAbout(tx, scene, closed);
      const commit = { commit_id: sha, commit_url: `${scene.baseUrl}/repos/${w.repo.fullName}/commits/${sha}` };
      await making.issueEvent(about.issue, "merged", commit);
      await making.issueEvent(about.issue, "closed");
      await pullEvent(making, about, "closed");
      pullWebhook(making, about, "closed");
      if (pull.baseRef === defaultBranchOf(w.repo))
        for (const number of closedIssueNumbers(currentIssue.body))
          await closeIssue(this.pulls.acting, making, number, commit);
    });
    return { sha, message: "Pull Request successfully merged" };
  }

  /**
   * `update-branch`: the base merged into the head branch (a commit with the head and the base as parents), pushed
   * to the head's repository (a fork's with `maintainer_can_modify`), which is the pull request's `synchronize`.
   */
  async updateBranch(path: PullPath, input: UpdateBranchInput | undefined, access: ActionAccess): Promise<void> {
    const { store, feeds, clock } = this.parts;
    const w = await writableRepository(store, feeds, path, access);
    const { issue, pull } = await this.pulls.find(w.repo, path);
    const headRepo = pull.headRepoId === null ? null : await store.directory.findRepoById(pull.headRepoId);
    if (!headRepo) throw new ApiError(422, "The head repository does not exist.");
    const here = headRepo.id === w.repo.id;
    const pushesHead = here
      ? w.pushes
      : (w.pushes && pull.maintainerCanModify) ||
        ((await store.directory.repoAccess(w.principal.user.id, headRepo.id))?.permission ?? "pull") !== "pull";
    if (!pushesHead) throw mustHavePushAccess();
    if (issue.state !== "open") throw new ApiError(422, "Pull request is not open.");
    if (input?.expected_head_sha !== undefined && input.expected_head_sha !== pull.headSha)
      throw new ApiError(422, "expected head sha didn't match current head ref.");
    const base = await store.git.ref(w.repo.id, `refs/heads/${pull.baseRef}`);
    if (!base) throw notMergeable();
    const objects = new NetworkObjects(store.git, w.repo.networkId);
    if ((await ancestorsOf(objects, [pull.headSha])).has(base.sha))
      throw new ApiError(422, "There are no new commits on the base branch.");
    // The base's changes on the head's tree: the merge seen from the head.
    const merge = await mergeOf(objects, pull.headSha, base.sha);
    if (merge.conflicts.length > 0) throw new ApiError(422, "merge conflict between base and head");
    const edit = await editTree(objects.trees, merge.baseTree, merge.changes);
    for (const written of edit.written) objects.add(written);
    const at = clock();
    const commit = objects.add(
      gitObject(
        "commit",
        encodeCommit({
          tree: edit.root,
          parents: [pull.headSha, base.sha],
          author: personOf(w.principal.user, at),
          committer: GITHUB_COMMITTER(at),
          message: `Merge branch '${pull.baseRef}' into ${pull.headRef}`,
        }),
      ),
    );
    const scene = await this.pulls.acting.scene(w.repo, w.principal.user);
    await this.pulls.acting.perform(scene, async (making) => {
      const there = await making.in(headRepo);
      const inTransaction = new NetworkObjects(making.tx.git, w.repo.networkId);
      for (const object of objects.pending()) inTransaction.add(object);
      const update = { name: `refs/heads/${pull.headRef}`, before: pull.headSha, after: commit.sha, forced: false };
      await push(there, inTransaction, update, headModified);
    });
  }

  /** Writes the commits of the merge (held in `objects` until the push) and answers the base's new head. */
  private async write(
    objects: NetworkObjects,
    method: MergeMethod,
    state: { issue: IssueRow; pull: PullRow; baseSha: string },
    input: MergeInput | undefined,
    merger: UserRow,
    author: UserRow,
    at: Date,
  ): Promise<string> {
    const { issue, pull, baseSha } = state;
    const merge = await mergeOf(objects, baseSha, pull.headSha);
    if (merge.conflicts.length > 0) throw notMergeable();
    const commitOf = (fields: CommitFields) => objects.add(gitObject("commit", encodeCommit(fields))).sha;
    const treeWith = async (tree: string, changes: readonly PathChange[]) => {
      const edit = await editTree(objects.trees, tree, changes);
      for (const written of edit.written) objects.add(written);
      return edit.root;
    };
    const committer = GITHUB_COMMITTER(at);
    const headOwner = (await this.parts.store.directory.findRepoById(pull.headRepoId ?? -1))?.fullName.split("/")[0];
    if (method === "rebase") {
      let parent = baseSha;
      let tree = merge.baseTree;
      for (const { fields } of await pullCommits(objects, { baseSha, headSha: pull.headSha })) {
        const before = fields.parents[0] ? ((await objects.commit(fields.parents[0]))?.tree ?? null) : null;
        const own = await diffTrees(objects.trees, before, fields.tree);
        // A three-way merge of the commit onto where the rebase has got to, from the commit's own parent.
        const applied = mergePaths(await diffTrees(objects.trees, before, tree), own);
        if (applied.conflicts.length > 0) throw new ApiError(405, "This branch can't be rebased");
        tree = await treeWith(tree, applied.changes);
        parent = commitOf({ ...fields, tree, parents: [parent], committer, headers: [] });
      }
      return parent;
    }
    const tree = await treeWith(merge.baseTree, merge.changes);
    if (method === "squash") {
      const listed = (await pullCommits(objects, { baseSha, headSha: pull.headSha })).map(
        (c) => `* ${c.fields.message}`,
      );
      return commitOf({
        tree,
        parents: [baseSha],
        author: personOf(author, at),
        committer,
        message: `${input?.commit_title ?? `${issue.title} (#${pull.number})`}\n\n${input?.commit_message ?? listed.join("\n\n")}`,
      });
    }
    return commitOf({
      tree,
      parents: [baseSha, pull.headSha],
      author: personOf(merger, at),
      committer,
      message: `${input?.commit_title ?? `Merge pull request #${pull.number} from ${headOwner ?? "unknown"}/${pull.headRef}`}\n\n${input?.commit_message ?? issue.title}`,
    });
  }
}

/** An issue the merge closes: closed by the merger, its `closed` issue event naming the merge commit. */
async function closeIssue(acting: Acting, making: Making, number: number, commit: Record<string, string>) {
  const { tx, scene } = making;
  const issue = await tx.issues.find(scene.repo.id, number);
  if (issue?.state !== "open" || (await tx.pulls.find(scene.repo.id, number))) return;
  const closed = await tx.issues.update(issue.id, {
    state: "closed",
    stateReason: "completed",
    closedAt: scene.at,
    closedById: scene.actor.id,
    updatedAt: scene.at,
  });
  const about = await acting.wire(tx, scene, closed);
  await making.issueEvent(about, "closed", commit);
  await making.event("IssuesEvent", { action: "closed", issue: withoutAssociation(about.wire) });
  making.webhook("issues", "closed", { issue: about.wire });
}
