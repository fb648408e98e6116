/**
 * What commit statuses and checks share: the repository a caller reads reports of, the commit a ref names there, who
 * may report on it, and the commit and branches their webhooks carry.
 */
import type { AcceptedPermissions } from "../../../api/permissions.js";
import { toWireRepositoryCommit } from "../../convert/git.js";
import { ApiError, notFound } from "../../errors.js";
import { type CommitFields, isSha } from "../../git/objects.js";
import type { RepoRow, UserRow } from "../../store/store.js";
import type { Principal } from "../authenticator.js";
import type { FeedParams } from "../feeds.js";
import { grantOf } from "../fine-grained-access.js";
import { mustHavePushAccess, writableRepository, type ActionAccess } from "../actions/repository-access.js";
import type { CommitService } from "../git/commits.js";
import type { NetworkObjects } from "../git/network-objects.js";
import type { RepositoryCode } from "../git/repository-code.js";
import type { ActionParts } from "../actions/acting.js";

/** A repository path with the ref a read names (`main`, `v1.0`, a SHA-1). */
export type RefPath = FeedParams & { ref: string };

/** The most branches a `status` webhook lists (GitHub: "The array includes a maximum of 10 branches"). */
const MAX_BRANCHES = 10;
/** How far back a branch is walked to find whether it holds the commit. */
const MAX_BRANCH_WALK = 1000;

/** GitHub's 422 for a ref that names no commit, as its commits API answers it. */
export const noCommitFor = (sha: string) => new ApiError(422, `No commit found for SHA: ${sha}`);

export class CommitReports {
  constructor(
    private readonly parts: ActionParts,
    readonly code: RepositoryCode,
    private readonly commits: CommitService,
  ) {}

  /** A repository whose reports the caller reads, with the permission the operation needs of apps and tokens. */
  async readable(params: FeedParams, principal: Principal | null, needs: AcceptedPermissions): Promise<RepoRow> {
    return (await this.parts.feeds.repository(params, principal, needs)).repo;
  }

  /**
   * A repository the caller may report on: push access, as GitHub asks of statuses' reporters; an installation token
   * reports with the app's permission alone (the row's, checked on the repository), as GitHub Apps do.
   */
  async reportable(params: FeedParams, access: ActionAccess): Promise<{ repo: RepoRow; user: UserRow }> {
    const w = await writableRepository(this.parts.store, this.parts.feeds, params, access);
    const app = grantOf(w.principal)?.installationId !== undefined;
    if (!w.pushes && !app) throw mustHavePushAccess();
    return { repo: w.repo, user: w.principal.user };
  }

  /** The commit a branch, tag or SHA-1 names; 404 for a SHA-1 that is no commit, GitHub's 422 for anything else. */
  async commitOf(repo: RepoRow, ref: string): Promise<{ sha: string; fields: CommitFields }> {
    const commit = await this.code.commitOf(repo, this.code.objects(repo), ref);
    if (commit) return commit;
    throw isSha(ref) ? notFound() : noCommitFor(ref);
  }

  /** The commit a write names by its SHA-1: GitHub's 422 for one the repository does not have. */
  async namedCommit(repo: RepoRow, sha: string): Promise<{ sha: string; fields: CommitFields }> {
    const fields = isSha(sha) ? await this.code.objects(repo).commit(sha) : null;
    if (!fields) throw noCommitFor(sha);
    return { sha, fields };
  }

  /** The commit as webhooks carry it: GitHub's commit object, its accounts found as the commits API finds them. */
  async webhookCommit(repo: RepoRow, sha: string, fields: CommitFields, baseUrl: string) {
    const wire = toWireRepositoryCommit(await this.commits.facts(sha, fields), repo.fullName, baseUrl);
    const { url, html_url, comments_url, sha: _, node_id, commit, ...accounts } = wire;
    // The webhook's order (../shared/data/webhooks/examples/status.json): the commit before its URLs.
    return { sha, node_id, commit, url, html_url, comments_url, ...accounts };
  }

  /** The branch whose head the commit is (the first by name), as a check suite's `head_branch`; null for none. */
  async branchAt(repo: RepoRow, sha: string): Promise<string | null> {
    const head = (await this.code.storeRefs(repo, "refs/heads/")).find((ref) => ref.sha === sha);
    return head ? head.name.slice("refs/heads/".length) : null;
  }

  /** The branches holding the commit, at most ten, as the `status` webhook lists them. */
  async branchesWith(repo: RepoRow, sha: string, baseUrl: string) {
    const objects = this.code.objects(repo);
    const found = [];
    for (const branch of await this.code.branches(repo, await this.code.storeRefs(repo, "refs/heads/"))) {
      if (found.length === MAX_BRANCHES) break;
      if (!(await holds(objects, branch.sha, sha))) continue;
      found.push({
        name: branch.name,
        commit: { sha: branch.sha, url: `${baseUrl}/repos/${repo.fullName}/commits/${branch.sha}` },
        protected: branch.rules !== null,
      });
    }
    return found;
  }
}

/** Whether `head`'s history (walked a bounded way back) holds `sha`. */
async function holds(objects: NetworkObjects, head: string, sha: string): Promise<boolean> {
  const seen = new Set<string>();
  const queue = [head];
  while (queue.length > 0 && seen.size < MAX_BRANCH_WALK) {
    const next = queue.shift()!;
    if (next === sha) return true;
    if (seen.has(next)) continue;
    seen.add(next);
    queue.push(...((await objects.commit(next))?.parents ?? []));
  }
  return false;
}
