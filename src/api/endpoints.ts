/**
 * THE endpoint table: every operation of the interface (spec section 4), shared by the server (which
 * registers routes and validates from it) and the client SDK (which generates its methods from it).
 * Endpoints are data; a new endpoint is one row here (with its OpenAPI summary and tag), its response kind
 * (./responses.ts), and its route. No Node-only imports: the client runs in browsers too.
 */
import { paging, type ParamSpec } from "./params.js";
import type { AcceptedPermissions } from "./permissions.js";
import type { OwnRateLimit } from "./rate-limit.js";
import type { ResponseKind } from "./responses.js";
import { issueEndpoints } from "./issue-endpoints.js";
import { searchEndpoints } from "./search-endpoints.js";
import { issueListEndpoints } from "./issue-list-endpoints.js";
import { commentEndpoints } from "./comment-endpoints.js";
import { activityEndpoints } from "./activity-endpoints.js";
import { labelEndpoints } from "./label-endpoints.js";
import { archiveEndpoints, branchEndpoints, commitEndpoints, contentEndpoints, gitEndpoints } from "./git-endpoints.js";
import { pullEndpoints } from "./pull-endpoints.js";
import { repositoryEndpoints } from "./repository-endpoints.js";
import { collaboratorEndpoints } from "./collaborator-endpoints.js";
import { applicationEndpoints } from "./application-endpoints.js";
import { appEndpoints } from "./app-endpoints.js";
import { checkEndpoints, statusEndpoints } from "./check-endpoints.js";
import { releaseEndpoints } from "./release-endpoints.js";
import { commitCommentEndpoints } from "./commit-comment-endpoints.js";
import { protectionEndpoints } from "./protection-endpoints.js";

export type { FieldType, ParamLocation, ParamSpec } from "./params.js";
export { PER_PAGE_DEFAULT, PER_PAGE_MAX } from "./params.js";
export type { ResponseKind } from "./responses.js";

/**
 * How a caller must authenticate:
 * - `password`: Basic auth with login and password (plus OTP for two-factor users); tokens are refused.
 * - `optional`: anonymous callers are served public data; credentials, when sent, must be valid.
 * - `required`: any valid credential, password or token; anonymous callers get 401 "Requires authentication".
 * - `anonymous`: no credential at all; a valid one is refused with 403 (GitHub's credential revocation: "Any
 *   authenticated requests will return a 403"). Invalid ones are the usual 401.
 * - `client`: Basic auth with an OAuth app's client id and secret, which the route checks: they are not a login.
 * - `app`: a GitHub App's JWT (`Bearer`), and nothing else: any other credential is GitHub's 401 "A JSON web token
 *   could not be decoded".
 */
export type AuthRequirement = "password" | "optional" | "required" | "anonymous" | "client" | "app";

export interface Endpoint {
  readonly method: "GET" | "POST" | "PATCH" | "PUT" | "DELETE";
  /** Fastify-style path with `:name` segments. */
  readonly path: string;
  readonly params: Readonly<Record<string, ParamSpec>>;
  readonly auth: AuthRequirement;
  /** Scopes the operation checks for, sent back as `X-Accepted-OAuth-Scopes`. */
  readonly acceptedScopes: readonly string[];
  /**
   * What a fine-grained token needs for the operation, sent back as `X-Accepted-GitHub-Permissions`: GitHub's
   * permissions page. Empty where GitHub allows permissionless access; the services check them on the resource.
   */
  readonly permissions: AcceptedPermissions;
  /** What a success answers with (./responses.ts: the kind's schema and status). */
  readonly response: ResponseKind;
  /** The resource GitHub names in this operation's validation errors (`errors[].resource`). */
  readonly resource: string;
  /** The GitHub documentation anchor that error bodies of this operation point at. */
  readonly documentationUrl: string;
  /** GitHub's title of the operation: the OpenAPI document's summary. */
  readonly summary: string;
  /** The OpenAPI tag the operation is listed under: its family in this table. */
  readonly tag: string;
  /** A rate-limit window of the operation's own instead of the caller's core window. */
  readonly rateLimit?: OwnRateLimit;
  /**
   * GitHub checks this operation's body against a JSON schema before anything else, and answers a required field
   * left out with its schema-validation words (`Invalid request.` + `"title" wasn't supplied.`, wire notes 3.4)
   * rather than `Validation Failed`.
   */
  readonly schemaChecked?: boolean;
  /** Answers 201 though its method is not POST (./responses.ts successStatus). */
  readonly creates?: true;
  /** A POST that answers 200, as GitHub's review writes do, making what is not a new resource of its own path. */
  readonly answers200?: true;
  /**
   * A path ending in Fastify's wildcard (`/git/ref/*`, `/contents/*`: a ref's name and a file's path hold slashes):
   * the name GitHub's description gives what it matches (`ref`, `path`), which the API description uses.
   */
  readonly wildcard?: string;
}

