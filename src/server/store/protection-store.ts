/**
 * Branch protection as stored state (https://docs.github.com/rest/branches/branch-protection): a branch name's rules,
 * written whole by the protection API and read by every push to the branch and every merge into it.
 */

/** A required check: its context (a status's `context`, a check run's `name`), and the app that must provide it. */
export interface RequiredCheck {
  context: string;
  /** null (or -1, as given): any source, a status or any app's check run; otherwise that app's check runs only. */
  appId: number | null;
}

export interface ProtectionRules {
  requiredStatusChecks: {
    /** Require the branch to be up to date (the head to hold the base's head) before merging. */
    strict: boolean;
    checks: RequiredCheck[];
  } | null;
  /** The rules apply to the repository's administrators too. */
  enforceAdmins: boolean;
  requiredPullRequestReviews: {
    dismissStaleReviews: boolean;
    requireCodeOwnerReviews: boolean;
    /** 0 to 6. */
    requiredApprovingReviewCount: number;
    requireLastPushApproval: boolean;
  } | null;
  /** Who alone may push (an organization's repository): these users, by id; null for anyone with push access. */
  restrictions: { userIds: number[] } | null;
  requiredLinearHistory: boolean;
  allowForcePushes: boolean;
  allowDeletions: boolean;
  blockCreations: boolean;
  requiredConversationResolution: boolean;
  lockBranch: boolean;
  allowForkSyncing: boolean;
}

export interface BranchProtectionRow {
  repoId: number;
  /** The branch's name, without `refs/heads/`. */
  branch: string;
  rules: ProtectionRules;
  createdAt: Date;
  updatedAt: Date;
}

export interface ProtectionStore {
  find(repoId: number, branch: string): Promise<BranchProtectionRow | null>;
  /** The repository's protections, by branch name. */
  list(repoId: number): Promise<BranchProtectionRow[]>;
  /** Writes the branch's rules whole: made, or replacing what they were. */
  put(repoId: number, branch: string, rules: ProtectionRules, at: Date): Promise<BranchProtectionRow>;
  /** Whether there was a protection to delete. */
  delete(repoId: number, branch: string): Promise<boolean>;
}
