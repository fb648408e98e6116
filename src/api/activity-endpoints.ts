/**
 * The activity family's rows of the endpoint table (./endpoints.ts spreads them in): GitHub's starring and watching
 * (https://docs.github.com/rest/activity) and following (https://docs.github.com/rest/users/followers). Starring is a
 * write of the action log (it makes WatchEvent and the `star` and `watch` webhooks); watching and following make
 * nothing but their state. No Node-only imports.
 */
import { paging, type ParamSpec } from "./params.js";
import type { AcceptedPermissions } from "./permissions.js";
import type { ResponseKind } from "./responses.js";

const STARRING = "https://docs.github.com/rest/activity/starring";
const WATCHING = "https://docs.github.com/rest/activity/watching";
const FOLLOWERS = "https://docs.github.com/rest/users/followers";

/**
 * The scopes of a classic token, as GitHub documents them: `public_repo` is "also required for starring public
 * repositories" (`repo` for private ones, which the service applies); `notifications` grants "watch and unwatch access
 * to a repository"; `user:follow` (or `user`, which includes it) follows and unfollows. Reads need none.
 */
export const STAR_SCOPES = ["public_repo", "repo"] as const;
export const WATCH_SCOPES = ["notifications", "repo"] as const;
export const FOLLOW_SCOPES = ["user", "user:follow"] as const;

const required = { in: "path", type: "string", required: true } as const;
const repoPath = { user: required, repo: required } as const satisfies Record<string, ParamSpec>;
const userPath = { user: required } as const satisfies Record<string, ParamSpec>;
const starOrder = {
  sort: { in: "query", type: "string" },
  direction: { in: "query", type: "string" },
} as const satisfies Record<string, ParamSpec>;

/** What a row asks: who, with which scopes (classic) and permissions (fine-grained, the account's own). */
interface Need {
  readonly auth: "optional" | "required";
  readonly acceptedScopes: readonly string[];
  readonly permissions: AcceptedPermissions;
}
const PUBLIC: Need = { auth: "optional", acceptedScopes: [], permissions: [] };
const own = (
  permission: "starring" | "watching" | "followers",
  level: "read" | "write",
  scopes: readonly string[] = [],
) => ({ auth: "required", acceptedScopes: scopes, permissions: [{ [permission]: level }] }) as const satisfies Need;

function activityRow<
  const M extends "GET" | "PUT" | "DELETE",
  const P extends Readonly<Record<string, ParamSpec>>,
  const R extends ResponseKind,
>(method: M, path: string, params: P, need: Need, response: R, docs: string, summary: string, resource: string) {
  return {
    method,
    path,
    params,
    ...need,
    response,
    resource,
    documentationUrl: `${docs}#${summary.toLowerCase().replaceAll(" ", "-")}`,
    summary,
    tag: "activity",
  } as const;
}

