/**
 * TypeBox schemas: the wire shapes of responses, and request schemas derived from the endpoint table so
 * that validation cannot drift from it. No Node-only imports.
 */
import {
  Type,
  type Static,
  type TArray,
  type TBoolean,
  type TNull,
  type TNumber,
  type TObject,
  type TOptional,
  type TSchema,
  type TRecord,
  type TString,
  type TUnion,
  type TUnknown,
} from "@sinclair/typebox";
import type { FieldType, ParamLocation, ParamSpec, WithParams, paging } from "./params.js";

const NullableString = Type.Union([Type.String(), Type.Null()]);

/**
 * The `id` of an authorization or an issue event a server sends: a string, as the spec's field tables say, or, on a
 * server started with `--numeric-ids`, a JSON integer as GitHub sent it (wire notes 1.2, 2.4). Event ids are strings
 * in both modes. feedgate/client reads either and hands its callers strings (src/client/ids.ts).
 */
export const wireIdSchema = (numericIds: boolean) => (numericIds ? Type.Integer() : Type.String());

/**
 * The authorization object, keys in the order github.com sent them in 2018 (wire notes 1.2), then `expires_at`,
 * which GitHub added with expiring tokens. Absent values are null, never missing.
 */
const authorizationSchema = <I extends TSchema>(id: I) =>
  Type.Object({
    id,
    url: Type.String(),
    app: Type.Object({ name: Type.String(), url: Type.String(), client_id: Type.String() }),
    token: Type.String(),
    hashed_token: Type.String(),
    token_last_eight: Type.String(),
    note: NullableString,
    note_url: NullableString,
    created_at: Type.String(),
    updated_at: Type.String(),
    scopes: Type.Array(Type.String()),
    fingerprint: NullableString,
    expires_at: Type.Union([Type.String(), Type.Null()], {
      description:
        "When the token stops being accepted (GitHub's expiring tokens, since 2021), to the second; null: never.",
    }),
  });
/** An authorization as the spec has it (`id` a string), and as feedgate/client returns it whatever the server's mode. */
export const Authorization = authorizationSchema(Type.String());
export type Authorization = Static<typeof Authorization>;

export const ValidationError = Type.Object({
  resource: Type.String(),
  field: Type.String(),
  code: Type.String(),
  message: Type.Optional(Type.String()),
});
export type ValidationError = Static<typeof ValidationError>;

/** The one error body shape: `{message, documentation_url, errors?}`. */
export const ErrorBody = Type.Object({
  message: Type.String(),
  documentation_url: Type.String(),
  errors: Type.Optional(Type.Array(ValidationError)),
});
export type ErrorBody = Static<typeof ErrorBody>;

/**
 * Body strings may hold any character but NUL: PostgreSQL cannot store it in text, and a note that is stored on
 * one driver and refused on the other would make the drivers disagree. Named so the error can say it plainly.
 */
export const NO_NUL_PATTERN = "^[^\\u0000]*$";

const bodyString = () => Type.String({ pattern: NO_NUL_PATTERN });

/** A key of an object parameter, or a body value of that type. */
function fieldSchema(type: FieldType): TSchema {
  if (type === "record") return Type.Record(Type.String(), bodyString());
  if (type === "objects") return Type.Array(Type.Record(Type.String(), Type.Unknown()));
  if (type === "boolean") return Type.Boolean();
  return type === "string" ? bodyString() : Type.Union([bodyString(), Type.Number()]);
}

/** An object item of an array parameter: each key optional and nullable. */
function itemSchema(items: Readonly<Record<string, FieldType>>): TSchema {
  const keys = Object.entries(items).map(([name, type]) => [
    name,
    Type.Optional(Type.Union([fieldSchema(type), Type.Null()])),
  ]);
  return Type.Object(Object.fromEntries(keys));
}

