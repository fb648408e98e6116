/** Fine-grained tokens -> the wire object. The only place that shapes a fine-grained token response. */
import { PERMISSIONS, type AccessLevel, type PermissionName } from "../../api/permissions.js";
import type { FineGrainedToken } from "../../api/schemas.js";
import type { FineGrainedTokenView } from "../services/fine-grained-tokens.js";
import { hasExpired } from "../services/token-expiry.js";
import { isoSeconds } from "./time.js";
import { toWireSimpleUser } from "./user.js";

/**
 * @param now the request's time, against which `token_expired` is told.
 * @param token the full token, only for the response to its creation; every other response shows "".
 */
export function toWireFineGrainedToken({ row, user, owner, repositories }: FineGrainedTokenView, baseUrl: string, now: Date,
  token = ""): FineGrainedToken {
  const permissions: FineGrainedToken["permissions"] = { repository: {}, organization: {} };
  for (const [name, level] of Object.entries(row.fineGrained.permissions) as [PermissionName, AccessLevel][]) {
    permissions[PERMISSIONS[name].group][name] = level;
  }
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
      id: repo.wireId, name: repo.fullName.slice(repo.fullName.indexOf("/") + 1), full_name: repo.fullName, private: repo.private,
    })),
    permissions,
    created_at: isoSeconds(row.createdAt),
    token_expired: hasExpired(row.expiresAt, now),
    token_expires_at: row.expiresAt && isoSeconds(row.expiresAt),
    token_last_used_at: null,
  };
}
