/**
 * Branch protection on the wire (https://docs.github.com/rest/branches/branch-protection), keys in the order of
 * GitHub's example answer to `PUT .../protection` (`../shared/data/openapi/branches-commits.paths.json`): one shape
 * for the protection's GET and PUT, which validates against both of GitHub's schemas (`branch-protection`,
 * `protected-branch`), and its parts as their own routes answer them. A part left off (`null` in the PUT) is absent,
 * as GitHub leaves it out. No Node-only imports.
 */
import { Type, type Static } from "@sinclair/typebox";
import { SimpleUser } from "./schemas.js";

const Enabled = Type.Object({ enabled: Type.Boolean() });
const UrlEnabled = Type.Object({ url: Type.String(), enabled: Type.Boolean() });

export const StatusCheckPolicy = Type.Object({
  url: Type.String(),
  strict: Type.Boolean(),
  contexts: Type.Array(Type.String()),
  contexts_url: Type.String(),
  checks: Type.Array(Type.Object({ context: Type.String(), app_id: Type.Union([Type.Integer(), Type.Null()]) })),
});
export type StatusCheckPolicy = Static<typeof StatusCheckPolicy>;

export const ProtectedBranchPullRequestReview = Type.Object({
  url: Type.String(),
  dismiss_stale_reviews: Type.Boolean(),
  require_code_owner_reviews: Type.Boolean(),
  required_approving_review_count: Type.Integer(),
  require_last_push_approval: Type.Boolean(),
});
export type ProtectedBranchPullRequestReview = Static<typeof ProtectedBranchPullRequestReview>;

/** Who may push: users only (feedgate has no teams; apps are not kept), as GitHub's lists. */
export const BranchRestrictionPolicy = Type.Object({
  url: Type.String(),
  users_url: Type.String(),
  teams_url: Type.String(),
  apps_url: Type.String(),
  users: Type.Array(SimpleUser),
  teams: Type.Array(Type.Never()),
  apps: Type.Array(Type.Never()),
});

export const BranchProtection = Type.Object({
  url: Type.String(),
  required_status_checks: Type.Optional(StatusCheckPolicy),
  restrictions: Type.Optional(BranchRestrictionPolicy),
  required_pull_request_reviews: Type.Optional(ProtectedBranchPullRequestReview),
  required_signatures: UrlEnabled,
  enforce_admins: UrlEnabled,
  required_linear_history: Enabled,
  allow_force_pushes: Enabled,
  allow_deletions: Enabled,
  block_creations: Enabled,
  required_conversation_resolution: Enabled,
  lock_branch: Enabled,
  allow_fork_syncing: Enabled,
});
export type BranchProtection = Static<typeof BranchProtection>;
