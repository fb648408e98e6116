/**
 * What a branch's protection asks of a push to it and of a pull request's merge into it, as GitHub words its refusals
 * (https://docs.github.com/repositories/configuring-branches-and-merges-in-your-repository/managing-protected-branches/about-protected-branches):
 * no deletion and no force-push unless allowed, for everyone; and, unless the caller administers the repository and
 * `enforce_admins` is off, only the allowed pushers, every required check passed on the commit (a status of its
 * context in `success`, or a check run of its name completed `success`, `neutral` or `skipped`), and changes through
 * a pull request with enough approvals from reviewers with write access. Read through the store or an action's
 * transaction, whose parts are the same contracts.
 */
import { atLeast } from "../../../api/collaborator-schemas.js";
import type {
  CheckStore,
  DirectoryStore,
  GitStore,
  ProtectionRules,
  ProtectionStore,
  PullRow,
  PullStore,
  RepoRow,
  RequiredCheck,
  StatusStore,
  UserRow,
} from "../../store/store.js";
import { ancestorsOf } from "../git/history.js";
import { NetworkObjects } from "../git/network-objects.js";

/** Where GitHub's protection refusals point (their `documentation_url`). */
export const PROTECTED_BRANCHES_DOCS = "https://docs.github.com/articles/about-protected-branches";

export interface RuleSources {
  protections: Pick<ProtectionStore, "find">;
  statuses: Pick<StatusStore, "latest">;
  checks: Pick<CheckStore, "runsOf" | "suite">;
  pulls: Pick<PullStore, "reviews">;
  directory: Pick<DirectoryStore, "repoAccess">;
  git: GitStore;
}

/** A ref update as the rules see it (pushes.ts `RefUpdate`). */
export interface RuleUpdate {
  after: string | null;
  forced: boolean;
}

/** The check runs' conclusions that pass a required check, as GitHub counts them. */
const PASSING = new Set(["success", "neutral", "skipped"]);
/** Enough of a commit's or a pull request's reports to judge it. */
const EVERY = { limit: 1000, offset: 0 };

const notAllowed =
  "You're not authorized to push to this branch. Visit https://docs.github.com/articles/about-protected-branches for more information.";

/** GitHub's words for the required checks a commit has not passed, of `total` required. */
export function checksExpected(expected: readonly string[], total: number): string {
  return expected.length === 1
    ? `Required status check "${expected[0]}" is expected.`
    : `${expected.length} of ${total} required status checks are expected.`;
}

/** GitHub's words for too few approvals. */
export const approvalsRequired = (count: number) =>
  `At least ${count} approving review${count === 1 ? " is" : "s are"} required by reviewers with write access.`;

/** The branch's rules; null when it is not protected. */
export async function rulesOf(sources: RuleSources, repo: RepoRow, branch: string): Promise<ProtectionRules | null> {
  return (await sources.protections.find(repo.id, branch))?.rules ?? null;
}

/** Whether the rules other than deletion and force-push leave the caller alone: an administrator, not enforced. */
async function bypasses(sources: RuleSources, repo: RepoRow, actor: UserRow, rules: ProtectionRules) {
  if (rules.enforceAdmins) return false;
  if (actor.siteAdmin) return true;
  const access = await sources.directory.repoAccess(actor.id, repo.id);
  return access !== null && atLeast(access.permission, "admin");
}

/** The required checks the commit has not passed, in the order they are required. */
export async function missingChecks(
  sources: RuleSources,
  repo: RepoRow,
  sha: string,
  checks: readonly RequiredCheck[],
): Promise<string[]> {
  const statuses = await sources.statuses.latest(repo.id, sha);
  const runs = (await sources.checks.runsOf({ repoId: repo.id, sha }, { latest: true }, EVERY)).rows;
  const apps = new Map<number, number | null>();
  const appOf = async (suiteId: number) => {
    if (!apps.has(suiteId)) apps.set(suiteId, (await sources.checks.suite(repo.id, suiteId))?.appId ?? null);
    return apps.get(suiteId)!;
  };
  const missing: string[] = [];
  for (const check of checks) {
    const anySource = check.appId === null || check.appId === -1;
    let passed = anySource && statuses.some((s) => s.context === check.context && s.state === "success");
    // Newest first: the newest run of the name (of the app asked for) is the one that counts.
    for (const run of runs) {
      if (passed || run.name !== check.context) continue;
      if (!anySource && (await appOf(run.suiteId)) !== check.appId) continue;
      passed = run.status === "completed" && PASSING.has(run.conclusion ?? "");
      break;
    }
    if (!passed) missing.push(check.context);
  }
  return missing;
}

/**
 * How many reviewers with write access approve the pull request: each reviewer's latest review that approves or asks
 * for changes counts, an approval of an older head not when stale reviews are dismissed.
 */
