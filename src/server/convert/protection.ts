/**
 * A branch's stored protection -> GitHub's branch protection objects: the whole (`GET`/`PUT .../protection`), its
 * required status checks and required reviews as their own routes answer them, and the summary a branch's answers
 * carry (`protected`, `protection`). URLs are under the branch's `protection_url`.
 */
import type { BranchProtectionSummary } from "../../api/git-schemas.js";
import type {
  BranchProtection,
  ProtectedBranchPullRequestReview,
  StatusCheckPolicy,
} from "../../api/protection-schemas.js";
import type { Static } from "@sinclair/typebox";
import type { BranchProtectionRow, ProtectionRules, UserRow } from "../store/store.js";
import { toWireSimpleUser } from "./user.js";

/** A branch's `protection_url`: its name escaped as one path segment, as GitHub writes it. */
export const protectionUrl = (fullName: string, branch: string, baseUrl: string) =>
  `${baseUrl}/repos/${fullName}/branches/${encodeURIComponent(branch)}/protection`;

export function toWireStatusChecks(
  checks: NonNullable<ProtectionRules["requiredStatusChecks"]>,
  base: string,
): StatusCheckPolicy {
  const url = `${base}/required_status_checks`;
  return {
    url,
    strict: checks.strict,
    contexts: checks.checks.map((check) => check.context),
    contexts_url: `${url}/contexts`,
    checks: checks.checks.map((check) => ({ context: check.context, app_id: check.appId })),
  };
}

export function toWireReviews(
  reviews: NonNullable<ProtectionRules["requiredPullRequestReviews"]>,
  base: string,
): ProtectedBranchPullRequestReview {
  return {
    url: `${base}/required_pull_request_reviews`,
    dismiss_stale_reviews: reviews.dismissStaleReviews,
    require_code_owner_reviews: reviews.requireCodeOwnerReviews,
    required_approving_review_count: reviews.requiredApprovingReviewCount,
    require_last_push_approval: reviews.requireLastPushApproval,
  };
}

/** The protection whole, in the order of GitHub's answer to its PUT; `pushers` are its restrictions' users. */
export function toWireProtection(
  row: BranchProtectionRow,
  pushers: UserRow[],
  fullName: string,
  baseUrl: string,
): BranchProtection {
  const { rules } = row;
  const base = protectionUrl(fullName, row.branch, baseUrl);
  const restrictions = `${base}/restrictions`;
  const enabled = (value: boolean) => ({ enabled: value });
  return {
    url: base,
    ...(rules.requiredStatusChecks
      ? { required_status_checks: toWireStatusChecks(rules.requiredStatusChecks, base) }
      : {}),
    ...(rules.restrictions
      ? {
          restrictions: {
            url: restrictions,
            users_url: `${restrictions}/users`,
            teams_url: `${restrictions}/teams`,
            apps_url: `${restrictions}/apps`,
            users: pushers.map((user) => toWireSimpleUser(user, baseUrl)),
            teams: [],
            apps: [],
          },
        }
      : {}),
    ...(rules.requiredPullRequestReviews
      ? { required_pull_request_reviews: toWireReviews(rules.requiredPullRequestReviews, base) }
      : {}),
    required_signatures: { url: `${base}/required_signatures`, enabled: false },
    enforce_admins: { url: `${base}/enforce_admins`, enabled: rules.enforceAdmins },
    required_linear_history: enabled(rules.requiredLinearHistory),
    allow_force_pushes: enabled(rules.allowForcePushes),
    allow_deletions: enabled(rules.allowDeletions),
    block_creations: enabled(rules.blockCreations),
    required_conversation_resolution: enabled(rules.requiredConversationResolution),
    lock_branch: enabled(rules.lockBranch),
    allow_fork_syncing: enabled(rules.allowForkSyncing),
  };
}

/**
 * What a branch's answer says of its protection (none: GitHub's `enabled: false` and `off`). The required checks
 * apply to `everyone` when administrators are held to them, to `non_admins` otherwise, as GitHub's enforcement levels.
 */
export function toWireProtectionSummary(rules: ProtectionRules | null): Static<typeof BranchProtectionSummary> {
  const checks = rules?.requiredStatusChecks ?? null;
  return {
    enabled: rules !== null,
    required_status_checks: {
      enforcement_level: checks === null ? "off" : rules!.enforceAdmins ? "everyone" : "non_admins",
      contexts: checks?.checks.map((check) => check.context) ?? [],
      checks: checks?.checks.map((check) => ({ context: check.context, app_id: check.appId })) ?? [],
    },
  };
}
