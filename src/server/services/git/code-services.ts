/**
 * The code services (git data, refs, contents, branches and commits, comparisons, branch merges, commit look-ups,
 * archives, and git's upload-pack for clones),
 * made from the action log's parts over one RepositoryCode.
 */
import type { ActionParts } from "../actions/acting.js";
import { ArchiveService } from "./archives.js";
import { BranchMergeService } from "./branch-merges.js";
import { CommitLookupService } from "./commit-lookups.js";
import { CommitService } from "./commits.js";
import { CompareService } from "./comparisons.js";
import { ContentService } from "./contents.js";
import { GitDataService } from "./git-data.js";
import { GitRefService } from "./git-refs.js";
import { RepositoryCode } from "./repository-code.js";
import { UploadPackService } from "./upload-pack.js";

export interface CodeServices {
  objects: GitDataService;
  refs: GitRefService;
  contents: ContentService;
  commits: CommitService;
  compare: CompareService;
  merges: BranchMergeService;
  lookups: CommitLookupService;
  archives: ArchiveService;
  uploadPack: UploadPackService;
}

export function codeServices(parts: ActionParts): CodeServices {
  const code = new RepositoryCode(parts.store, parts.feeds, parts.clock);
  const contents = new ContentService(parts, code);
  return {
    objects: new GitDataService(code),
    refs: new GitRefService(parts, code),
    contents,
    commits: new CommitService(parts.store, code),
    compare: new CompareService(parts.store, code),
    merges: new BranchMergeService(parts, code),
    lookups: new CommitLookupService(parts.store, code),
    archives: new ArchiveService(code, contents),
    uploadPack: new UploadPackService(code),
  };
}
