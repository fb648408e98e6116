/**
 * `PUT .../branches/{branch}/protection`'s body -> the rules stored (store/protection-store.ts), with GitHub's 422s:
 * its JSON schema's words for a part left without what it needs (`Invalid request.`), Validation Failed naming the
 * field otherwise, and "Only organization repositories can have users and team restrictions" for a user's
 * repository's pushers. The PUT replaces the rules whole: what it leaves out is off.
 */
import type { Endpoints } from "../../../api/endpoints.js";
import type { RequestOf } from "../../../api/schemas.js";
import { ApiError } from "../../errors.js";
import { InvalidInputError } from "../../failures.js";
import type { ProtectionRules, RequiredCheck, UserRow, UserStore } from "../../store/store.js";

type PutInput = RequestOf<Endpoints["branchProtection"]["update"], "body">;

const DOCS = "https://docs.github.com/rest/branches/branch-protection#update-branch-protection";

/** The schema's words for keys a part lacks, as the error handler writes them for the body's own keys. */
const unsupplied = (names: string[]) =>
  new ApiError(
    422,
    `Invalid request.\n\n${names.map((name) => `"${name}"`).join(", ")} ${names.length > 1 ? "weren't" : "wasn't"} supplied.`,
    { documentationUrl: DOCS },
  );

const invalid = (field: string, problem: string) => new InvalidInputError(problem, { field, code: "invalid" });

/**
 * The required checks: `checks` (each a `context` and perhaps an `app_id`) or else the older `contexts`, each once.
 * GitHub's schema requires `strict` and `contexts`; `checks` stands for `contexts`, as GitHub's newer clients send it.
 */
function statusChecksOf(
  input: NonNullable<PutInput["required_status_checks"]>,
): ProtectionRules["requiredStatusChecks"] {
  const missing = [
    ...(input.strict === undefined ? ["strict"] : []),
    ...(input.contexts === undefined && input.checks === undefined ? ["contexts"] : []),
  ];
  if (missing.length > 0) throw unsupplied(missing);
  const checks: RequiredCheck[] = [];
  const add = (check: RequiredCheck) => {
    if (!checks.some((c) => c.context === check.context)) checks.push(check);
  };
  if (input.checks !== undefined) {
    for (const [i, item] of input.checks.entries()) {
      const field = `required_status_checks.checks[${i}]`;
      if (typeof item.context !== "string" || item.context === "")
        throw invalid(`${field}.context`, "context is required");
      const appId = item.app_id ?? null;
      if (appId !== null && !Number.isInteger(appId)) throw invalid(`${field}.app_id`, "app_id must be an integer");
      add({ context: item.context, appId: appId as number | null });
    }
  } else for (const context of input.contexts ?? []) add({ context, appId: null });
  return { strict: input.strict!, checks };
}

function reviewsOf(
  input: NonNullable<PutInput["required_pull_request_reviews"]>,
): ProtectionRules["requiredPullRequestReviews"] {
  const count = input.required_approving_review_count ?? 1;
  if (count < 0 || count > 6)
    throw invalid(
      "required_pull_request_reviews.required_approving_review_count",
      `required_approving_review_count must be between 0 and 6, got ${count}`,
    );
  return {
    dismissStaleReviews: input.dismiss_stale_reviews ?? false,
    requireCodeOwnerReviews: input.require_code_owner_reviews ?? false,
    requiredApprovingReviewCount: count,
    requireLastPushApproval: input.require_last_push_approval ?? false,
  };
}

/**
 * Who alone may push: an organization's repository's only (GitHub's 422 for a user's), its users by login; feedgate
 * has no teams and keeps no apps' restrictions, so naming one is refused rather than ignored.
 */
async function restrictionsOf(
  input: NonNullable<PutInput["restrictions"]>,
  owner: UserRow,
  users: Pick<UserStore, "findByLogin">,
): Promise<ProtectionRules["restrictions"]> {
  if (owner.type !== "Organization")
    throw new ApiError(422, "Only organization repositories can have users and team restrictions", {
      documentationUrl: DOCS,
    });
  if (input.users === undefined || input.teams === undefined)
    throw unsupplied(["users", "teams"].filter((k) => !(k in input)));
  if (input.teams.length > 0) throw invalid("restrictions.teams", `${input.teams[0]} is not a team feedgate has`);
  if ((input.apps ?? []).length > 0)
    throw invalid("restrictions.apps", "feedgate keeps no apps among a branch's pushers");
  const userIds: number[] = [];
  for (const login of input.users) {
    const user = await users.findByLogin(login);
    if (user?.type !== "User") throw invalid("restrictions.users", `${login} is not a user`);
    if (!userIds.includes(user.id)) userIds.push(user.id);
  }
  return { userIds };
}

/** The rules of a repository of `owner` that the body asks for. */
export async function rulesFrom(
  input: PutInput,
  owner: UserRow,
  users: Pick<UserStore, "findByLogin">,
): Promise<ProtectionRules> {
  return {
    requiredStatusChecks: input.required_status_checks ? statusChecksOf(input.required_status_checks) : null,
    enforceAdmins: input.enforce_admins ?? false,
    requiredPullRequestReviews: input.required_pull_request_reviews
      ? reviewsOf(input.required_pull_request_reviews)
      : null,
    restrictions: input.restrictions ? await restrictionsOf(input.restrictions, owner, users) : null,
    requiredLinearHistory: input.required_linear_history ?? false,
    allowForcePushes: input.allow_force_pushes ?? false,
    allowDeletions: input.allow_deletions ?? false,
    blockCreations: input.block_creations ?? false,
    requiredConversationResolution: input.required_conversation_resolution ?? false,
    lockBranch: input.lock_branch ?? false,
    allowForkSyncing: input.allow_fork_syncing ?? false,
  };
}