export const activityEndpoints = {
  star: activityRow(
    "PUT",
    "/user/starred/:user/:repo",
    repoPath,
    own("starring", "write", STAR_SCOPES),
    "empty",
    STARRING,
    "Star a repository for the authenticated user",
    "Repository",
  ),
  unstar: activityRow(
    "DELETE",
    "/user/starred/:user/:repo",
    repoPath,
    own("starring", "write", STAR_SCOPES),
    "empty",
    STARRING,
    "Unstar a repository for the authenticated user",
    "Repository",
  ),
  checkStarred: activityRow(
    "GET",
    "/user/starred/:user/:repo",
    repoPath,
    own("starring", "read"),
    "empty",
    STARRING,
    "Check if a repository is starred by the authenticated user",
    "Repository",
  ),
  listStarred: activityRow(
    "GET",
    "/user/starred",
    { ...starOrder, ...paging },
    own("starring", "read"),
    "StarredRepositories",
    STARRING,
    "List repositories starred by the authenticated user",
    "Repository",
  ),
  listStarredForUser: activityRow(
    "GET",
    "/users/:user/starred",
    { ...userPath, ...starOrder, ...paging },
    PUBLIC,
    "StarredRepositories",
    STARRING,
    "List repositories starred by a user",
    "Repository",
  ),
  listStargazers: activityRow(
    "GET",
    "/repos/:user/:repo/stargazers",
    { ...repoPath, ...paging },
    { ...PUBLIC, permissions: [{ metadata: "read" }] },
    "Stargazers",
    STARRING,
    "List stargazers",
    "User",
  ),
  setSubscription: activityRow(
    "PUT",
    "/repos/:user/:repo/subscription",
    {
      ...repoPath,
      subscribed: { in: "body", type: "boolean" },
      ignored: { in: "body", type: "boolean" },
    },
    own("watching", "write", WATCH_SCOPES),
    "RepositorySubscription",
    WATCHING,
    "Set a repository subscription",
    "Subscription",
  ),
  getSubscription: activityRow(
    "GET",
    "/repos/:user/:repo/subscription",
    repoPath,
    own("watching", "read", WATCH_SCOPES),
    "RepositorySubscription",
    WATCHING,
    "Get a repository subscription",
    "Subscription",
  ),
  deleteSubscription: activityRow(
    "DELETE",
    "/repos/:user/:repo/subscription",
    repoPath,
    own("watching", "write", WATCH_SCOPES),
    "empty",
    WATCHING,
    "Delete a repository subscription",
    "Subscription",
  ),
  listWatchers: activityRow(
    "GET",
    "/repos/:user/:repo/subscribers",
    { ...repoPath, ...paging },
    { ...PUBLIC, permissions: [{ metadata: "read" }] },
    "SimpleUser[]",
    WATCHING,
    "List watchers",
    "User",
  ),
  listWatched: activityRow(
    "GET",
    "/user/subscriptions",
    paging,
    own("watching", "read"),
    "MinimalRepository[]",
    WATCHING,
    "List repositories watched by the authenticated user",
    "Repository",
  ),
  listWatchedForUser: activityRow(
    "GET",
    "/users/:user/subscriptions",
    { ...userPath, ...paging },
    PUBLIC,
    "MinimalRepository[]",
    WATCHING,
    "List repositories watched by a user",
    "Repository",
  ),
  follow: activityRow(
    "PUT",
    "/user/following/:user",
    userPath,
    own("followers", "write", FOLLOW_SCOPES),
    "empty",
    FOLLOWERS,
    "Follow a user",
    "User",
  ),
  unfollow: activityRow(
    "DELETE",
    "/user/following/:user",
    userPath,
    own("followers", "write", FOLLOW_SCOPES),
    "empty",
    FOLLOWERS,
    "Unfollow a user",
    "User",
  ),
  checkFollowing: activityRow(
    "GET",
    "/user/following/:user",
    userPath,
    own("followers", "read"),
    "empty",
    FOLLOWERS,
    "Check if a person is followed by the authenticated user",
    "User",
  ),
  listFollowing: activityRow(
    "GET",
    "/user/following",
    paging,
    own("followers", "read"),
    "SimpleUser[]",
    FOLLOWERS,
    "List the people the authenticated user follows",
    "User",
  ),
  listFollowers: activityRow(
    "GET",
    "/user/followers",
    paging,
    own("followers", "read"),
    "SimpleUser[]",
    FOLLOWERS,
    "List followers of the authenticated user",
    "User",
  ),
  listFollowersForUser: activityRow(
    "GET",
    "/users/:user/followers",
    { ...userPath, ...paging },
    PUBLIC,
    "SimpleUser[]",
    FOLLOWERS,
    "List followers of a user",
    "User",
  ),
  listFollowingForUser: activityRow(
    "GET",
    "/users/:user/following",
    { ...userPath, ...paging },
    PUBLIC,
    "SimpleUser[]",
    FOLLOWERS,
    "List the people a user follows",
    "User",
  ),
  checkFollowingForUser: activityRow(
    "GET",
    "/users/:user/following/:target",
    { ...userPath, target: required },
    PUBLIC,
    "empty",
    FOLLOWERS,
    "Check if a user follows another user",
    "User",
  ),
} as const;
