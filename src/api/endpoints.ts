/**
 * THE endpoint table: every operation of the interface (spec section 4), shared by the server (which
 * registers routes and validates from it) and the client SDK (which generates its methods from it).
 * Endpoints are data; a new endpoint is one row here, its schema, and its route.
 * No Node-only imports: the client runs in browsers too.
 */

export type ParamLocation = "path" | "query" | "body";

/**
 * What a body value may be beyond strings, numbers as text and string arrays: a JSON boolean (`active`), GitHub's
 * string-or-number (`insecure_ssl`: `"0"` or `0`), or an object of such keys (a hook's `config`).
 */
export type FieldType = "string" | "string|number";

export interface ParamSpec {
  readonly in: ParamLocation;
  readonly type: "string" | "number" | "array" | "boolean" | "object" | "string|number";
  readonly required?: boolean;
  /** For query numbers that travel as text: the digits-only rule of spec section 8. */
  readonly pattern?: string;
  readonly max?: number;
  readonly default?: number;
  /** `null` is accepted and clears the stored value. */
  readonly nullable?: boolean;
  /** For objects: their keys and each key's type; every key optional, other keys ignored (as GitHub does). */
  readonly properties?: Readonly<Record<string, FieldType>>;
}

/**
 * How a caller must authenticate:
 * - `password`: Basic auth with login and password (plus OTP for two-factor users); tokens are refused.
 * - `optional`: anonymous callers are served public data; credentials, when sent, must be valid.
 * - `required`: any valid credential, password or token; anonymous callers get 401 "Requires authentication".
 */
export type AuthRequirement = "password" | "optional" | "required";

/** `empty`: 204 without a body; `accepted`: 202 with an empty object (GitHub's redelivery). */
export type ResponseKind = "Authorization" | "Authorization[]" | "Event[]" | "IssueEvent[]" | "empty" | "accepted"
  | "PrivateUser" | "PublicUser" | "Organization" | "Repository" | "RateLimit" | "Root" | "ApiOverview"
  | "Hook" | "Hook[]" | "OrgHook" | "OrgHook[]" | "WebhookConfig" | "HookDelivery" | "HookDeliveryItem[]";

export interface Endpoint {
  readonly method: "GET" | "POST" | "PATCH" | "DELETE";
  /** Fastify-style path with `:name` segments. */
  readonly path: string;
  readonly params: Readonly<Record<string, ParamSpec>>;
  readonly auth: AuthRequirement;
  /** Scopes the operation checks for, sent back as `X-Accepted-OAuth-Scopes`. */
  readonly acceptedScopes: readonly string[];
  readonly response: ResponseKind;
  /** The resource GitHub names in this operation's validation errors (`errors[].resource`). */
  readonly resource: string;
  /** The GitHub documentation anchor that error bodies of this operation point at. */
  readonly documentationUrl: string;
}

const DIGITS = "^[0-9]+$";
export const PER_PAGE_DEFAULT = 30;
export const PER_PAGE_MAX = 100;

const paging = {
  page: { in: "query", type: "number", pattern: DIGITS },
  per_page: { in: "query", type: "number", pattern: DIGITS, max: PER_PAGE_MAX, default: PER_PAGE_DEFAULT },
} as const satisfies Record<string, ParamSpec>;

const AUTH_DOCS = "https://developer.github.com/v3/oauth_authorizations/";
/** GitHub's internal name for the authorization object, which its 422 errors carry. */
const AUTHORIZATION = "OauthAccess";
const EVENTS_DOCS = "https://developer.github.com/v3/activity/events/";
/**
 * In 2013 GitHub accepted these scopes for the private feeds (wire notes 2.1): the feeds that may show private
 * events announce them in `X-Accepted-OAuth-Scopes`, and the feed service requires them, from this one list.
 */
export const PRIVATE_FEED_SCOPES = ["repo"] as const;

/** A feed row with its literal types kept (which path parameters, which element type), so the SDK's types follow the table. */
/** Required string path parameters, by name, with their literal types kept. */
type PathParams<P extends string> = { readonly [K in P]: { readonly in: "path"; readonly type: "string"; readonly required: true } };

function pathParams<P extends string>(names: readonly P[]): PathParams<P> {
  const params: Record<string, ParamSpec> = {};
  for (const name of names) params[name] = { in: "path", type: "string", required: true };
  return params as PathParams<P>;
}

export interface FeedEndpoint<P extends string, R extends ResponseKind> extends Endpoint {
  readonly method: "GET";
  readonly params: PathParams<P> & typeof paging;
  readonly response: R;
}

// NoInfer: inside the table's `satisfies`, an omitted `response` would otherwise be inferred from the context as
// the whole ResponseKind union instead of defaulting to "Event[]".
function feed<const P extends string = never, R extends ResponseKind = "Event[]">(path: string, names: readonly P[],
  response?: R, acceptedScopes: readonly string[] = []): FeedEndpoint<P, NoInfer<R>> {
  return {
    method: "GET", path, params: { ...pathParams(names), ...paging }, auth: "optional", acceptedScopes,
    response: response ?? ("Event[]" as R), resource: "Event", documentationUrl: EVENTS_DOCS,
  };
}