function paramSchema(spec: ParamSpec): TSchema {
  let schema: TSchema;
  if (spec.type === "array") {
    schema = Type.Array(spec.items ? itemSchema(spec.items) : Type.String(), {
      ...(spec.minItems !== undefined ? { minItems: spec.minItems } : {}),
      ...(spec.maxItems !== undefined ? { maxItems: spec.maxItems } : {}),
    });
  }
  // Query numbers travel as text; the spec's rule is the digits pattern, checked on the text.
  else if (spec.type === "number") schema = Type.String({ pattern: spec.pattern ?? "^[0-9]+$" });
  else if (spec.type === "boolean") schema = Type.Boolean();
  else if (spec.type === "string|number") schema = fieldSchema(spec.type);
  else if (spec.type === "object") {
    const keys = Object.entries(spec.properties ?? {}).map(([name, type]) => [name, Type.Optional(fieldSchema(type))]);
    schema = Type.Object(Object.fromEntries(keys));
  } else schema = Type.String({ pattern: spec.pattern ?? (spec.in === "body" ? NO_NUL_PATTERN : undefined) });
  const typed = spec.nullable ? Type.Union([schema, Type.Null()]) : schema;
  return spec.description ? { ...typed, description: spec.description } : typed;
}

type FieldSchema<T extends FieldType> = T extends "string"
  ? TString
  : T extends "record"
    ? TRecord<TString, TString>
    : T extends "objects"
      ? TArray<TRecord<TString, TUnknown>>
      : T extends "boolean"
        ? TBoolean
        : TUnion<[TString, TNumber]>;

/** The type of a row's value before `nullable`; strings and numbers as text are TString, as before. */
type BaseSchema<S extends ParamSpec> = S["type"] extends "array"
  ? S["items"] extends Readonly<Record<string, FieldType>>
    ? TArray<TObject<{ [K in keyof S["items"]]: TOptional<TUnion<[FieldSchema<S["items"][K] & FieldType>, TNull]>> }>>
    : TArray<TString>
  : S["type"] extends "boolean"
    ? TBoolean
    : S["type"] extends "string|number"
      ? FieldSchema<"string|number">
      : S["type"] extends "object"
        ? TObject<{ [K in keyof S["properties"]]: TOptional<FieldSchema<S["properties"][K] & FieldType>> }>
        : TString;

/** The TypeBox type `paramSchema` builds for a row's parameter, so its static type follows the table. */
type ParamSchema<S extends ParamSpec> = S["nullable"] extends true ? TUnion<[BaseSchema<S>, TNull]> : BaseSchema<S>;

/** The TypeBox object `requestSchema` builds for one location of a row. */
export type RequestSchema<E extends WithParams, L extends ParamLocation> = TObject<{
  [K in keyof E["params"] as E["params"][K]["in"] extends L ? K : never]: E["params"][K]["required"] extends true
    ? ParamSchema<E["params"][K]>
    : TOptional<ParamSchema<E["params"][K]>>;
}>;

/** What one location of a request to an endpoint holds once validated: handlers and services take these types. */
export type RequestOf<E extends WithParams, L extends ParamLocation> = Static<RequestSchema<E, L>>;

/**
 * Each row's schemas, made once: every app of the process registers the same objects, which the compilers remember
 * by identity (server/compiled-schemas.ts). Nothing changes a schema once made.
 */
const REQUEST_SCHEMAS = new WeakMap<WithParams, Map<ParamLocation, TSchema>>();

/**
 * The JSON schema of one location (`path`, `query` or `body`) of an endpoint, built from its table row; its static
 * type is derived from the row too, so a route's typed `params`, `querystring` and `body` cannot drift from it.
 * Unknown keys are allowed: GitHub silently ignores them (wire notes 1.3).
 */
