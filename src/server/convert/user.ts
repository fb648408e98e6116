/**
 * Stored accounts -> GitHub's user and organization objects (simple-user, public-user, private-user,
 * organization-full). What feedgate does not store (names, bio, gists, node ids; e-mail and blog unless a world gave
 * them) is GitHub's neutral value: null where the schema allows it, else 0, false or "". Counts and times are the
 * stored ones.
 */
import type {
  ACCOUNT_URL_KEYS,
  ORGANIZATION_URL_KEYS,
  Organization,
  PrivateUser,
  PublicUser,
  SimpleUser,
} from "../../api/schemas.js";
import type { AccountCounts, UserRow } from "../store/store.js";
import { avatarOf, webOrigin } from "./urls.js";
import { accountNodeId } from "./node-ids.js";
import { isoSeconds } from "./time.js";
import { type ApiVersion, DEFAULT_API_VERSION, keepsRemovedFields } from "../../api/versions.js";

/**
 * GitHub's URL templates of an account, by key. A login is escaped in them as GitHub escapes an app's bot's
 * (`/users/ci-checks%5Bbot%5D`): a bracket is no URI character.
 */
function accountUrls(login: string, baseUrl: string): Record<(typeof ACCOUNT_URL_KEYS)[number], string> {
  const escaped = encodeURIComponent(login);
  const api = `${baseUrl}/users/${escaped}`;
  return {
    url: api,
    html_url: `${webOrigin(baseUrl)}/${escaped}`,
    followers_url: `${api}/followers`,
    following_url: `${api}/following{/other_user}`,
    gists_url: `${api}/gists{/gist_id}`,
    starred_url: `${api}/starred{/owner}{/repo}`,
    subscriptions_url: `${api}/subscriptions`,
    organizations_url: `${api}/orgs`,
    repos_url: `${api}/repos`,
    events_url: `${api}/events{/privacy}`,
    received_events_url: `${api}/received_events`,
  };
}

/** An account inside another object (a repository's owner or organization). */
export function toWireSimpleUser(account: UserRow, baseUrl: string): SimpleUser {
  return {
    login: account.login,
    id: account.wireId,
    node_id: accountNodeId(account),
    avatar_url: avatarOf(account.login),
    gravatar_id: "",
    ...accountUrls(account.login, baseUrl),
    type: account.type,
    site_admin: account.siteAdmin,
  };
}

/** `GET /users/:user`, for organizations too (`type: "Organization"`), as GitHub answers. */
export function toWirePublicUser(account: UserRow, counts: AccountCounts, baseUrl: string): PublicUser {
  return {
    ...toWireSimpleUser(account, baseUrl),
    name: null,
    company: null,
    blog: account.blog,
    location: null,
    email: account.email,
    hireable: null,
    bio: null,
    twitter_username: null,
    public_repos: counts.publicRepos,
    public_gists: 0,
    followers: counts.followers,
    following: counts.following,
    created_at: isoSeconds(account.createdAt),
    updated_at: isoSeconds(account.updatedAt),
    user_view_type: "public",
  };
}

/** GitHub's free plan, as it shows it: feedgate has no billing, and every account and organization is on it. */
const FREE_PLAN = { name: "free", space: 976562499, private_repos: 10000 } as const;

/** `GET /user`: the caller's own account, with what only its owner sees. */
export function toWirePrivateUser(account: UserRow, counts: AccountCounts, baseUrl: string): PrivateUser {
  return {
    ...toWirePublicUser(account, counts, baseUrl),
    private_gists: 0,
    // An account owns all its private repositories here: feedgate has no private repositories shared by transfer.
    total_private_repos: counts.privateRepos,
    owned_private_repos: counts.privateRepos,
    disk_usage: 0,
    collaborators: 0,
    two_factor_authentication: account.otpSecret !== null,
    user_view_type: "private",
    notification_email: null,
    plan: { ...FREE_PLAN, collaborators: 0 },
  };
}