const AUTH_DOCS = "https://developer.github.com/v3/oauth_authorizations/";
/** GitHub's internal name for the authorization object, which its 422 errors carry. */
const AUTHORIZATION = "OauthAccess";
const EVENTS_DOCS = "https://developer.github.com/v3/activity/events/";
/**
 * In 2013 GitHub accepted these scopes for the private feeds (wire notes 2.1): the feeds that may show private
 * events announce them in `X-Accepted-OAuth-Scopes`, and the feed service requires them, from this one list.
 */
export const PRIVATE_FEED_SCOPES = ["repo"] as const;

/** Required string path parameters, by name, with their literal types kept. */
type PathParams<P extends string> = {
  readonly [K in P]: { readonly in: "path"; readonly type: "string"; readonly required: true };
};

function pathParams<P extends string>(names: readonly P[]): PathParams<P> {
  const params: Record<string, ParamSpec> = {};
  for (const name of names) params[name] = { in: "path", type: "string", required: true };
  return params as PathParams<P>;
}

/** A feed row with its literal types kept (which path parameters, which element type), so the SDK's types follow the table. */
export interface FeedEndpoint<P extends string, R extends ResponseKind> extends Endpoint {
  readonly method: "GET";
  readonly params: PathParams<P> & typeof paging;
  readonly response: R;
}

// NoInfer: inside the table's `satisfies`, an omitted `response` would otherwise be inferred from the context as
// the whole ResponseKind union instead of defaulting to "Event[]".
function feed<const P extends string = never, R extends ResponseKind = "Event[]">(
  summary: string,
  path: string,
  names: readonly P[],
  response?: R,
  acceptedScopes: readonly string[] = [],
  permissions: AcceptedPermissions = [],
): FeedEndpoint<P, NoInfer<R>> {
  return {
    method: "GET",
    path,
    params: { ...pathParams(names), ...paging },
    auth: "optional",
    acceptedScopes,
    permissions,
    response: response ?? ("Event[]" as R),
    resource: "Event",
    documentationUrl: EVENTS_DOCS,
    summary,
    tag: "events",
  };
}

/** GitHub's documentation of the resources clients fetch before the feeds (the 2016 v3 pages). */
const V3_DOCS = "https://developer.github.com/v3";

/** What a resource row says of itself: its OpenAPI tag and summary, GitHub's name for it and its documentation. */
interface ResourceTexts {
  readonly tag: string;
  readonly summary: string;
  readonly resource: string;
  readonly documentationUrl: string;
}

/** A single resource, read-only: no paging, no scopes beyond what reading it needs. */
function resource<const P extends string = never, R extends ResponseKind = ResponseKind>(
  path: string,
  names: readonly P[],
  response: R,
  texts: ResourceTexts,
  auth: AuthRequirement = "optional",
  permissions: AcceptedPermissions = [],
): ResourceEndpoint<P, R> {
  return { method: "GET", path, params: pathParams(names), auth, acceptedScopes: [], permissions, response, ...texts };
}

/** A resource row with its literal types kept, as FeedEndpoint does for feeds. */
export interface ResourceEndpoint<P extends string, R extends ResponseKind> extends Endpoint {
  readonly method: "GET";
  readonly params: PathParams<P>;
  readonly response: R;
}

// ---------------------------------------------------------------------------------------------------------
// Webhooks: GitHub's repository and organization hooks API, one family of rows made twice (./hooks rows below).

