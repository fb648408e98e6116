/**
 * A comparison as GitHub's compare API shows it (`commit-comparison.schema.json`). Its URLs repeat the `BASE...HEAD`
 * the caller wrote; the permalink names both commits by SHA-1 with their owners (`owner:sha...owner:sha`), which stays
 * true after the branches move. Commits and files take their URLs from the repository compared in.
 */
import type { CommitComparison } from "../../api/git-schemas.js";
import type { CommitFields } from "../git/objects.js";
import type { RepoRow } from "../store/store.js";
import { type ChangedFileFacts, type CommitFacts, toWireCommitFile, toWireRepositoryCommit } from "./git.js";
import { webOrigin } from "./urls.js";

export type CompareStatus = "diverged" | "ahead" | "behind" | "identical";

/** One side of a comparison: the commit, and the login whose repository it was found in (the permalink's). */
export interface CompareSide {
  owner: string;
  sha: string;
  fields: CommitFields;
}

export interface Comparison {
  repo: RepoRow;
  /** The path's `BASE...HEAD` as the caller wrote it: the comparison's URLs repeat it. */
  basehead: string;
  base: CompareSide;
  head: CompareSide;
  baseCommit: CommitFacts;
  mergeBaseCommit: CommitFacts;
  status: CompareStatus;
  aheadBy: number;
  behindBy: number;
  /** This page's commits, oldest first. */
  commits: CommitFacts[];
  /** Null past the first page. */
  files: ChangedFileFacts[] | null;
}

export function toWireComparison(comparison: Comparison, baseUrl: string): CommitComparison {
  const { repo, basehead, base, head } = comparison;
  const web = `${webOrigin(baseUrl)}/${repo.fullName}/compare`;
  const commit = (view: Comparison["baseCommit"]) => toWireRepositoryCommit(view, repo.fullName, baseUrl);
  return {
    url: `${baseUrl}/repos/${repo.fullName}/compare/${basehead}`,
    html_url: `${web}/${basehead}`,
    permalink_url: `${web}/${base.owner}:${base.sha}...${head.owner}:${head.sha}`,
    diff_url: `${web}/${basehead}.diff`,
    patch_url: `${web}/${basehead}.patch`,
    base_commit: commit(comparison.baseCommit),
    merge_base_commit: commit(comparison.mergeBaseCommit),
    status: comparison.status,
    ahead_by: comparison.aheadBy,
    behind_by: comparison.behindBy,
    total_commits: comparison.aheadBy,
    commits: comparison.commits.map(commit),
    // A file's URLs name the head commit, as a pull request's files do.
    ...(comparison.files
      ? { files: comparison.files.map((file) => toWireCommitFile(file, head.sha, repo.fullName, baseUrl)) }
      : {}),
  };
}
