/** The API root, the meta information and the rate-limit overview -> GitHub's objects (root, api-overview, rate-limit-overview). */
import type { ApiOverview, RateLimit, RateLimitWindow, Root } from "../../api/schemas.js";
import type { RateLimitState } from "../../api/rate-limit.js";
import { type ApiVersion, keepsRemovedFields } from "../../api/versions.js";
import { webOrigin } from "./urls.js";

/**
 * GitHub's root document: URL templates (RFC 6570) of the whole API, feedgate's own among them, at this base URL;
 * without `authorizations_url` and `hub_url` from API version 2026-03-10 on.
 */
export function toWireRoot(baseUrl: string, version: ApiVersion): Root {
  const root = everyRootUrl(baseUrl);
  if (keepsRemovedFields(version)) return root;
  const { authorizations_url: _authorizations, hub_url: _hub, ...current } = root;
  return current;
}

function everyRootUrl(baseUrl: string): Root {
  const search = (what: string) => `${baseUrl}/search/${what}?q={query}{&page,per_page,sort,order}`;
  return {
    current_user_url: `${baseUrl}/user`,
    current_user_authorizations_html_url: `${webOrigin(baseUrl)}/settings/connections/applications{/client_id}`,
    authorizations_url: `${baseUrl}/authorizations`,
    code_search_url: search("code"),
    commit_search_url: search("commits"),
    emails_url: `${baseUrl}/user/emails`,
    emojis_url: `${baseUrl}/emojis`,
    events_url: `${baseUrl}/events`,
    feeds_url: `${baseUrl}/feeds`,
    followers_url: `${baseUrl}/user/followers`,
    following_url: `${baseUrl}/user/following{/target}`,
    gists_url: `${baseUrl}/gists{/gist_id}`,
    hub_url: `${baseUrl}/hub`,
    issue_search_url: search("issues"),
    issues_url: `${baseUrl}/issues`,
    keys_url: `${baseUrl}/user/keys`,
    label_search_url: `${baseUrl}/search/labels?q={query}&repository_id={repository_id}{&page,per_page}`,
    notifications_url: `${baseUrl}/notifications`,
    organization_url: `${baseUrl}/orgs/{org}`,
    organization_repositories_url: `${baseUrl}/orgs/{org}/repos{?type,page,per_page,sort}`,
    organization_teams_url: `${baseUrl}/orgs/{org}/teams`,
    public_gists_url: `${baseUrl}/gists/public`,
    rate_limit_url: `${baseUrl}/rate_limit`,
    repository_url: `${baseUrl}/repos/{owner}/{repo}`,
    repository_search_url: search("repositories"),
    current_user_repositories_url: `${baseUrl}/user/repos{?type,page,per_page,sort}`,
    starred_url: `${baseUrl}/user/starred{/owner}{/repo}`,
    starred_gists_url: `${baseUrl}/gists/starred`,
    topic_search_url: `${baseUrl}/search/topics?q={query}{&page,per_page}`,
    user_url: `${baseUrl}/users/{user}`,
    user_organizations_url: `${baseUrl}/user/orgs`,
    user_repositories_url: `${baseUrl}/users/{user}/repos{?type,page,per_page,sort}`,
    user_search_url: search("users"),
  };
}

/**
 * GitHub Enterprise's form of `/meta` (data/README.md): feedgate checks passwords itself, so Basic auth with a
 * password is verifiable; github.com's IP ranges and SSH keys describe no feedgate.
 */
export function toWireApiOverview(): ApiOverview {
  return { verifiable_password_authentication: true };
}

/** A window's numbers as GitHub gives them: in `X-RateLimit-*` headers and in `GET /rate_limit`. */
export function rateLimitWindow(state: RateLimitState): RateLimitWindow {
  return {
    limit: state.limit,
    used: Math.min(state.used, state.limit),
    remaining: Math.max(0, state.limit - state.used),
    reset: Math.floor(state.resetAt.getTime() / 1000),
  };
}

/**
 * `GET /rate_limit`: the `core` window every route counts against; feedgate has no search, so its limit is 0. The
 * top-level `rate`, a copy of `core`, is gone from API version 2026-03-10 on.
 */
export function toWireRateLimit(state: RateLimitState, version: ApiVersion): RateLimit {
  const core = rateLimitWindow(state);
  const resources = { core, search: { limit: 0, used: 0, remaining: 0, reset: core.reset } };
  return keepsRemovedFields(version) ? { resources, rate: core } : { resources };
}