/** GitHub's internal name for a hook, which its 422 errors carry (`{"resource": "Hook", ...}`). */
const HOOK = "Hook";
/** A hook's `config` as create and update take it; `insecure_ssl` is `"0"`/`"1"` or a number. */
const HOOK_CONFIG = { url: "string", content_type: "string", secret: "string", insecure_ssl: "string|number" } as const;
const hookBody = {
  config: { in: "body", type: "object", properties: HOOK_CONFIG },
  events: { in: "body", type: "array" },
  active: { in: "body", type: "boolean" },
} as const satisfies Record<string, ParamSpec>;
const hookCreateBody = { name: { in: "body", type: "string" }, ...hookBody } as const satisfies Record<
  string,
  ParamSpec
>;
const hookUpdateBody = {
  ...hookBody,
  add_events: { in: "body", type: "array" },
  remove_events: { in: "body", type: "array" },
} as const satisfies Record<string, ParamSpec>;
/** `PATCH .../config` takes the config's keys at the top level. */
const configBody = {
  url: { in: "body", type: "string" },
  content_type: { in: "body", type: "string" },
  secret: { in: "body", type: "string" },
  insecure_ssl: { in: "body", type: "string|number" },
} as const satisfies Record<string, ParamSpec>;
/** A bulk redelivery's window (feedgate's own operation: GitHub leaves it to a script over the deliveries). */
const redeliveryBody = {
  since: {
    in: "body",
    type: "string",
    required: true,
    description:
      "Where the window starts: a duration back from now by the server's clock (`30m`, `2h`, `7d`) or an ISO " +
      "8601 time with a zone. Every delivery that failed since then is queued again, once (its last failed attempt's " +
      "GUID and body, marked as a redelivery); one that an attempt delivered, or that is queued already (a retry or a " +
      "redelivery still to make), is not. A window with no such delivery is 422 and queues nothing.",
  },
} as const satisfies Record<string, ParamSpec>;
/** GitHub pages deliveries with an opaque cursor (`v1_` and a delivery id here) instead of `page`. */
const deliveryPaging = {
  per_page: paging.per_page,
  cursor: { in: "query", type: "string", pattern: "^v1_[0-9]{1,15}$" },
} as const satisfies Record<string, ParamSpec>;

/**
 * The scopes each kind of operation accepts, as GitHub documented them: `read:repo_hook` reads and pings,
 * `write:repo_hook` also creates and changes, `admin:repo_hook` also deletes; `repo` grants all of it, `public_repo`
 * all of it on public repositories (services/hooks.ts applies that restriction). Organization hooks: `admin:org_hook`.
 * Listed whole, parents too: `X-Accepted-OAuth-Scopes` names them as GitHub does.
 */
export const REPO_HOOK_SCOPES = {
  read: ["admin:repo_hook", "public_repo", "read:repo_hook", "repo", "write:repo_hook"],
  write: ["admin:repo_hook", "public_repo", "repo", "write:repo_hook"],
  admin: ["admin:repo_hook", "public_repo", "repo"],
} as const;
const ORG_HOOK_SCOPES = { read: ["admin:org_hook"], write: ["admin:org_hook"], admin: ["admin:org_hook"] } as const;
type HookScopes = { readonly [K in keyof typeof REPO_HOOK_SCOPES]: readonly string[] };

/** What a hook operation accepts: the scopes of a classic token, the permissions of a fine-grained one. */
interface HookNeed {
  readonly acceptedScopes: readonly string[];
  readonly permissions: AcceptedPermissions;
}

/** The delivery an app's hook operation names. */
const APP_DELIVERY = { delivery_id: { in: "path", type: "string", required: true } } as const satisfies Record<
  string,
  ParamSpec
>;

/** An operation on a GitHub App's own webhook: the app's JWT (`auth: "app"`), as GitHub's `/app/hook/...`. */
function appHookRow<
  const M extends Endpoint["method"],
  const P extends Readonly<Record<string, ParamSpec>>,
  const R extends ResponseKind,
>(method: M, path: string, params: P, response: R, anchor: string, summary: string) {
  return {
    method,
    path,
    params,
    auth: "app",
    acceptedScopes: [],
    permissions: [],
    response,
    resource: HOOK,
    documentationUrl: `https://docs.github.com/rest/apps/webhooks#${anchor}`,
    summary,
    tag: "apps",
  } as const;
}

/** One hook operation: callers without access get 404 (services/hooks.ts), so anonymous ones are let through to it. */
function hookRow<
  const M extends Endpoint["method"],
  const P extends Readonly<Record<string, ParamSpec>>,
  const R extends ResponseKind,