export function requestSchema<E extends WithParams, L extends ParamLocation>(
  endpoint: E,
  location: L,
): RequestSchema<E, L> {
  let byLocation = REQUEST_SCHEMAS.get(endpoint);
  if (byLocation === undefined) REQUEST_SCHEMAS.set(endpoint, (byLocation = new Map()));
  let schema = byLocation.get(location);
  if (schema === undefined) {
    const properties: Record<string, TSchema> = {};
    for (const [name, spec] of Object.entries(endpoint.params)) {
      if (spec.in !== location) continue;
      properties[name] = spec.required ? paramSchema(spec) : Type.Optional(paramSchema(spec));
    }
    byLocation.set(location, (schema = Type.Object(properties)));
  }
  return schema as unknown as RequestSchema<E, L>;
}

/** `page` and `per_page`, as every list's row declares them. */
export type PageQuery = RequestOf<{ params: typeof paging }, "query">;

/**
 * An account as events carry it (wire notes 2.2). Only `login` is promised by the spec: recorded history
 * lacks some keys (`display_login` before about 2016), and ids are null for accounts a world file named
 * only by login.
 */
const EventAccount = Type.Object({
  id: Type.Optional(Type.Union([Type.Number(), Type.Null()])),
  login: Type.String(),
  display_login: Type.Optional(Type.String()),
  gravatar_id: Type.Optional(Type.String()),
  url: Type.Optional(Type.String()),
  avatar_url: Type.Optional(Type.String()),
});

/**
 * An element of the event feeds (spec 2, wire notes 2.2). Payloads are returned verbatim and differ by
 * type, so only the envelope is typed; `org` is omitted, not null, when the event has none.
 */
export const Event = Type.Object({
  id: Type.String(),
  type: Type.String(),
  actor: EventAccount,
  repo: Type.Object({ id: Type.Optional(Type.Number()), name: Type.String(), url: Type.Optional(Type.String()) }),
  payload: Type.Record(Type.String(), Type.Unknown()),
  public: Type.Boolean(),
  created_at: Type.String(),
  org: Type.Optional(EventAccount),
});
export type Event = Static<typeof Event>;

/** An element of the repository issue-events feed (spec 2, wire notes 2.4); `actor` is null for deleted accounts. */
const issueEventSchema = <I extends TSchema>(id: I) =>
  Type.Object({
    id,
    url: Type.Optional(Type.String()),
    actor: Type.Union([EventAccount, Type.Null()]),
    event: Type.String(),
    commit_id: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    created_at: Type.String(),
    issue: Type.Object({ title: Type.String(), number: Type.Number(), state: Type.String() }),
  });
/** An issue event as the spec has it (`id` a string), and as feedgate/client returns it whatever the server's mode. */
export const IssueEvent = issueEventSchema(Type.String());
export type IssueEvent = Static<typeof IssueEvent>;
/** An issue event as one issue's list shows it: without the `issue`, which the list is of (wire notes 2.4). */
export const issueEventOfIssueSchema = <I extends TSchema>(id: I) => Type.Omit(issueEventSchema(id), ["issue"]);
export const IssueEventOfIssue = issueEventOfIssueSchema(Type.String());
export type IssueEventOfIssue = Static<typeof IssueEventOfIssue>;

// ---------------------------------------------------------------------------------------------------------
// The entry-point resources (`/user`, `/users/:user`, `/orgs/:org`, `/repos/:user/:repo`, `/rate_limit`, `/`,
// `/meta`), GitHub's schemas of the same names (public-user, private-user, organization-full, full-repository,
// rate-limit-overview, root, api-overview) with their keys in GitHub's order. What feedgate does not store is
// GitHub's neutral value (null, 0, false, ""); see src/server/convert/user.ts and repository.ts.

const NullableBoolean = Type.Union([Type.Boolean(), Type.Null()]);
const Count = Type.Integer({ minimum: 0 });

/** An object of string properties, one per key; its static type keeps the keys, so converters must fill each. */
function strings<const K extends string>(keys: readonly K[]): { [P in K]: TString } {
  return Object.fromEntries(keys.map((key) => [key, Type.String()])) as { [P in K]: TString };
}

