/**
 * Fine-grained personal access tokens' permissions (GitHub, 2022): the ones feedgate's resources need, by GitHub's
 * key (the names `X-Accepted-GitHub-Permissions` and GitHub Apps use), with the access levels each offers and the
 * kind of resource they apply to. Which operation needs which is GitHub's data (github/docs,
 * src/github-apps/data/fpt-2026-03-10/fine-grained-pat-permissions.json), copied into the endpoint table. Shared by server and client: no Node-only imports.
 * https://docs.github.com/rest/authentication/permissions-required-for-fine-grained-personal-access-tokens
 */

export type AccessLevel = "read" | "write";

/**
 * The three groups GitHub's token page shows: the repositories', the organization's, and the account's own ("Account
 * permissions"), which GitHub's grant objects call `other`. GitHub lets the user and received feeds be read without
 * a permission; starring, watching and following need the account's.
 */
export type PermissionGroup = "repository" | "organization" | "other";

export interface PermissionSpec {
  readonly group: PermissionGroup;
  /** GitHub's title on its token page. */
  readonly title: string;
  readonly levels: readonly AccessLevel[];
  /** Granted to every token, whatever it asks for (GitHub: "Metadata: Read-only" is mandatory). */
  readonly always?: AccessLevel;
}

export const PERMISSIONS = {
  metadata: { group: "repository", title: "Metadata", levels: ["read"], always: "read" },
  issues: { group: "repository", title: "Issues", levels: ["read", "write"] },
  administration: { group: "repository", title: "Administration", levels: ["read", "write"] },
  contents: { group: "repository", title: "Contents", levels: ["read", "write"] },
  pull_requests: { group: "repository", title: "Pull requests", levels: ["read", "write"] },
  statuses: { group: "repository", title: "Commit statuses", levels: ["read", "write"] },
  checks: { group: "repository", title: "Checks", levels: ["read", "write"] },
  repository_hooks: { group: "repository", title: "Webhooks", levels: ["read", "write"] },
  organization_hooks: { group: "organization", title: "Webhooks", levels: ["read", "write"] },
  organization_events: { group: "organization", title: "Events", levels: ["read"] },
  starring: { group: "other", title: "Starring", levels: ["read", "write"] },
  watching: { group: "other", title: "Watching", levels: ["read", "write"] },
  followers: { group: "other", title: "Followers", levels: ["read", "write"] },
} as const satisfies Record<string, PermissionSpec>;

export type PermissionName = keyof typeof PERMISSIONS;

/** A token's permissions: each it holds, at its level. */
export type GrantedPermissions = Partial<Record<PermissionName, AccessLevel>>;

/**
 * What an operation needs from a fine-grained token: any one of the sets, each set in full. Empty: nothing (GitHub's
 * `allows_permissionless_access`), as on the public feeds and the root.
 */
export type AcceptedPermissions = readonly Readonly<GrantedPermissions>[];

/** GitHub's "Only select repositories" is `subset`, "All repositories" `all`, "Public repositories" (read-only) `none`. */
export const REPOSITORY_SELECTIONS = ["none", "all", "subset"] as const;
export type RepositorySelection = (typeof REPOSITORY_SELECTIONS)[number];

export function isPermissionName(name: string): name is PermissionName {
  return Object.hasOwn(PERMISSIONS, name);
}

/** Write grants read, as GitHub's levels do. */
const RANK: Record<AccessLevel, number> = { read: 1, write: 2 };

/** True when `granted` holds every permission of one of the accepted sets (or there are none to hold). */
export function grants(granted: GrantedPermissions, accepted: AcceptedPermissions): boolean {
  if (accepted.length === 0) return true;
  return accepted.some((set) =>
    Object.entries(set).every(([name, level]) => {
      const held = granted[name as PermissionName];
      return held !== undefined && RANK[held] >= RANK[level];
    }),
  );
}

/**
 * `X-Accepted-GitHub-Permissions` as GitHub writes it: `name=level` joined by commas within a set, sets joined by
 * `; ` (https://github.blog/changelog/2023-08-10-x-accepted-github-permissions-header-for-fine-grained-permission-actors),
 * and `allows_permissionless_access=true` on an operation that needs none.
 */
export function acceptedPermissionsHeader(accepted: AcceptedPermissions): string {
  if (accepted.length === 0) return "allows_permissionless_access=true";
  return accepted
    .map((set) =>
      Object.entries(set)
        .map(([name, level]) => `${name}=${level}`)
        .join(","),
    )
    .join("; ");
}