/** GitHub's documentation of the resources clients fetch before the feeds (the 2016 v3 pages). */
const V3_DOCS = "https://developer.github.com/v3";

/** A single resource, read-only: no paging, no scopes beyond what reading it needs. */
function resource<const P extends string = never, R extends ResponseKind = ResponseKind>(path: string, names: readonly P[],
  response: R, resourceName: string, documentationUrl: string, auth: AuthRequirement = "optional"): ResourceEndpoint<P, R> {
  return {
    method: "GET", path, params: pathParams(names), auth, acceptedScopes: [], response,
    resource: resourceName, documentationUrl,
  };
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
const hookCreateBody = { name: { in: "body", type: "string" }, ...hookBody } as const satisfies Record<string, ParamSpec>;
const hookUpdateBody = {
  ...hookBody, add_events: { in: "body", type: "array" }, remove_events: { in: "body", type: "array" },
} as const satisfies Record<string, ParamSpec>;
/** `PATCH .../config` takes the config's keys at the top level. */
const configBody = {
  url: { in: "body", type: "string" }, content_type: { in: "body", type: "string" }, secret: { in: "body", type: "string" },
  insecure_ssl: { in: "body", type: "string|number" },
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

/** One hook operation: callers without access get 404 (services/hooks.ts), so anonymous ones are let through to it. */
function hookRow<const M extends Endpoint["method"], const P extends Readonly<Record<string, ParamSpec>>, const R extends ResponseKind>(
  method: M, path: string, params: P, acceptedScopes: readonly string[], response: R, documentationUrl: string) {
  return { method, path, params, auth: "optional", acceptedScopes, response, resource: HOOK, documentationUrl } as const;
}

/**
 * The hooks of one kind of owner, under `base` (`/repos/:user/:repo` or `/orgs/:org`), with their response kinds
 * and GitHub's documentation (`docs`, a page whose anchors are `<operation>-<kind>-webhook`).
 */
function hookFamily<const P extends string, const H extends "Hook" | "OrgHook">(base: string, owner: readonly P[], hook: H,
  scopes: HookScopes, docs: string, kind: string) {
  const at = (anchor: string) => `${docs}#${anchor}`;
  const one = { ...pathParams(owner), ...pathParams(["hook_id"]) };
  const delivery = { ...one, ...pathParams(["delivery_id"]) };
  const hooks = `${base}/hooks`;
  const single = `${hooks}/:hook_id`;
  return {
    list: hookRow("GET", hooks, { ...pathParams(owner), ...paging }, scopes.read, `${hook}[]`, at(`list-${kind}-webhooks`)),
    create: hookRow("POST", hooks, { ...pathParams(owner), ...hookCreateBody },
      scopes.write, hook, at(`create-${kind}-webhook`)),
    get: hookRow("GET", single, one, scopes.read, hook, at(`get-${kind}-webhook`)),
    update: hookRow("PATCH", single, { ...one, ...hookUpdateBody }, scopes.write, hook, at(`update-${kind}-webhook`)),
    delete: hookRow("DELETE", single, one, scopes.admin, "empty", at(`delete-${kind}-webhook`)),
    getConfig: hookRow("GET", `${single}/config`, one, scopes.read, "WebhookConfig", at(`get-a-webhook-configuration-for-${kind}`)),
    updateConfig: hookRow("PATCH", `${single}/config`, { ...one, ...configBody }, scopes.write, "WebhookConfig",
      at(`update-a-webhook-configuration-for-${kind}`)),
    ping: hookRow("POST", `${single}/pings`, one, scopes.read, "empty", at(`ping-${kind}-webhook`)),
    listDeliveries: hookRow("GET", `${single}/deliveries`, { ...one, ...deliveryPaging }, scopes.read, "HookDeliveryItem[]",
      at(`list-deliveries-for-${kind}-webhook`)),
    getDelivery: hookRow("GET", `${single}/deliveries/:delivery_id`, delivery, scopes.read, "HookDelivery",
      at(`get-a-delivery-for-${kind}-webhook`)),
    redeliver: hookRow("POST", `${single}/deliveries/:delivery_id/attempts`, delivery, scopes.write, "accepted",
      at(`redeliver-a-delivery-for-${kind}-webhook`)),
  };
}

const repoHooks = hookFamily("/repos/:user/:repo", ["user", "repo"], "Hook", REPO_HOOK_SCOPES,
  "https://docs.github.com/rest/repos/webhooks", "a-repository");
const orgHooks = hookFamily("/orgs/:org", ["org"], "OrgHook", ORG_HOOK_SCOPES,
  "https://docs.github.com/rest/orgs/webhooks", "an-organization");

/** `list` -> `listForOrg`: the organization's operations sit beside the repository's in one family. */
type ForOrg<T> = { readonly [K in keyof T & string as `${K}ForOrg`]: T[K] };
const forOrg = <T extends object>(rows: T) =>
  Object.fromEntries(Object.entries(rows).map(([name, row]) => [`${name}ForOrg`, row])) as ForOrg<T>;

export const endpoints = {
  authorization: {
    getAll: {
      method: "GET", path: "/authorizations", params: paging, auth: "password", acceptedScopes: [],
      response: "Authorization[]", resource: AUTHORIZATION, documentationUrl: `${AUTH_DOCS}#list-your-authorizations`,
    },
    get: {
      method: "GET", path: "/authorizations/:id", params: { id: { in: "path", type: "string", required: true } },
      auth: "password", acceptedScopes: [], response: "Authorization", resource: AUTHORIZATION,
      documentationUrl: `${AUTH_DOCS}#get-a-single-authorization`,
    },
    create: {
      method: "POST", path: "/authorizations",
      params: {
        scopes: { in: "body", type: "array" },
        note: { in: "body", type: "string", nullable: true },
        note_url: { in: "body", type: "string", nullable: true },
        fingerprint: { in: "body", type: "string", nullable: true },
      },
      auth: "password", acceptedScopes: [], response: "Authorization", resource: AUTHORIZATION,
      documentationUrl: `${AUTH_DOCS}#create-a-new-authorization`,
    },
    update: {
      method: "PATCH", path: "/authorizations/:id",
      params: {
        id: { in: "path", type: "string", required: true },
        scopes: { in: "body", type: "array" },
        add_scopes: { in: "body", type: "array" },
        remove_scopes: { in: "body", type: "array" },
        note: { in: "body", type: "string", nullable: true },
        note_url: { in: "body", type: "string", nullable: true },
        fingerprint: { in: "body", type: "string", nullable: true },
      },
      auth: "password", acceptedScopes: [], response: "Authorization", resource: AUTHORIZATION,
      documentationUrl: `${AUTH_DOCS}#update-an-existing-authorization`,
    },
    delete: {
      method: "DELETE", path: "/authorizations/:id", params: { id: { in: "path", type: "string", required: true } },
      auth: "password", acceptedScopes: [], response: "empty", resource: AUTHORIZATION,
      documentationUrl: `${AUTH_DOCS}#delete-an-authorization`,
    },
  },
  events: {
    get: feed("/events", []),
    getFromRepo: feed("/repos/:user/:repo/events", ["user", "repo"], "Event[]", PRIVATE_FEED_SCOPES),
    getFromRepoIssues: feed("/repos/:user/:repo/issues/events", ["user", "repo"], "IssueEvent[]", PRIVATE_FEED_SCOPES),
    getFromRepoNetwork: feed("/networks/:user/:repo/events", ["user", "repo"]),
    getFromOrg: feed("/orgs/:org/events", ["org"]),
    getReceived: feed("/users/:user/received_events", ["user"], "Event[]", PRIVATE_FEED_SCOPES),
    getReceivedPublic: feed("/users/:user/received_events/public", ["user"]),
    getFromUser: feed("/users/:user/events", ["user"], "Event[]", PRIVATE_FEED_SCOPES),
    getFromUserPublic: feed("/users/:user/events/public", ["user"]),
    getFromUserOrg: feed("/users/:user/events/orgs/:org", ["user", "org"], "Event[]", PRIVATE_FEED_SCOPES),
  },
  // The resources GitHub clients fetch before the feeds (PyGithub's get_user, get_organization, get_repo), read-only.
  users: {
    getAuthenticated: resource("/user", [], "PrivateUser", "User", `${V3_DOCS}/users/#get-the-authenticated-user`, "required"),
    getByUsername: resource("/users/:user", ["user"], "PublicUser", "User", `${V3_DOCS}/users/#get-a-single-user`),
  },
  orgs: {
    get: resource("/orgs/:org", ["org"], "Organization", "Organization", `${V3_DOCS}/orgs/#get-an-organization`),
  },
  repos: {
    get: resource("/repos/:user/:repo", ["user", "repo"], "Repository", "Repository", `${V3_DOCS}/repos/#get`),
  },
  rateLimit: {
    get: resource("/rate_limit", [], "RateLimit", "RateLimit", `${V3_DOCS}/rate_limit/#get-your-current-rate-limit-status`),
  },
  meta: {
    root: resource("/", [], "Root", "Root", `${V3_DOCS}/#root-endpoint`),
    get: resource("/meta", [], "ApiOverview", "Meta", `${V3_DOCS}/meta/#meta`),
  },
  hooks: {
    ...repoHooks,
    // GitHub's "test the push repository webhook": repositories only, as organizations have no pushes of their own.
    test: hookRow("POST", "/repos/:user/:repo/hooks/:hook_id/tests", repoHooks.get.params, REPO_HOOK_SCOPES.write, "empty",
      "https://docs.github.com/rest/repos/webhooks#test-the-push-repository-webhook"),
    ...forOrg(orgHooks),
  },
} as const satisfies Record<string, Record<string, Endpoint>>;

export type Endpoints = typeof endpoints;
