/**
 * What bots ask of a commit (https://docs.github.com/rest/commits/commits): the branches whose head it is, and the
 * pull requests it belongs to: those whose head it is, and the one it merged (its merge commit). `commit_sha` may
 * name a branch or tag too, as GitHub's documentation allows for the pull requests of a branch.
 */
import { ApiError } from "../../errors.js";
import type { PullFacts } from "../../convert/pull.js";
import type { Page, PageRequest, RepoRow, Store } from "../../store/store.js";
import type { Principal } from "../authenticator.js";
import type { FeedParams } from "../feeds.js";
import { pullFacts } from "../pulls/pull-facts.js";
import type { RepositoryCode } from "./repository-code.js";

/** The row's `:ref`: GitHub's `commit_sha` (the router takes one name at `/commits/:ref`). */
export type CommitPath = FeedParams & { ref: string };

export class CommitLookupService {
  constructor(
    private readonly store: Store,
    private readonly code: RepositoryCode,
  ) {}

  /** The repository (409 when it has no commit, as GitHub) and the commit the path names (GitHub's 422 for none). */
  private async commit(path: CommitPath, principal: Principal | null): Promise<{ repo: RepoRow; sha: string }> {
    const repo = await this.code.notEmpty(await this.code.readable(path, principal));
    const commit = await this.code.commitOf(repo, this.code.objects(repo), path.ref);
    if (!commit) throw new ApiError(422, `No commit found for SHA: ${path.ref}`);
    return { repo, sha: commit.sha };
  }

  async branchesWhereHead(path: CommitPath, principal: Principal | null) {
    const { repo, sha } = await this.commit(path, principal);
    const refs = await this.code.storeRefs(repo, "refs/heads/");
    const rows = await this.code.branches(
      repo,
      refs.filter((ref) => ref.sha === sha),
    );
    return { repo, rows };
  }

  async pulls(
    path: CommitPath,
    principal: Principal | null,
    window: PageRequest,
  ): Promise<{ repo: RepoRow } & Page<PullFacts>> {
    const { repo, sha } = await this.commit(path, principal);
    const issues = await this.store.pulls.withCommit(repo.id, sha);
    const rows = await pullFacts(this.store, repo, issues.slice(window.offset, window.offset + window.limit));
    return { repo, rows, total: issues.length };
  }
}