/** The URL keys of an account, in GitHub's order after `url`. */
export const ACCOUNT_URL_KEYS = [
  "url",
  "html_url",
  "followers_url",
  "following_url",
  "gists_url",
  "starred_url",
  "subscriptions_url",
  "organizations_url",
  "repos_url",
  "events_url",
  "received_events_url",
] as const;

/** GitHub's simple-user: an account inside another object (a repository's owner, its organization). */
export const SimpleUser = Type.Object({
  login: Type.String(),
  id: Type.Integer(),
  node_id: Type.String(),
  avatar_url: Type.String(),
  gravatar_id: NullableString,
  ...strings(ACCOUNT_URL_KEYS),
  type: Type.String(),
  site_admin: Type.Boolean(),
});
export type SimpleUser = Static<typeof SimpleUser>;

/** GitHub's public-user: `GET /users/:user` (organizations too, with `type: "Organization"`). */
export const PublicUser = Type.Object({
  ...SimpleUser.properties,
  name: NullableString,
  company: NullableString,
  blog: NullableString,
  location: NullableString,
  email: NullableString,
  hireable: NullableBoolean,
  bio: NullableString,
  twitter_username: NullableString,
  public_repos: Count,
  public_gists: Count,
  followers: Count,
  following: Count,
  created_at: Type.String(),
  updated_at: Type.String(),
  /** `public` for anyone's view of an account, `private` for the caller's own (`GET /user`). */
  user_view_type: Type.Optional(Type.String()),
});
export type PublicUser = Static<typeof PublicUser>;

/** A plan as GitHub shows it to an account's owner or an organization's members. */
const Plan = Type.Object({
  name: Type.String(),
  space: Count,
  private_repos: Count,
  collaborators: Type.Optional(Count),
  filled_seats: Type.Optional(Count),
  seats: Type.Optional(Count),
});

/** GitHub's private-user: `GET /user`, the caller's own account. */
export const PrivateUser = Type.Object({
  ...PublicUser.properties,
  private_gists: Count,
  total_private_repos: Count,
  owned_private_repos: Count,
  disk_usage: Count,
  collaborators: Count,
  two_factor_authentication: Type.Boolean(),
  notification_email: NullableString,
  plan: Plan,
});
export type PrivateUser = Static<typeof PrivateUser>;

/** The URL keys of an organization, in GitHub's order after `url`. */
export const ORGANIZATION_URL_KEYS = [
  "url",
  "repos_url",
  "events_url",
  "hooks_url",
  "issues_url",
  "members_url",
  "public_members_url",
] as const;

const optionalBoolean = Type.Optional(Type.Boolean());
/**
 * What GitHub shows of an organization only to its owners with `admin:org`: its plan, private counts and settings
 * (https://docs.github.com/rest/orgs/orgs#get-an-organization).
 */
export const OrganizationMemberView = {
  total_private_repos: Type.Optional(Count),
  owned_private_repos: Type.Optional(Count),
  private_gists: Type.Optional(Count),
  disk_usage: Type.Optional(Count),
  collaborators: Type.Optional(Count),
  billing_email: Type.Optional(NullableString),
  plan: Type.Optional(Plan),
  default_repository_permission: Type.Optional(NullableString),
  default_repository_branch: Type.Optional(NullableString),
  members_can_create_repositories: optionalBoolean,
  two_factor_requirement_enabled: optionalBoolean,
  members_allowed_repository_creation_type: Type.Optional(Type.String()),
  members_can_create_public_repositories: optionalBoolean,
  members_can_create_private_repositories: optionalBoolean,
  members_can_create_internal_repositories: optionalBoolean,
  members_can_create_pages: optionalBoolean,
  members_can_create_public_pages: optionalBoolean,
  members_can_create_private_pages: optionalBoolean,
  members_can_delete_repositories: optionalBoolean,
  members_can_change_repo_visibility: optionalBoolean,
  members_can_invite_outside_collaborators: optionalBoolean,
  members_can_delete_issues: optionalBoolean,
  display_commenter_full_name_setting_enabled: optionalBoolean,
  readers_can_create_discussions: optionalBoolean,
  members_can_create_teams: optionalBoolean,
  members_can_view_dependency_insights: optionalBoolean,
  members_can_fork_private_repositories: optionalBoolean,
  web_commit_signoff_required: optionalBoolean,
  advanced_security_enabled_for_new_repositories: optionalBoolean,
  dependabot_alerts_enabled_for_new_repositories: optionalBoolean,
  dependabot_security_updates_enabled_for_new_repositories: optionalBoolean,
  dependency_graph_enabled_for_new_repositories: optionalBoolean,
  secret_scanning_enabled_for_new_repositories: optionalBoolean,
  secret_scanning_push_protection_enabled_for_new_repositories: optionalBoolean,
  /** Removed by API version 2026-03-10. */
  secret_scanning_push_protection_custom_link_enabled: optionalBoolean,
  secret_scanning_push_protection_custom_link: Type.Optional(NullableString),
  deploy_keys_enabled_for_repositories: optionalBoolean,
};