/**
 * An organization's settings as its owners with `admin:org` see them: its billing e-mail when its world gave one, and
 * otherwise a new organization's on GitHub's free plan, since feedgate stores none of them. Its plan's seats are
 * those its members fill, owners included, as GitHub counts them (`filled_seats`); feedgate sells none, so it has
 * as many as are filled.
 */
function memberView(org: UserRow, counts: AccountCounts, version: ApiVersion) {
  return {
    total_private_repos: counts.privateRepos,
    owned_private_repos: counts.privateRepos,
    private_gists: 0,
    disk_usage: 0,
    collaborators: 0,
    billing_email: org.billingEmail,
    plan: { ...FREE_PLAN, filled_seats: counts.members, seats: counts.members },
    default_repository_permission: "read",
    default_repository_branch: "main",
    members_can_create_repositories: true,
    two_factor_requirement_enabled: false,
    members_allowed_repository_creation_type: "all",
    members_can_create_public_repositories: true,
    members_can_create_private_repositories: true,
    members_can_create_internal_repositories: false,
    members_can_create_pages: true,
    members_can_create_public_pages: true,
    members_can_create_private_pages: true,
    members_can_delete_repositories: true,
    members_can_change_repo_visibility: true,
    members_can_invite_outside_collaborators: true,
    members_can_delete_issues: false,
    display_commenter_full_name_setting_enabled: false,
    readers_can_create_discussions: true,
    members_can_create_teams: true,
    members_can_view_dependency_insights: true,
    members_can_fork_private_repositories: false,
    web_commit_signoff_required: false,
    advanced_security_enabled_for_new_repositories: false,
    dependabot_alerts_enabled_for_new_repositories: false,
    dependabot_security_updates_enabled_for_new_repositories: false,
    dependency_graph_enabled_for_new_repositories: false,
    secret_scanning_enabled_for_new_repositories: false,
    secret_scanning_push_protection_enabled_for_new_repositories: false,
    // Removed by API version 2026-03-10.
    ...(keepsRemovedFields(version) ? { secret_scanning_push_protection_custom_link_enabled: false } : {}),
    secret_scanning_push_protection_custom_link: null,
    deploy_keys_enabled_for_repositories: true,
  } satisfies Partial<Organization>;
}

/**
 * `GET /orgs/:org`, with what its owners with `admin:org` see besides when `asMember`. Where feedgate stores nothing
 * (display name, company, ...) the values are the neutral ones GitHub's schema allows: the login, empty text, false;
 * `blog` and `email`, which must be a URI and an address when sent, are left out unless the world gave them.
 */
export function toWireOrganization(
  org: UserRow,
  counts: AccountCounts,
  baseUrl: string,
  { asMember = false, version = DEFAULT_API_VERSION }: { asMember?: boolean; version?: ApiVersion } = {},
): Organization {
  const api = `${baseUrl}/orgs/${org.login}`;
  const urls: Record<(typeof ORGANIZATION_URL_KEYS)[number], string> = {
    url: api,
    repos_url: `${api}/repos`,
    events_url: `${api}/events`,
    hooks_url: `${api}/hooks`,
    issues_url: `${api}/issues`,
    members_url: `${api}/members{/member}`,
    public_members_url: `${api}/public_members{/member}`,
  };
  return {
    login: org.login,
    id: org.wireId,
    node_id: accountNodeId(org),
    ...urls,
    avatar_url: avatarOf(org.login),
    description: null,
    name: org.login,
    company: "",
    ...(org.blog === null ? {} : { blog: org.blog }),
    location: "",
    ...(org.email === null ? {} : { email: org.email }),
    twitter_username: null,
    is_verified: false,
    has_organization_projects: false,
    has_repository_projects: false,
    public_repos: counts.publicRepos,
    public_gists: 0,
    followers: counts.followers,
    following: counts.following,
    html_url: `${webOrigin(baseUrl)}/${org.login}`,
    type: "Organization",
    ...(asMember ? memberView(org, counts, version) : {}),
    created_at: isoSeconds(org.createdAt),
    updated_at: isoSeconds(org.updatedAt),
    archived_at: null,
  };
}
