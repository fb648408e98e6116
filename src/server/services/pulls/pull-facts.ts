/**
 * What a pull request object shows beyond its issue, read for a whole page at once (its ends' repositories, its
 * requested reviewers, who merged it), and what is computed from its commits when one is read alone: how many commits
 * and lines it brings from the merge base, and whether it merges (git/merge.ts, on paths). Read through the store or
 * an action's transaction, whose parts are the same contracts.
 */
import type { IssueFacts } from "../../convert/issue.js";
import type { PullComputed, PullEndFacts, PullFacts } from "../../convert/pull.js";
import type { RepositoryFacts } from "../../convert/repository.js";
import { mergePaths } from "../../git/merge.js";
import { diffTrees } from "../../git/tree-diff.js";
import type {
  DirectoryStore,
  IssueRow,
  PullRow,
  PullStore,
  RepoRow,
  ReviewCommentStore,
  UserRow,
} from "../../store/store.js";
import { issueFacts, type FactSources } from "../actions/issue-facts.js";
import { changedFiles } from "../git/changed-files.js";
import { ancestorsOf, commitsNotIn, mergeBaseOf } from "../git/history.js";
import type { NetworkObjects } from "../git/network-objects.js";

export interface PullSources extends FactSources {
  directory: Pick<DirectoryStore, "repoRole" | "findRepoById" | "repoStats">;
  pulls: Pick<PullStore, "byIssueIds" | "reviewersOf">;
  reviewComments: Pick<ReviewCommentStore, "countsOf">;
}

/** The facts of pull requests whose issues are `rows` (every one a pull request's), in their order. */
export async function pullFacts(sources: PullSources, repo: RepoRow, rows: IssueRow[]): Promise<PullFacts[]> {
  const issues = await issueFacts(sources, repo, rows);
  const reviewers = await sources.pulls.reviewersOf(rows.map((r) => r.id));
  const reviewComments = await sources.reviewComments.countsOf(rows.map((r) => r.id));
  const repositories = new Map<number, RepositoryFacts | null>();
  const users = new Map<number, UserRow | null>();
  const user = async (id: number) => {
    if (!users.has(id)) users.set(id, await sources.users.findById(id));
    return users.get(id) ?? null;
  };
  const repository = async (id: number | null): Promise<RepositoryFacts | null> => {
    if (id === null) return null;
    if (!repositories.has(id)) {
      const found = await sources.directory.findRepoById(id);
      const owner = found && (await user(found.ownerId));
      repositories.set(
        id,
        found && owner ? { repo: found, owner, stats: await sources.directory.repoStats(found.id) } : null,
      );
    }
    return repositories.get(id) ?? null;
  };
  const facts: PullFacts[] = [];
  for (const issue of issues) {
    const pull = issue.pull!;
    const end = async (repoId: number | null, ref: string, sha: string): Promise<PullEndFacts> => ({
      repo: await repository(repoId),
      ref,
      sha,
    });
    const requested: UserRow[] = [];
    for (const id of reviewers.get(issue.issue.id) ?? []) {
      const found = await user(id);
      if (found) requested.push(found);
    }
    facts.push({
      issue: issue as IssueFacts & { pull: PullRow },
      head: await end(pull.headRepoId, pull.headRef, pull.headSha),
      base: (await end(repo.id, pull.baseRef, pull.baseSha)) as PullEndFacts & { repo: RepositoryFacts },
      reviewers: requested,
      mergedBy: pull.mergedById === null ? null : await user(pull.mergedById),
      reviewComments: reviewComments.get(issue.issue.id) ?? 0,
    });
  }
  return facts;
}

/** How the head merges into the base: the merge base, each side's changes since, and the paths that conflict. */
export async function mergeOf(objects: NetworkObjects, baseSha: string, headSha: string) {
  const mergeBase = await mergeBaseOf(objects, baseSha, headSha);
  const tree = async (sha: string | null) => (sha === null ? null : ((await objects.commit(sha))?.tree ?? null));
  const [fromTree, baseTree, headTree] = [await tree(mergeBase), (await tree(baseSha))!, (await tree(headSha))!];
  const baseSide = await diffTrees(objects.trees, fromTree, baseTree);
  const headSide = await diffTrees(objects.trees, fromTree, headTree);
  return { mergeBase, fromTree, baseTree, headTree, ...mergePaths(baseSide, headSide) };
}

/** The commits the head brings (reachable from it, not from the base), oldest first. */
export async function pullCommits(objects: NetworkObjects, pull: Pick<PullRow, "baseSha" | "headSha">) {
  const inBase = await ancestorsOf(objects, [pull.baseSha]);
  return (await commitsNotIn(objects, pull.headSha, inBase)).reverse();
}

/**
 * What the pull request's commits add up to, and whether it merges while open; `protection`: what its base's
 * protection makes of it (protection/protection-rules.ts `protectionState`), `blocked` or `behind` where clean.
 */
export async function pullComputed(
  objects: NetworkObjects,
  facts: PullFacts,
  protection: "behind" | "blocked" | null = null,
): Promise<PullComputed> {
  const pull = facts.issue.pull;
  const merge = await mergeOf(objects, pull.baseSha, pull.headSha);
  const { files } = await changedFiles(objects, merge.fromTree, merge.headTree!);
  const open = facts.issue.issue.state === "open";
  const clean = merge.conflicts.length === 0;
  return {
    commits: (await pullCommits(objects, pull)).length,
    additions: files.reduce((n, file) => n + file.additions, 0),
    deletions: files.reduce((n, file) => n + file.deletions, 0),
    changedFiles: files.length,
    mergeable: open ? clean : null,
    mergeableState: !open ? "unknown" : !clean ? "dirty" : pull.draft ? "draft" : (protection ?? "clean"),
  };
}