/** GitHub's organization-full: `GET /orgs/:org`. */
export const Organization = Type.Object({
  login: Type.String(),
  id: Type.Integer(),
  node_id: Type.String(),
  ...strings(ORGANIZATION_URL_KEYS),
  avatar_url: Type.String(),
  description: NullableString,
  name: Type.String(),
  company: Type.String(),
  /** Sent when the organization has one (a world file's `blog`): GitHub's schema wants a URI when it is sent. */
  blog: Type.Optional(Type.String()),
  location: Type.String(),
  /** Its public e-mail, sent when it has one (a world file's `email`). */
  email: Type.Optional(Type.String()),
  twitter_username: NullableString,
  is_verified: Type.Boolean(),
  has_organization_projects: Type.Boolean(),
  has_repository_projects: Type.Boolean(),
  public_repos: Count,
  public_gists: Count,
  followers: Count,
  following: Count,
  html_url: Type.String(),
  type: Type.String(),
  ...OrganizationMemberView,
  created_at: Type.String(),
  updated_at: Type.String(),
  archived_at: NullableString,
});
export type Organization = Static<typeof Organization>;

/** The URL keys of a repository from `url` to `trees_url`, in GitHub's order. */
export const REPOSITORY_URL_KEYS = [
  "url",
  "archive_url",
  "assignees_url",
  "blobs_url",
  "branches_url",
  "collaborators_url",
  "comments_url",
  "commits_url",
  "compare_url",
  "contents_url",
  "contributors_url",
  "deployments_url",
  "downloads_url",
  "events_url",
  "forks_url",
  "git_commits_url",
  "git_refs_url",
  "git_tags_url",
  "git_url",
  "issue_comment_url",
  "issue_events_url",
  "issues_url",
  "keys_url",
  "labels_url",
  "languages_url",
  "merges_url",
  "milestones_url",
  "notifications_url",
  "pulls_url",
  "releases_url",
  "ssh_url",
  "stargazers_url",
  "statuses_url",
  "subscribers_url",
  "subscription_url",
  "tags_url",
  "teams_url",
  "trees_url",
  "clone_url",
] as const;

/** GitHub's repository (a fork's `parent` and `source`): everything of full-repository but the caller's and the network's. */
export const ParentRepository = Type.Object({
  id: Type.Integer(),
  node_id: Type.String(),
  name: Type.String(),
  full_name: Type.String(),
  owner: SimpleUser,
  private: Type.Boolean(),
  html_url: Type.String(),
  description: NullableString,
  fork: Type.Boolean(),
  ...strings(REPOSITORY_URL_KEYS),
  mirror_url: NullableString,
  hooks_url: Type.String(),
  svn_url: Type.String(),
  homepage: NullableString,
  language: NullableString,
  forks_count: Count,
  stargazers_count: Count,
  watchers_count: Count,
  size: Count,
  default_branch: Type.String(),
  open_issues_count: Count,
  is_template: Type.Boolean(),
  topics: Type.Array(Type.String()),
  has_issues: Type.Boolean(),
  has_projects: Type.Boolean(),
  has_wiki: Type.Boolean(),
  has_pages: Type.Boolean(),
  /** Removed by API version 2026-03-10. */
  has_downloads: Type.Optional(Type.Boolean()),
  has_discussions: Type.Boolean(),
  archived: Type.Boolean(),
  disabled: Type.Boolean(),
  visibility: Type.String(),
  pushed_at: Type.String(),
  created_at: Type.String(),
  updated_at: Type.String(),
  license: Type.Null(),
  forks: Count,
  open_issues: Count,
  watchers: Count,
});
export type ParentRepository = Static<typeof ParentRepository>;

