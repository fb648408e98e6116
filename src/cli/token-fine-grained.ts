/**
 * `feedgate token add <login> --fine-grained`: the flags of a fine-grained token, turned into the request the API
 * takes (services/fine-grained-tokens.ts checks it). Permissions are `name:level`, by GitHub's key
 * (`repository_hooks:write`) or by the title GitHub's token page shows (`webhooks:write`; an organization's
 * `organization_webhooks:read`).
 */
import { PERMISSIONS, type PermissionGroup, type PermissionName } from "../api/permissions.js";
import { InvalidInputError } from "../server/failures.js";
import type { FineGrainedTokenRequest } from "../server/services/fine-grained-tokens.js";

/** Every name a permission answers to on the command line: its key, and its title within its group. */
const NAMES = new Map<string, PermissionName>(
  Object.entries(PERMISSIONS).flatMap(([name, spec]) => {
    const title = spec.title.toLowerCase().replace(/\s+/g, "_");
    return [
      [name, name as PermissionName],
      [spec.group === "repository" ? title : `${spec.group}_${title}`, name as PermissionName],
    ];
  }),
);

export interface FineGrainedFlags {
  owner?: string;
  repo?: string[];
  allRepos?: boolean;
  permission?: string[];
  note?: string;
  description?: string;
  token?: string;
}

/** `webhooks:write` -> the repository group's `repository_hooks: write`; the level is the service's to check. */
function permissionsOf(flags: readonly string[]): Record<PermissionGroup, Record<string, string>> {
  const permissions: Record<PermissionGroup, Record<string, string>> = { repository: {}, organization: {}, other: {} };
  for (const flag of flags) {
    const [given = "", level = ""] = flag.split(":", 2);
    const name = NAMES.get(given.trim().toLowerCase());
    if (!name) {
      throw new InvalidInputError(
        `--permission ${flag}: unknown permission; use one of ${[...NAMES.keys()].join(", ")}`,
      );
    }
    if (!level) throw new InvalidInputError(`--permission ${flag}: say the level, e.g. ${given}:read`);
    permissions[PERMISSIONS[name].group][name] = level.trim();
  }
  return permissions;
}

export function fineGrainedRequest(flags: FineGrainedFlags, expiresAt: string | null): FineGrainedTokenRequest {
  const repos = flags.repo ?? [];
  if (flags.allRepos && repos.length > 0) throw new InvalidInputError("--all-repos and --repo cannot be used together");
  return {
    name: flags.note ?? "fine-grained token",
    description: flags.description ?? null,
    resourceOwner: flags.owner,
    repositorySelection: flags.allRepos ? "all" : repos.length > 0 ? "subset" : "none",
    repositories: repos,
    permissions: permissionsOf(flags.permission ?? []),
    expiresAt,
    token: flags.token,
  };
}
