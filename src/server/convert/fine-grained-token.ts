/** Fine-grained tokens -> the wire object. The only place that shapes a fine-grained token response. */
import { PERMISSIONS, type AccessLevel, type PermissionGroup, type PermissionName } from "../../api/permissions.js";
import type { FineGrainedToken } from "../../api/schemas.js";
import type { AuthorizationRow, FineGrainedGrant, RepoRow, UserRow } from "../store/store.js";
import { isoSeconds } from "./time.js";
import { toWireSimpleUser } from "./user.js";

/** A fine-grained token with what its wire form names: its user, its resource owner and its selected repositories. */
export interface FineGrainedTokenView {
  row: AuthorizationRow & { fineGrained: FineGrainedGrant };
  user: UserRow;
  owner: UserRow;
  repositories: RepoRow[];
  /** Whether it had expired when read (services/token-expiry.ts's rule, by the service's clock). */
  expired: boolean;
}

/** @param token the full token, only for the response to its creation; every other response shows "". */
export function toWireFineGrainedToken(
  { row, user, owner, repositories, expired }: FineGrainedTokenView,
  baseUrl: string,
  token = "",
): FineGrainedToken {
  const groups = { repository: {}, organization: {}, other: {} } as Record<
    PermissionGroup,
    Record<string, AccessLevel>
  >;
  for (const [name, level] of Object.entries(row.fineGrained.permissions) as [PermissionName, AccessLevel][]) {
    groups[PERMISSIONS[name].group][name] = level;
  }
  // The account's own (`other`) only when it holds one: tokens made before it existed answer as they did.
  const { other, ...held } = groups;
  const permissions: FineGrainedToken["permissions"] = held;
  if (Object.keys(other).length) permissions.other = other;
  return {
    id: row.id,
    url: `${baseUrl}/user/personal-access-tokens/${row.id}`,
    token,
    token_last_eight: row.tokenLastEight,
    token_name: row.note ?? "",
    description: row.fineGrained.description,
    owner: toWireSimpleUser(user, baseUrl),
    resource_owner: toWireSimpleUser(owner, baseUrl),
    repository_selection: row.fineGrained.repositorySelection,
    repositories: repositories.map((repo) => ({
      id: repo.wireId,
      name: repo.fullName.slice(repo.fullName.indexOf("/") + 1),
      full_name: repo.fullName,
      private: repo.private,
    })),
    permissions,
    created_at: isoSeconds(row.createdAt),
    token_expired: expired,
    token_expires_at: row.expiresAt && isoSeconds(row.expiresAt),
    token_last_used_at: null,
  };
}