async function approvalsOf(sources: RuleSources, repo: RepoRow, pull: PullRow, dismissStale: boolean) {
  const latest = new Map<number, { state: string; commitId: string }>();
  for (const review of (await sources.pulls.reviews(pull.issueId, EVERY)).rows)
    if (review.state === "APPROVED" || review.state === "CHANGES_REQUESTED" || review.state === "DISMISSED")
      latest.set(review.userId, review);
  let approvals = 0;
  for (const [userId, review] of latest) {
    if (review.state !== "APPROVED" || (dismissStale && review.commitId !== pull.headSha)) continue;
    const access = await sources.directory.repoAccess(userId, repo.id);
    if (access !== null && atLeast(access.permission, "push")) approvals++;
  }
  return approvals;
}

/** Whether the pull request's head lacks its base branch's head: not up to date, as `strict` requires. */
async function behindBase(sources: RuleSources, repo: RepoRow, pull: PullRow): Promise<boolean> {
  const base = await sources.git.ref(repo.id, `refs/heads/${pull.baseRef}`);
  if (!base) return false;
  return !(await ancestorsOf(new NetworkObjects(sources.git, repo.networkId), [pull.headSha])).has(base.sha);
}

/** What the pull request lacks to merge by the rules, whoever merges it: GitHub's reasons, and whether it is behind. */
async function pullLacks(sources: RuleSources, repo: RepoRow, pull: PullRow, rules: ProtectionRules) {
  const reasons: string[] = [];
  const reviews = rules.requiredPullRequestReviews;
  if (reviews && reviews.requiredApprovingReviewCount > 0) {
    const approvals = await approvalsOf(sources, repo, pull, reviews.dismissStaleReviews);
    if (approvals < reviews.requiredApprovingReviewCount)
      reasons.push(approvalsRequired(reviews.requiredApprovingReviewCount));
  }
  const checks = rules.requiredStatusChecks;
  const behind = checks?.strict === true && (await behindBase(sources, repo, pull));
  if (checks && checks.checks.length > 0) {
    // Out of date, every required check is still expected on the head the merge would make (GitHub's 405).
    const missing = behind
      ? checks.checks.map((check) => check.context)
      : await missingChecks(sources, repo, pull.headSha, checks.checks);
    if (missing.length > 0) reasons.push(checksExpected(missing, checks.checks.length));
  }
  return { reasons, behind };
}

/** What stands between the pull request and its merge by `actor` (GitHub's 405 reasons); none for an open road. */
export async function mergeRefusals(
  sources: RuleSources,
  repo: RepoRow,
  pull: PullRow,
  actor: UserRow,
): Promise<string[]> {
  const rules = await rulesOf(sources, repo, pull.baseRef);
  if (!rules || (await bypasses(sources, repo, actor, rules))) return [];
  if (rules.restrictions && !rules.restrictions.userIds.includes(actor.id)) return [notAllowed];
  return (await pullLacks(sources, repo, pull, rules)).reasons;
}

/**
 * The pull request's `mergeable_state` as its base's protection makes it: `behind` (out of date where the checks are
 * strict), `blocked` (approvals or checks lacking), or null where the rules let it be.
 */
export async function protectionState(
  sources: RuleSources,
  repo: RepoRow,
  pull: PullRow,
): Promise<"behind" | "blocked" | null> {
  const rules = await rulesOf(sources, repo, pull.baseRef);
  if (!rules) return null;
  const { reasons, behind } = await pullLacks(sources, repo, pull, rules);
  return behind ? "behind" : reasons.length > 0 ? "blocked" : null;
}

/** What refuses `actor`'s update of the protected branch (GitHub's reasons, in its order); none when it may. */
export async function pushRefusals(
  sources: RuleSources,
  repo: RepoRow,
  actor: UserRow,
  update: RuleUpdate,
  rules: ProtectionRules,
): Promise<string[]> {
  if (update.after === null) return rules.allowDeletions ? [] : ["Cannot delete a protected branch"];
  if (update.forced && !rules.allowForcePushes) return ["Cannot force-push to a protected branch"];
  if (await bypasses(sources, repo, actor, rules)) return [];
  if (rules.restrictions && !rules.restrictions.userIds.includes(actor.id)) return [notAllowed];
  const reasons: string[] = [];
  const checks = rules.requiredStatusChecks;
  if (checks && checks.checks.length > 0) {
    const missing = await missingChecks(sources, repo, update.after, checks.checks);
    if (missing.length > 0) reasons.push(checksExpected(missing, checks.checks.length));
  }
  if (rules.requiredPullRequestReviews) reasons.push("Changes must be made through a pull request.");
  return reasons;
}