/** What the caller may do with a repository (absent for anonymous callers, as on GitHub). */
export const RepositoryPermissions = Type.Object({
  admin: Type.Boolean(),
  maintain: Type.Boolean(),
  push: Type.Boolean(),
  triage: Type.Boolean(),
  pull: Type.Boolean(),
});
export type RepositoryPermissions = Static<typeof RepositoryPermissions>;

/** One switch of a repository's security and analysis settings. */
const Status = Type.Object({ status: Type.Union([Type.Literal("enabled"), Type.Literal("disabled")]) });

/**
 * What GitHub shows of a repository only to its administrators: the merge settings, a clone token and the security
 * and analysis switches (https://docs.github.com/rest/repos/repos#get-a-repository).
 */
export const RepositoryAdminView = {
  allow_rebase_merge: Type.Optional(Type.Boolean()),
  temp_clone_token: Type.Optional(Type.String()),
  allow_squash_merge: Type.Optional(Type.Boolean()),
  allow_auto_merge: Type.Optional(Type.Boolean()),
  delete_branch_on_merge: Type.Optional(Type.Boolean()),
  allow_merge_commit: Type.Optional(Type.Boolean()),
  allow_update_branch: Type.Optional(Type.Boolean()),
  /** Removed by API version 2026-03-10 (squash_merge_commit_title says the same). */
  use_squash_pr_title_as_default: Type.Optional(Type.Boolean()),
  squash_merge_commit_title: Type.Optional(Type.String()),
  squash_merge_commit_message: Type.Optional(Type.String()),
  merge_commit_title: Type.Optional(Type.String()),
  merge_commit_message: Type.Optional(Type.String()),
  security_and_analysis: Type.Optional(
    Type.Object({
      secret_scanning: Status,
      secret_scanning_push_protection: Status,
      dependabot_security_updates: Status,
      secret_scanning_non_provider_patterns: Status,
      secret_scanning_validity_checks: Status,
    }),
  ),
};

/** GitHub's full-repository: `GET /repos/:user/:repo`. */
export const Repository = Type.Object({
  ...ParentRepository.properties,
  permissions: Type.Optional(RepositoryPermissions),
  ...RepositoryAdminView,
  allow_forking: Type.Boolean(),
  web_commit_signoff_required: Type.Boolean(),
  /** The owning organization; absent when a user owns the repository. */
  organization: Type.Optional(SimpleUser),
  /** For a fork: the repository it was forked from, and the root of its network. */
  parent: Type.Optional(ParentRepository),
  source: Type.Optional(ParentRepository),
  network_count: Count,
  subscribers_count: Count,
});
export type Repository = Static<typeof Repository>;

/** One window of GitHub's rate-limit-overview. */
export const RateLimitWindow = Type.Object({ limit: Count, used: Count, remaining: Count, reset: Count });
export type RateLimitWindow = Static<typeof RateLimitWindow>;

/** GitHub's rate-limit-overview: `GET /rate_limit`. */
export const RateLimit = Type.Object({
  resources: Type.Object({ core: RateLimitWindow, search: RateLimitWindow }),
  /** The core window again; removed by API version 2026-03-10. */
  rate: Type.Optional(RateLimitWindow),
});
export type RateLimit = Static<typeof RateLimit>;