>(method: M, path: string, params: P, need: HookNeed, response: R, documentationUrl: string, summary: string) {
  return {
    method,
    path,
    params,
    auth: "optional",
    ...need,
    response,
    resource: HOOK,
    documentationUrl,
    summary,
    tag: "hooks",
  } as const;
}

/** The operations of one owner's hooks, by what they do; GitHub's titles differ between owners by more than a word. */
type HookOperation =
  | "list"
  | "create"
  | "get"
  | "update"
  | "delete"
  | "getConfig"
  | "updateConfig"
  | "ping"
  | "listDeliveries"
  | "getDelivery"
  | "redeliver"
  | "redeliverFailed";

/**
 * The hooks of one kind of owner, under `base` (`/repos/:user/:repo` or `/orgs/:org`), with their response kinds,
 * the scopes and the fine-grained permission (`permission`, at read or write) they accept, GitHub's documentation
 * (`docs`, a page whose anchors are `<operation>-<kind>-webhook`) and its titles (`summaries`).
 */
function hookFamily<const P extends string, const H extends "Hook" | "OrgHook">(
  base: string,
  owner: readonly P[],
  hook: H,
  scopes: HookScopes,
  permission: "repository_hooks" | "organization_hooks",
  docs: string,
  kind: string,
  summaries: Readonly<Record<HookOperation, string>>,
) {
  // GitHub's permissions data: a repository's ping needs Webhooks read, an organization's Webhooks write.
  const pingAccess = permission === "repository_hooks" ? "read" : "write";
  const at = (anchor: string) => `${docs}#${anchor}`;
  const need = (access: keyof HookScopes): HookNeed => ({
    acceptedScopes: scopes[access],
    permissions: [{ [permission]: access === "read" ? "read" : "write" }],
  });
  const one = { ...pathParams(owner), ...pathParams(["hook_id"]) };
  const delivery = { ...one, ...pathParams(["delivery_id"]) };
  const hooks = `${base}/hooks`;
  const single = `${hooks}/:hook_id`;
  return {
    list: hookRow(
      "GET",
      hooks,
      { ...pathParams(owner), ...paging },
      need("read"),
      `${hook}[]`,
      at(`list-${kind}-webhooks`),
      summaries.list,
    ),
    create: hookRow(
      "POST",
      hooks,
      { ...pathParams(owner), ...hookCreateBody },
      need("write"),
      hook,
      at(`create-${kind}-webhook`),
      summaries.create,
    ),
    get: hookRow("GET", single, one, need("read"), hook, at(`get-${kind}-webhook`), summaries.get),
    update: hookRow(
      "PATCH",
      single,
      { ...one, ...hookUpdateBody },
      need("write"),
      hook,
      at(`update-${kind}-webhook`),
      summaries.update,
    ),
    delete: hookRow("DELETE", single, one, need("admin"), "empty", at(`delete-${kind}-webhook`), summaries.delete),
    getConfig: hookRow(
      "GET",
      `${single}/config`,
      one,
      need("read"),
      "WebhookConfig",
      at(`get-a-webhook-configuration-for-${kind}`),
      summaries.getConfig,
    ),
    updateConfig: hookRow(
      "PATCH",
      `${single}/config`,
      { ...one, ...configBody },
      need("write"),
      "WebhookConfig",
      at(`update-a-webhook-configuration-for-${kind}`),
      summaries.updateConfig,
    ),
    ping: hookRow(
      "POST",
      `${single}/pings`,
      one,
      need(pingAccess),
      "empty",
      at(`ping-${kind}-webhook`),
      summaries.ping,
    ),
    listDeliveries: hookRow(
      "GET",
      `${single}/deliveries`,
      { ...one, ...deliveryPaging },
      need("read"),
      "HookDeliveryItem[]",
      at(`list-deliveries-for-${kind}-webhook`),
      summaries.listDeliveries,
    ),
    getDelivery: hookRow(
      "GET",
      `${single}/deliveries/:delivery_id`,
      delivery,
      need("read"),
      "HookDelivery",
      at(`get-a-delivery-for-${kind}-webhook`),
      summaries.getDelivery,
    ),
    redeliver: hookRow(
      "POST",
      `${single}/deliveries/:delivery_id/attempts`,
      delivery,
      need("write"),
      "accepted",
      at(`redeliver-a-delivery-for-${kind}-webhook`),
      summaries.redeliver,
    ),
    // feedgate's own: every failed delivery of the owner's hooks since a time, as delivery services recover in bulk.
    redeliverFailed: hookRow(
      "POST",
      `${hooks}/redeliveries`,
      { ...pathParams(owner), ...redeliveryBody },
      need("write"),
      "HookRedeliveries",
      at(`redeliver-a-delivery-for-${kind}-webhook`),
      summaries.redeliverFailed,
    ),
  };
}

