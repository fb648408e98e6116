/**
 * Stored accounts -> GitHub's user and organization objects (simple-user, public-user, private-user,
 * organization-full). What feedgate does not store (names, e-mail, bio, gists, node ids) is GitHub's neutral
 * value: null where the schema allows it, else 0, false or "". Counts and times are the stored ones.
 */
import type {
  ACCOUNT_URL_KEYS, ORGANIZATION_URL_KEYS, Organization, PrivateUser, PublicUser, SimpleUser,
} from "../../api/schemas.js";
import type { AccountCounts, UserRow } from "../store/store.js";
import { avatarOf, webOrigin } from "./urls.js";
import { isoSeconds } from "./time.js";

/** GitHub's URL templates of an account, by key. */
function accountUrls(login: string, baseUrl: string): Record<(typeof ACCOUNT_URL_KEYS)[number], string> {
  const api = `${baseUrl}/users/${login}`;
  return {
    url: api,
    html_url: `${webOrigin(baseUrl)}/${login}`,
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
    node_id: "",
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
    blog: null,
    location: null,
    email: null,
    hireable: null,
    bio: null,
    twitter_username: null,
    public_repos: counts.publicRepos,
    public_gists: 0,
    followers: counts.followers,
    following: counts.following,
    created_at: isoSeconds(account.createdAt),
    // feedgate keeps no modification time of an account.
    updated_at: isoSeconds(account.createdAt),
  };
}

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
  };
}

/** `GET /orgs/:org`. */
export function toWireOrganization(org: UserRow, counts: AccountCounts, baseUrl: string): Organization {
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
    node_id: "",
    ...urls,
    avatar_url: avatarOf(org.login),
    description: null,
    has_organization_projects: false,
    has_repository_projects: false,
    public_repos: counts.publicRepos,
    public_gists: 0,
    followers: counts.followers,
    following: counts.following,
    html_url: `${webOrigin(baseUrl)}/${org.login}`,
    type: "Organization",
    created_at: isoSeconds(org.createdAt),
    updated_at: isoSeconds(org.createdAt),
    archived_at: null,
  };
}