/** The keys of GitHub's root document, in its order: URL templates (RFC 6570) of the whole API. */
export const ROOT_KEYS = [
  "current_user_url",
  "current_user_authorizations_html_url",
  "authorizations_url",
  "code_search_url",
  "commit_search_url",
  "emails_url",
  "emojis_url",
  "events_url",
  "feeds_url",
  "followers_url",
  "following_url",
  "gists_url",
  "hub_url",
  "issue_search_url",
  "issues_url",
  "keys_url",
  "label_search_url",
  "notifications_url",
  "organization_url",
  "organization_repositories_url",
  "organization_teams_url",
  "public_gists_url",
  "rate_limit_url",
  "repository_url",
  "repository_search_url",
  "current_user_repositories_url",
  "starred_url",
  "starred_gists_url",
  "topic_search_url",
  "user_url",
  "user_organizations_url",
  "user_repositories_url",
  "user_search_url",
] as const;

/** The root's keys that API version 2026-03-10 removed. */
export const REMOVED_ROOT_KEYS = ["authorizations_url", "hub_url"] as const;

/** GitHub's root: `GET /`, in GitHub's key order. */
export const Root = Type.Object(
  Object.fromEntries(
    ROOT_KEYS.map((key) => [
      key,
      (REMOVED_ROOT_KEYS as readonly string[]).includes(key) ? Type.Optional(Type.String()) : Type.String(),
    ]),
  ) as Omit<ReturnType<typeof strings<(typeof ROOT_KEYS)[number]>>, (typeof REMOVED_ROOT_KEYS)[number]> & {
    [K in (typeof REMOVED_ROOT_KEYS)[number]]: TOptional<TString>;
  },
);
export type Root = Static<typeof Root>;

/** GitHub's api-overview: `GET /meta`, in GitHub Enterprise's form (no IP ranges or SSH keys of github.com). */
export const ApiOverview = Type.Object({ verifiable_password_authentication: Type.Boolean() });
export type ApiOverview = Static<typeof ApiOverview>;

// ---------------------------------------------------------------------------------------------------------
// Webhooks: GitHub's webhook-config, hook, org-hook, hook-delivery-item and hook-delivery, keys in GitHub's order.

/** A hook's configuration as GitHub shows it: `secret` is `"********"` when one is set, and absent otherwise. */
export const WebhookConfig = Type.Object({
  content_type: Type.String(),
  insecure_ssl: Type.String(),
  url: Type.String(),
  secret: Type.Optional(Type.String()),
});
export type WebhookConfig = Static<typeof WebhookConfig>;

/** GitHub's hook-response: the last delivery's outcome; `{code: null, status: "unused", message: null}` before any. */
export const HookResponse = Type.Object({
  code: Type.Union([Type.Integer(), Type.Null()]),
  status: NullableString,
  message: NullableString,
});

/** GitHub's hook: a repository's webhook (`type: "Repository"`). */
export const Hook = Type.Object({
  type: Type.String(),
  id: Type.Integer(),
  name: Type.String(),
  active: Type.Boolean(),
  events: Type.Array(Type.String()),
  config: WebhookConfig,
  updated_at: Type.String(),
  created_at: Type.String(),
  ...strings(["url", "test_url", "ping_url", "deliveries_url"]),
  last_response: HookResponse,
});
export type Hook = Static<typeof Hook>;

/** GitHub's org-hook: an organization's webhook (`type: "Organization"`), without a test URL or last response. */
export const OrgHook = Type.Object({
  id: Type.Integer(),
  ...strings(["url", "ping_url", "deliveries_url"]),
  name: Type.String(),
  events: Type.Array(Type.String()),
  active: Type.Boolean(),
  config: WebhookConfig,
  updated_at: Type.String(),
  created_at: Type.String(),
  type: Type.String(),
});
export type OrgHook = Static<typeof OrgHook>;

const NullableInteger = Type.Union([Type.Integer(), Type.Null()]);