const repoHooks = hookFamily(
  "/repos/:user/:repo",
  ["user", "repo"],
  "Hook",
  REPO_HOOK_SCOPES,
  "repository_hooks",
  "https://docs.github.com/rest/repos/webhooks",
  "a-repository",
  {
    list: "List repository webhooks",
    create: "Create a repository webhook",
    get: "Get a repository webhook",
    update: "Update a repository webhook",
    delete: "Delete a repository webhook",
    getConfig: "Get a webhook configuration for a repository",
    updateConfig: "Update a webhook configuration for a repository",
    ping: "Ping a repository webhook",
    listDeliveries: "List deliveries for a repository webhook",
    getDelivery: "Get a delivery for a repository webhook",
    redeliver: "Redeliver a delivery for a repository webhook",
    redeliverFailed: "Redeliver the failed deliveries of a repository's webhooks since a time",
  },
);
const orgHooks = hookFamily(
  "/orgs/:org",
  ["org"],
  "OrgHook",
  ORG_HOOK_SCOPES,
  "organization_hooks",
  "https://docs.github.com/rest/orgs/webhooks",
  "an-organization",
  {
    list: "List organization webhooks",
    create: "Create an organization webhook",
    get: "Get an organization webhook",
    update: "Update an organization webhook",
    delete: "Delete an organization webhook",
    getConfig: "Get a webhook configuration for an organization",
    updateConfig: "Update a webhook configuration for an organization",
    ping: "Ping an organization webhook",
    listDeliveries: "List deliveries for an organization webhook",
    getDelivery: "Get a webhook delivery for an organization webhook",
    redeliver: "Redeliver a delivery for an organization webhook",
    redeliverFailed: "Redeliver the failed deliveries of an organization's webhooks since a time",
  },
);

/** `list` -> `listForOrg`: the organization's operations sit beside the repository's in one family. */
type ForOrg<T> = { readonly [K in keyof T & string as `${K}ForOrg`]: T[K] };
const forOrg = <T extends object>(rows: T) =>
  Object.fromEntries(Object.entries(rows).map(([name, row]) => [`${name}ForOrg`, row])) as ForOrg<T>;

/**
 * An authorization's expiry, as GitHub's token page sets it (7, 30, 60 or 90 days, a custom date, or none); the rules
 * are services/token-expiry.ts's.
 */
const EXPIRES_AT = {
  in: "body",
  type: "string",
  nullable: true,
  description:
    "When the token stops being accepted: an ISO 8601 time with a zone (`2026-02-14T10:00:00Z`), after now and " +
    "within `--token-max-lifetime` when the server sets one; null for never (refused when it does). Absent on create: " +
    "never, or the longest lifetime allowed; absent on update: unchanged. An expired token's expiry cannot be changed.",
} as const satisfies ParamSpec;

/**
 * Fine-grained personal access tokens: feedgate's own family, as GitHub makes them only on its web pages. Managed as
 * authorizations are, with the password (Basic auth and a one-time password); tokens are refused, as on GitHub.
 */
const PAT_DOCS =
  "https://docs.github.com/authentication/keeping-your-account-and-data-secure/managing-your-personal-access-tokens";
const FINE_GRAINED_TOKEN = "FineGrainedToken";
const patRow = <
  const M extends Endpoint["method"],
  const P extends Readonly<Record<string, ParamSpec>>,
  const R extends ResponseKind,
>(
  method: M,
  path: string,
  params: P,
  response: R,
  anchor: string,
  summary: string,
) =>
  ({
    method,
    path,
    params,
    auth: "password",
    acceptedScopes: [],
    permissions: [],
    response,
    resource: FINE_GRAINED_TOKEN,
    documentationUrl: `${PAT_DOCS}#${anchor}`,
    summary,
    tag: "personal-access-tokens",
  }) as const;
