/**
 * The scopes as GitHub's token page groups them (a parent and the scopes listed under it), each with its one-line
 * description. Grouping is presentation: what a scope grants is api/scopes.ts's hierarchy.
 */
import type { ScopeName } from "../../api/scopes.js";

export interface ScopeGroup {
  scope: ScopeName;
  description: string;
  children: { scope: ScopeName; description: string }[];
}

const group = (scope: ScopeName, description: string, children: [ScopeName, string][] = []): ScopeGroup => ({
  scope,
  description,
  children: children.map(([child, text]) => ({ scope: child, description: text })),
});

export const SCOPE_GROUPS: readonly ScopeGroup[] = [
  group("repo", "Full control of private repositories", [
    ["repo:status", "Access commit status"],
    ["repo_deployment", "Access deployment status"],
    ["public_repo", "Access public repositories"],
    ["repo:invite", "Access repository invitations"],
    ["security_events", "Read and write security events"],
  ]),
  group("workflow", "Update GitHub Action workflows"),
  group("write:packages", "Upload packages to GitHub Package Registry", [
    ["read:packages", "Download packages from GitHub Package Registry"],
  ]),
  group("delete:packages", "Delete packages from GitHub Package Registry"),
  group("admin:org", "Full control of orgs and teams, read and write org projects", [
    ["write:org", "Read and write org and team membership, read and write org projects"],
    ["read:org", "Read org and team membership, read org projects"],
  ]),
  group("admin:public_key", "Full control of user public keys", [
    ["write:public_key", "Write user public keys"],
    ["read:public_key", "Read user public keys"],
  ]),
  group("admin:repo_hook", "Full control of repository hooks", [
    ["write:repo_hook", "Write repository hooks"],
    ["read:repo_hook", "Read repository hooks"],
  ]),
  group("admin:org_hook", "Full control of organization hooks"),
  group("gist", "Create gists"),
  group("notifications", "Access notifications"),
  group("user", "Update ALL user data", [
    ["read:user", "Read ALL user profile data"],
    ["user:email", "Access user email addresses (read-only)"],
    ["user:follow", "Follow and unfollow users"],
  ]),
  group("delete_repo", "Delete repositories"),
  group("write:discussion", "Read and write team discussions", [["read:discussion", "Read team discussions"]]),
  group("admin:business", "Full control of enterprises"),
  group("admin:gpg_key", "Full control of public user GPG keys", [
    ["write:gpg_key", "Write public user GPG keys"],
    ["read:gpg_key", "Read public user GPG keys"],
  ]),
  group("site_admin", "Site administration (GitHub Enterprise Server)"),
  group("admin:pre_receive_hook", "Full control of pre-receive hooks (GitHub Enterprise Server)"),
];