/** GitHub's hook-delivery-item: one attempt, as the deliveries list shows it. */
export const HookDeliveryItem = Type.Object({
  id: Type.Integer(),
  guid: Type.String(),
  delivered_at: Type.String(),
  redelivery: Type.Boolean(),
  /** Seconds. */
  duration: Type.Number(),
  status: Type.String(),
  status_code: Type.Integer(),
  event: Type.String(),
  action: NullableString,
  installation_id: NullableInteger,
  repository_id: NullableInteger,
  throttled_at: NullableString,
});
export type HookDeliveryItem = Static<typeof HookDeliveryItem>;

const HeaderMap = Type.Record(Type.String(), Type.String());

/** GitHub's hook-delivery: the attempt with the request sent (its payload parsed) and the response received. */
export const HookDelivery = Type.Object({
  ...HookDeliveryItem.properties,
  url: Type.String(),
  request: Type.Object({
    headers: HeaderMap,
    payload: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
  }),
  response: Type.Object({ headers: HeaderMap, payload: NullableString }),
});
export type HookDelivery = Static<typeof HookDelivery>;

const AccessLevelSchema = Type.Union([Type.Literal("read"), Type.Literal("write")]);
const PermissionMap = Type.Record(Type.String(), AccessLevelSchema);

/**
 * A fine-grained personal access token, in the words of GitHub's organization-programmatic-access-grant (`token_name`,
 * `token_expired`, `token_expires_at`, `token_last_used_at`, `repository_selection`, `permissions` by group), with what
 * its owner sees besides: the token once at creation, its last eight characters, the resource owner and the selected
 * repositories.
 */
export const FineGrainedToken = Type.Object({
  id: Type.Integer(),
  url: Type.String(),
  token: Type.String({ description: 'The token, in the response to its creation only; "" afterwards.' }),
  token_last_eight: Type.String(),
  token_name: Type.String(),
  description: NullableString,
  owner: SimpleUser,
  resource_owner: SimpleUser,
  repository_selection: Type.Union([Type.Literal("none"), Type.Literal("all"), Type.Literal("subset")]),
  repositories: Type.Array(
    Type.Object({ id: Type.Integer(), name: Type.String(), full_name: Type.String(), private: Type.Boolean() }),
  ),
  permissions: Type.Object({
    repository: PermissionMap,
    organization: PermissionMap,
    /** The account's own (starring, watching, followers), when the token holds one. */
    other: Type.Optional(PermissionMap),
  }),
  created_at: Type.String(),
  token_expired: Type.Boolean(),
  token_expires_at: NullableString,
  token_last_used_at: Type.Union([Type.String(), Type.Null()], {
    description: "Not recorded by feedgate: always null.",
  }),
});
export type FineGrainedToken = Static<typeof FineGrainedToken>;

/** What a bulk redelivery of failed deliveries answers with its 202 (feedgate's own: GitHub has none). */
export const HookRedeliveries = Type.Object({
  queued: Type.Integer({ minimum: 0, description: "Failed deliveries queued again, each once." }),
  hooks: Type.Integer({ minimum: 0, description: "The hooks they were queued for." }),
  since: Type.String({ description: "The start of the window, as an ISO 8601 time." }),
});
export type HookRedeliveries = Static<typeof HookRedeliveries>;

/** What a redelivery answers with its 202: an empty object. */
export const Accepted = Type.Object({});
export type Accepted = Static<typeof Accepted>;

/**
 * The response shapes exactly as a server in one mode sends them: its serializers and its OpenAPI description.
 * @param numericIds `--numeric-ids`: ids as integers; otherwise as strings (then these equal the exports above).
 */
export function servedSchemas(numericIds: boolean) {
  const id = wireIdSchema(numericIds);
  return {
    Authorization: authorizationSchema(id),
    IssueEvent: issueEventSchema(id),
    IssueEventOfIssue: issueEventOfIssueSchema(id),
  };
}
/** An authorization as a server in either mode sends it. */
export type ServedAuthorization = Static<ReturnType<typeof servedSchemas>["Authorization"]>;
