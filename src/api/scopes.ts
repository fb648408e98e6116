/**
 * OAuth scope names and their hierarchy, as GitHub documented them (wire notes 1.7).
 * Shared by server and client: no Node-only imports.
 */

/** Every scope name a token may carry. */
export const SCOPE_NAMES = [
  // 2016 docs
  "user",
  "user:email",
  "user:follow",
  "public_repo",
  "repo",
  "repo_deployment",
  "repo:status",
  "delete_repo",
  "notifications",
  "gist",
  "read:repo_hook",
  "write:repo_hook",
  "admin:repo_hook",
  "admin:org_hook",
  "read:org",
  "write:org",
  "admin:org",
  "read:public_key",
  "write:public_key",
  "admin:public_key",
  "read:gpg_key",
  "write:gpg_key",
  "admin:gpg_key",
  // added by 2020
  "repo:invite",
  "read:user",
  "write:discussion",
  "read:discussion",
  "write:packages",
  "read:packages",
  "delete:packages",
  "workflow",
  "security_events",
  // GitHub Enterprise Server only; feedgate is self-hosted, so it has site administrators too
  "site_admin",
  "admin:pre_receive_hook",
  "admin:business",
] as const;

export type ScopeName = (typeof SCOPE_NAMES)[number];

/** Direct children of each parent scope: holding the parent grants every child. */
const CHILDREN: Readonly<Record<string, readonly ScopeName[]>> = {
  repo: ["repo:status", "repo_deployment", "public_repo", "repo:invite", "security_events"],
  "admin:repo_hook": ["write:repo_hook"],
  "write:repo_hook": ["read:repo_hook"],
  "admin:org": ["write:org"],
  "write:org": ["read:org"],
  "admin:public_key": ["write:public_key"],
  "write:public_key": ["read:public_key"],
  user: ["read:user", "user:email", "user:follow"],
  "write:discussion": ["read:discussion"],
  "admin:gpg_key": ["write:gpg_key"],
  "write:gpg_key": ["read:gpg_key"],
};

const KNOWN = new Set<string>(SCOPE_NAMES);

export function isScopeName(name: string): name is ScopeName {
  return KNOWN.has(name);
}

/** The names in `scopes` that are not scopes at all, in the order given, without repeats. */
export function unknownScopes(scopes: readonly string[]): string[] {
  return [...new Set(scopes.filter((s) => !KNOWN.has(s)))];
}

/** Every scope `scope` grants, itself included (transitively: admin:org grants read:org). */
export function expand(scope: string): Set<string> {
  const granted = new Set<string>([scope]);
  for (const child of CHILDREN[scope] ?? []) for (const s of expand(child)) granted.add(s);
  return granted;
}

/**
 * GitHub stores scopes normalized: duplicates and scopes implied by another one in the list are dropped,
 * and the rest keep their order (`user,gist,user:email` becomes `["user","gist"]`).
 */
export function normalize(scopes: readonly string[]): string[] {
  const unique = [...new Set(scopes)];
  return unique.filter((scope) => !unique.some((other) => other !== scope && expand(other).has(scope)));
}

/** True when a token holding `granted` may act where any one of `accepted` is accepted. */
export function satisfies(granted: readonly string[], accepted: readonly string[]): boolean {
  if (accepted.length === 0) return true;
  return granted.some((g) => accepted.some((a) => expand(g).has(a)));
}