const PAT_ID = { id: { in: "path", type: "string", required: true } } as const;

export const endpoints = {
  authorization: {
    getAll: {
      method: "GET",
      path: "/authorizations",
      params: paging,
      auth: "password",
      acceptedScopes: [],
      permissions: [],
      response: "Authorization[]",
      resource: AUTHORIZATION,
      documentationUrl: `${AUTH_DOCS}#list-your-authorizations`,
      summary: "List your authorizations",
      tag: "authorization",
    },
    get: {
      method: "GET",
      path: "/authorizations/:id",
      params: { id: { in: "path", type: "string", required: true } },
      auth: "password",
      acceptedScopes: [],
      permissions: [],
      response: "Authorization",
      resource: AUTHORIZATION,
      documentationUrl: `${AUTH_DOCS}#get-a-single-authorization`,
      summary: "Get a single authorization",
      tag: "authorization",
    },
    create: {
      method: "POST",
      path: "/authorizations",
      params: {
        scopes: { in: "body", type: "array" },
        note: { in: "body", type: "string", nullable: true },
        note_url: { in: "body", type: "string", nullable: true },
        fingerprint: { in: "body", type: "string", nullable: true },
        expires_at: EXPIRES_AT,
      },
      auth: "password",
      acceptedScopes: [],
      permissions: [],
      response: "Authorization",
      resource: AUTHORIZATION,
      documentationUrl: `${AUTH_DOCS}#create-a-new-authorization`,
      summary: "Create a new authorization",
      tag: "authorization",
    },
    update: {
      method: "PATCH",
      path: "/authorizations/:id",
      params: {
        id: { in: "path", type: "string", required: true },
        scopes: { in: "body", type: "array" },
        add_scopes: { in: "body", type: "array" },
        remove_scopes: { in: "body", type: "array" },
        note: { in: "body", type: "string", nullable: true },
        note_url: { in: "body", type: "string", nullable: true },
        fingerprint: { in: "body", type: "string", nullable: true },
        expires_at: EXPIRES_AT,
      },
      auth: "password",
      acceptedScopes: [],
      permissions: [],
      response: "Authorization",
      resource: AUTHORIZATION,
      documentationUrl: `${AUTH_DOCS}#update-an-existing-authorization`,
      summary: "Update an existing authorization",
      tag: "authorization",
    },
    delete: {
      method: "DELETE",
      path: "/authorizations/:id",
      params: { id: { in: "path", type: "string", required: true } },
      auth: "password",
      acceptedScopes: [],
      permissions: [],
      response: "empty",
      resource: AUTHORIZATION,
      documentationUrl: `${AUTH_DOCS}#delete-an-authorization`,
      summary: "Delete an authorization",
      tag: "authorization",
    },
  },
  personalAccessTokens: {
    list: patRow(
      "GET",
      "/user/personal-access-tokens",
      paging,
      "FineGrainedToken[]",
      "fine-grained-personal-access-tokens",
      "List your fine-grained personal access tokens",
    ),
    get: patRow(
      "GET",
      "/user/personal-access-tokens/:id",
      PAT_ID,
      "FineGrainedToken",
      "fine-grained-personal-access-tokens",
      "Get a fine-grained personal access token",
    ),
    create: patRow(
      "POST",
      "/user/personal-access-tokens",
      {
        name: {
          in: "body",
          type: "string",
          required: true,
          description: "The token's name (GitHub's \"Token name\").",
        },
        description: { in: "body", type: "string", nullable: true },
        resource_owner: {
          in: "body",
          type: "string",
          description:
            "The login of the user or organization whose resources the token reaches: the caller (the default) " +
            "or an organization the caller belongs to.",
        },
        repository_selection: {
          in: "body",
          type: "string",
          description:
            '`none` (GitHub\'s "Public repositories", read-only; the default), `all` (every repository of the ' +
            'resource owner the caller can reach) or `subset` ("Only select repositories": those in `repositories`).',
        },
        repositories: {
          in: "body",
          type: "array",
          maxItems: 50,
          description:
            "With `subset`: the selected repositories, by full name (`owner/name`) or by name under the resource owner.",
        },
        permissions: {
          in: "body",
          type: "object",
          properties: { repository: "record", organization: "record" },
          description:
            "The permissions, by group and name as `X-Accepted-GitHub-Permissions` names them, each `read` or " +
            '`write`: `{"repository": {"repository_hooks": "write"}, "organization": {"organization_hooks": "read"}}`. ' +
            "`metadata: read` is always granted.",
        },
        expires_at: EXPIRES_AT,
      },
      "FineGrainedToken",
      "creating-a-fine-grained-personal-access-token",
      "Create a fine-grained personal access token",
    ),
    delete: patRow(
      "DELETE",
      "/user/personal-access-tokens/:id",
      PAT_ID,
      "empty",
      "deleting-a-personal-access-token",
      "Delete a fine-grained personal access token",
    ),
  },
  events: {
    get: feed("List public events", "/events", []),
    getFromRepo: feed(
      "List repository events",
      "/repos/:user/:repo/events",
      ["user", "repo"],
      "Event[]",
      PRIVATE_FEED_SCOPES,
      [{ metadata: "read" }],
    ),
    getFromRepoIssues: feed(
      "List issue events for a repository",
      "/repos/:user/:repo/issues/events",
      ["user", "repo"],
      "IssueEvent[]",
      PRIVATE_FEED_SCOPES,
      [{ issues: "read" }],
    ),
    getFromRepoNetwork: feed("List public events for a network of repositories", "/networks/:user/:repo/events", [
      "user",
      "repo",
    ]),
    getFromOrg: feed("List public events for an organization", "/orgs/:org/events", ["org"]),
    getReceived: feed(
      "List events that a user has received",
      "/users/:user/received_events",
      ["user"],
      "Event[]",
      PRIVATE_FEED_SCOPES,
    ),
    getReceivedPublic: feed("List public events that a user has received", "/users/:user/received_events/public", [
      "user",
    ]),
    getFromUser: feed(
      "List events performed by a user",
      "/users/:user/events",
      ["user"],
      "Event[]",
      PRIVATE_FEED_SCOPES,
    ),
    getFromUserPublic: feed("List public events performed by a user", "/users/:user/events/public", ["user"]),
    getFromUserOrg: feed(
      "List events for an organization (the user's dashboard)",
      "/users/:user/events/orgs/:org",
      ["user", "org"],
      "Event[]",
      PRIVATE_FEED_SCOPES,
      [{ organization_events: "read" }],
    ),
  },
  // The resources GitHub clients fetch before the feeds (PyGithub's get_user, get_organization, get_repo), read-only.
  users: {
    getAuthenticated: resource(
      "/user",
      [],
      "PrivateUser",
      {
        tag: "users",
        summary: "Get the authenticated user",
        resource: "User",
        documentationUrl: `${V3_DOCS}/users/#get-the-authenticated-user`,
      },
      "required",
    ),
    getByUsername: resource("/users/:user", ["user"], "PublicUser", {
      tag: "users",
      summary: "Get a user",
      resource: "User",
      documentationUrl: `${V3_DOCS}/users/#get-a-single-user`,
    }),
  },
  orgs: {
    get: resource("/orgs/:org", ["org"], "Organization", {
      tag: "orgs",
      summary: "Get an organization",
      resource: "Organization",
      documentationUrl: `${V3_DOCS}/orgs/#get-an-organization`,
    }),
  },
  repos: {
    get: resource(
      "/repos/:user/:repo",
      ["user", "repo"],
      "Repository",
      {
        tag: "repos",
        summary: "Get a repository",
        resource: "Repository",
        documentationUrl: `${V3_DOCS}/repos/#get`,
      },
      "optional",
      [{ metadata: "read" }],
    ),
    ...repositoryEndpoints,
  },
  rateLimit: {
    get: resource("/rate_limit", [], "RateLimit", {
      tag: "rateLimit",
      summary: "Get rate limit status for the authenticated user",
      resource: "RateLimit",
      documentationUrl: `${V3_DOCS}/rate_limit/#get-your-current-rate-limit-status`,
    }),
  },
  meta: {
    root: resource("/", [], "Root", {
      tag: "meta",
      summary: "GitHub API Root",
      resource: "Root",
      documentationUrl: `${V3_DOCS}/#root-endpoint`,
    }),
    get: resource("/meta", [], "ApiOverview", {
      tag: "meta",
      summary: "Get GitHub meta information",
      resource: "Meta",
      documentationUrl: `${V3_DOCS}/meta/#meta`,
    }),
  },
  credentials: {
    // https://docs.github.com/rest/credentials/revoke: unauthenticated, at most 1000 tokens a request, 60 requests an
    // hour; 422 "Validation failed, or the endpoint has been spammed" for bad lists and for a spent limit alike.
    revoke: {
      method: "POST",
      path: "/credentials/revoke",
      params: { credentials: { in: "body", type: "array", required: true, minItems: 1, maxItems: 1000 } },
      auth: "anonymous",
      acceptedScopes: [],
      permissions: [],
      response: "accepted",
      resource: "Credential",
      documentationUrl: "https://docs.github.com/rest/credentials/revoke#revoke-a-list-of-credentials",
      summary: "Revoke a list of credentials",
      tag: "credentials",
      rateLimit: { resource: "credentials_revoke", limit: 60, windowSeconds: 3600, status: 422 },
    },
  },
  labels: labelEndpoints,
  git: gitEndpoints,
  contents: contentEndpoints,
  archives: archiveEndpoints,
  branches: branchEndpoints,
  commits: commitEndpoints,
  pulls: pullEndpoints,
  statuses: statusEndpoints,
  checks: checkEndpoints,
  releases: releaseEndpoints,
  commitComments: commitCommentEndpoints,
  branchProtection: protectionEndpoints,
  applications: applicationEndpoints,
  issues: issueEndpoints,
  search: searchEndpoints,
  issueLists: issueListEndpoints,
  comments: commentEndpoints,
  hooks: {
    ...repoHooks,
    // GitHub's "test the push repository webhook": repositories only, as organizations have no pushes of their own.
    test: hookRow(
      "POST",
      "/repos/:user/:repo/hooks/:hook_id/tests",
      repoHooks.get.params,
      { acceptedScopes: REPO_HOOK_SCOPES.write, permissions: repoHooks.update.permissions },
      "empty",
      "https://docs.github.com/rest/repos/webhooks#test-the-push-repository-webhook",
      "Test the push repository webhook",
    ),
    ...forOrg(orgHooks),
    // Every hook's failed deliveries: site administrators only (anyone else gets 404, as for /admin/events).
    redeliverAllFailed: {
      method: "POST",
      path: "/admin/hooks/redeliveries",
      params: redeliveryBody,
      auth: "optional",
      acceptedScopes: ["site_admin"],
      permissions: [],
      response: "HookRedeliveries",
      resource: HOOK,
      documentationUrl: "https://docs.github.com/rest/repos/webhooks#redeliver-a-delivery-for-a-repository-webhook",
      summary: "Redeliver the failed deliveries of every webhook since a time",
      tag: "hooks",
    },
  },
  activity: activityEndpoints,
  collaborators: collaboratorEndpoints,
  apps: appEndpoints,
  appHook: {
    getConfig: appHookRow(
      "GET",
      "/app/hook/config",
      {},
      "WebhookConfig",
      "get-a-webhook-configuration-for-an-app",
      "Get a webhook configuration for an app",
    ),
    updateConfig: appHookRow(
      "PATCH",
      "/app/hook/config",
      configBody,
      "WebhookConfig",
      "update-a-webhook-configuration-for-an-app",
      "Update a webhook configuration for an app",
    ),
    listDeliveries: appHookRow(
      "GET",
      "/app/hook/deliveries",
      deliveryPaging,
      "HookDeliveryItem[]",
      "list-deliveries-for-an-app-webhook",
      "List deliveries for an app webhook",
    ),
    getDelivery: appHookRow(
      "GET",
      "/app/hook/deliveries/:delivery_id",
      APP_DELIVERY,
      "HookDelivery",
      "get-a-delivery-for-an-app-webhook",
      "Get a delivery for an app webhook",
    ),
    redeliver: appHookRow(
      "POST",
      "/app/hook/deliveries/:delivery_id/attempts",
      APP_DELIVERY,
      "accepted",
      "redeliver-a-delivery-for-an-app-webhook",
      "Redeliver a delivery for an app webhook",
    ),
  },
} as const satisfies Record<string, Record<string, Endpoint>>;

export type Endpoints = typeof endpoints;
