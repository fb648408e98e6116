/**
 * The OpenAPI 3.1 description, derived at start-up from what the server registers: @fastify/swagger collects
 * every route with its request schemas, `transform` names each operation from its endpoint-table row (route
 * config `endpoint`) and `transformObject` gives it the responses that the row's `response` kind and the
 * plugins (rate limit, conditional requests, paging, errors) imply. Responses are described here only, never
 * as route response schemas: Fastify would then re-serialize feed pages, which leave as the stored bytes.
 * Routes outside the table (probes, metrics, admin ingest, this description) are described in OTHER_ROUTES.
 */
import { Type, type TSchema } from "@sinclair/typebox";
import type { FastifySchema, RouteOptions } from "fastify";
import type { FastifyDynamicSwaggerOptions } from "@fastify/swagger";
import type { OpenAPIV3_1 } from "openapi-types";
import { endpoints, type Endpoint, type Endpoints, type ParamSpec, type ResponseKind } from "../api/endpoints.js";
import {
  Accepted, ApiOverview, ErrorBody, Event, Hook, HookDelivery, HookDeliveryItem, Organization, OrgHook, PrivateUser,
  PublicUser, RateLimit, Repository, Root, servedSchemas, WebhookConfig,
} from "../api/schemas.js";
import { SUPPORTED_VERSION } from "../api/versions.js";

type Json = Record<string, unknown>;
type Responses = Record<string, OpenAPIV3_1.ResponseObject | OpenAPIV3_1.ReferenceObject>;
type Security = { [scheme: string]: string[] }[];

/** Where `transform` leaves an operation's responses for `transformObject`: an `x-` key, which @fastify/swagger copies as it is. */
const RESPONSES = "x-feedgate-responses";

/** The probes', metrics' and ingest routes' bodies; the API's own shapes come from src/api/schemas.ts. */
const Health = Type.Object({ status: Type.Literal("ok") });
const Readiness = Type.Object({
  status: Type.Union([Type.Literal("ok"), Type.Literal("unavailable")]),
  checks: Type.Record(Type.String(), Type.String(), { description: '"ok", or what went wrong, by dependency' }),
});
const count = Type.Integer({ minimum: 0 });
const IngestSummary = Type.Object({
  events_added: count, events_skipped: count, issue_events_added: count, issue_events_skipped: count,
});

/** The document's schemas, with the ids this server sends: strings, or integers with `--numeric-ids`. */
const schemas = (numericIds: boolean): Record<string, TSchema> => ({
  ...servedSchemas(numericIds), Event, ErrorBody, Health, Readiness, IngestSummary,
  PrivateUser, PublicUser, Organization, Repository, RateLimit, Root, ApiOverview,
  Hook, OrgHook, WebhookConfig, HookDelivery, HookDeliveryItem, Accepted,
});
type SchemaName = "Authorization" | "Event" | "IssueEvent" | "ErrorBody" | "Health" | "Readiness" | "IngestSummary"
  | "PrivateUser" | "PublicUser" | "Organization" | "Repository" | "RateLimit" | "Root" | "ApiOverview"
  | "Hook" | "OrgHook" | "WebhookConfig" | "HookDelivery" | "HookDeliveryItem" | "Accepted";
const schemaRef = (name: SchemaName) => ({ $ref: `#/components/schemas/${name}` });

/** What each response kind of the table looks like on the wire; null: no body. */
const RESPONSE_BODIES: Record<ResponseKind, Json | null> = {
  Authorization: schemaRef("Authorization"),
  "Authorization[]": { type: "array", items: schemaRef("Authorization") },
  "Event[]": { type: "array", items: schemaRef("Event") },
  "IssueEvent[]": { type: "array", items: schemaRef("IssueEvent") },
  empty: null,
  accepted: schemaRef("Accepted"),
  PrivateUser: schemaRef("PrivateUser"),
  PublicUser: schemaRef("PublicUser"),
  Organization: schemaRef("Organization"),
  Repository: schemaRef("Repository"),
  RateLimit: schemaRef("RateLimit"),
  Root: schemaRef("Root"),
  ApiOverview: schemaRef("ApiOverview"),
  Hook: schemaRef("Hook"),
  "Hook[]": { type: "array", items: schemaRef("Hook") },
  OrgHook: schemaRef("OrgHook"),
  "OrgHook[]": { type: "array", items: schemaRef("OrgHook") },
  WebhookConfig: schemaRef("WebhookConfig"),
  HookDelivery: schemaRef("HookDelivery"),
  "HookDeliveryItem[]": { type: "array", items: schemaRef("HookDeliveryItem") },
};

/** GitHub's titles for the operations; typed by the table, so a new row does not compile without one. */
const SUMMARIES: { readonly [F in keyof Endpoints]: { readonly [O in keyof Endpoints[F]]: string } } = {
  authorization: {
    getAll: "List your authorizations",
    get: "Get a single authorization",
    create: "Create a new authorization",
    update: "Update an existing authorization",
    delete: "Delete an authorization",
  },
  events: {
    get: "List public events",
    getFromRepo: "List repository events",
    getFromRepoIssues: "List issue events for a repository",
    getFromRepoNetwork: "List public events for a network of repositories",
    getFromOrg: "List public events for an organization",
    getReceived: "List events that a user has received",
    getReceivedPublic: "List public events that a user has received",
    getFromUser: "List events performed by a user",
    getFromUserPublic: "List public events performed by a user",
    getFromUserOrg: "List events for an organization (the user's dashboard)",
  },
  users: {
    getAuthenticated: "Get the authenticated user",
    getByUsername: "Get a user",
  },
  orgs: { get: "Get an organization" },
  repos: { get: "Get a repository" },
  rateLimit: { get: "Get rate limit status for the authenticated user" },
  meta: {
    root: "GitHub API Root",
    get: "Get GitHub meta information",
  },
  hooks: {
    list: "List repository webhooks",
    create: "Create a repository webhook",
    get: "Get a repository webhook",
    update: "Update a repository webhook",
    delete: "Delete a repository webhook",
    getConfig: "Get a webhook configuration for a repository",
    updateConfig: "Update a webhook configuration for a repository",
    ping: "Ping a repository webhook",
    test: "Test the push repository webhook",
    listDeliveries: "List deliveries for a repository webhook",
    getDelivery: "Get a delivery for a repository webhook",
    redeliver: "Redeliver a delivery for a repository webhook",
    listForOrg: "List organization webhooks",
    createForOrg: "Create an organization webhook",
    getForOrg: "Get an organization webhook",
    updateForOrg: "Update an organization webhook",
    deleteForOrg: "Delete an organization webhook",
    getConfigForOrg: "Get a webhook configuration for an organization",
    updateConfigForOrg: "Update a webhook configuration for an organization",
    pingForOrg: "Ping an organization webhook",
    listDeliveriesForOrg: "List deliveries for an organization webhook",
    getDeliveryForOrg: "Get a webhook delivery for an organization webhook",
    redeliverForOrg: "Redeliver a delivery for an organization webhook",
  },
};

/** Each row of the table and its operation name (`events.getFromRepo`), found by identity: routes carry the row itself. */
const OPERATIONS = new Map<Endpoint, { name: string; summary: string; tag: string }>(
  Object.entries(endpoints).flatMap(([family, rows]) => Object.entries(rows).map(([name, row]) => [row as Endpoint, {
    name: `${family}.${name}`, tag: family, summary: (SUMMARIES as Record<string, Record<string, string>>)[family]![name]!,
  }] as const)),
);

const TAGS = [
  { name: "authorization", description: "OAuth-style tokens with scopes, managed with the account's password" },
  { name: "events", description: "Activity feeds, newest first, paged" },
  { name: "admin", description: "Ingest for site administrators; 404 for everyone else" },
  { name: "users", description: "Accounts, as GitHub's user objects: the caller's own, or any by login or id" },
  { name: "orgs", description: "Organizations, as GitHub's organization objects, by login or id" },
  { name: "repos", description: "Repositories, as GitHub's repository objects, by name or id; private ones only to their readers" },
  { name: "hooks", description: "Repository and organization webhooks and their deliveries; 404 for anyone who may not manage them" },
  { name: "rateLimit", description: "The caller's rate-limit window; not counted against it" },
  { name: "meta", description: "The API root's URL templates, GitHub's meta information, probes, metrics and this description" },
];

const SECURITY_SCHEMES: Record<string, OpenAPIV3_1.SecuritySchemeObject> = {
  basicAuth: {
    type: "http", scheme: "basic",
    description: "login:password. A token as the password works too, except for managing authorizations.",
  },
  githubOtp: {
    type: "apiKey", in: "header", name: "X-GitHub-OTP",
    description: "The current one-time code of a two-factor account, sent with Basic auth.",
  },
  serviceOtp: { type: "apiKey", in: "header", name: "X-Service-OTP", description: "Same as X-GitHub-OTP." },
  tokenAuth: {
    type: "apiKey", in: "header", name: "Authorization",
    description: "A token, as `Authorization: token <token>` (enter the whole value, `token ...`).",
  },
  bearerAuth: { type: "http", scheme: "bearer", description: "A token, as `Authorization: Bearer <token>`." },
  accessToken: { type: "apiKey", in: "query", name: "access_token", description: "A token in the query string." },
};

const PASSWORD: Security = [{ basicAuth: [] }, { basicAuth: [], githubOtp: [] }, { basicAuth: [], serviceOtp: [] }];
/** Role names in a requirement are allowed for any scheme type since OpenAPI 3.1: here, the token's scopes. */
const TOKEN = (scopes: string[]): Security => [{ tokenAuth: scopes }, { bearerAuth: scopes }, { accessToken: scopes }];
const SECURITY = {
  password: PASSWORD,
  // `{}`: anonymous callers are served; credentials, when sent, must be valid.
  optional: [{}, ...PASSWORD, ...TOKEN([])],
  required: [...PASSWORD, ...TOKEN([])],
  siteAdmin: [...PASSWORD, ...TOKEN(["site_admin"])],
} satisfies Record<string, Security>;

const HEADERS: Record<string, [type: "string" | "integer", description: string]> = {
  Status: ["string", "The status line, as GitHub sends it (`200 OK`)."],
  "X-GitHub-Media-Type": ["string", "The media type served: `github.v3; format=json`."],
  "X-GitHub-Request-Id": ["string", "This request's id, as in the server's log lines."],
  "Cache-Control": ["string", "`public` or `private, max-age=60, s-maxage=60` on 200 and 304 GETs; `no-store` otherwise."],
  "X-OAuth-Scopes": ["string", "Token-authenticated requests only: the token's scopes, comma-separated."],
  "X-Accepted-OAuth-Scopes": ["string", "Token-authenticated requests only: the scopes this operation checks for."],
  "X-RateLimit-Limit": ["integer", "Requests allowed in the window: per user when authenticated, per client IP otherwise."],
  "X-RateLimit-Remaining": ["integer", "Requests left in the window."],
  "X-RateLimit-Reset": ["integer", "When the window ends, in epoch seconds."],
  "X-RateLimit-Used": ["integer", "Requests used in the window."],
  "X-RateLimit-Resource": ["string", "The limit's resource: `core`."],
  ETag: ["string", "Strong validator of the body; send it back in `If-None-Match` for a 304."],
  "Last-Modified": ["string", "Where a time applies: the newest event's, or the authorization's `updated_at`."],
  Link: ["string", "`<url>; rel=\"prev\"`, `next`, `last`, `first`, when the list spans pages."],
  "X-Poll-Interval": ["integer", "Seconds a poller should wait before asking again."],
  Location: ["string", "The new authorization's or hook's URL."],
  "Retry-After": ["integer", "Seconds to wait before retrying."],
  "X-GitHub-OTP": ["string", "`required; app` when a two-factor account sent no valid one-time code."],
  "X-Service-OTP": ["string", "Same as X-GitHub-OTP."],
};
const RATE_LIMIT_HEADERS = Object.keys(HEADERS).filter((name) => name.startsWith("X-RateLimit-"));
const ALWAYS_HEADERS = ["Status", "X-GitHub-Media-Type", "X-GitHub-Request-Id", "Cache-Control", "X-OAuth-Scopes",
  "X-Accepted-OAuth-Scopes"];

const CONDITIONAL_PARAMETERS: Record<string, OpenAPIV3_1.ParameterObject> = {
  "If-None-Match": {
    name: "If-None-Match", in: "header", schema: { type: "string" },
    description: "An ETag from an earlier answer: 304 without a body, and no rate limit used, while it still matches.",
  },
  "If-Modified-Since": {
    name: "If-Modified-Since", in: "header", schema: { type: "string" },
    description: "A Last-Modified from an earlier answer: 304 when nothing is newer.",
  },
};

const ERRORS: Record<number, string> = {
  400: "Problems parsing JSON, a body that is not a JSON object, an undecodable URL or Host, or an unsupported X-GitHub-Api-Version",
  401: "Bad credentials, or a two-factor account's missing one-time code",
  403: "Rate limit exceeded, too many failed logins, a token where a password is required, or a token without the scope",
  404: "Not Found: unknown, or not visible to the caller",
  413: "Request body is too large",
  415: "The Accept header names an unsupported version",
  422: "Validation Failed: `page`/`per_page` not digits, a page beyond the feed's limit, or a body field of the wrong type",
  500: "Server Error",
  503: "Service Unavailable: the database or the rate-limit store cannot be reached",
};
/** Headers an error response adds to the usual ones. */
const ERROR_HEADERS: Record<number, string[]> = { 401: ["X-GitHub-OTP", "X-Service-OTP"], 503: ["Retry-After"] };

const json = (schema: Json, description: string) => ({ description, content: { "application/json": { schema } } });

interface OtherRoute {
  operationId: string;
  tag: string;
  summary: string;
  description: string;
  security: Security;
  /** Documentation-only request body (the route reads raw text, so it has no body schema). */
  body?: FastifySchema["body"];
  success: Responses;
  /** false where every answer differs from the last (metrics count their own scrapes), so no ETag ever matches. */
  conditional?: false;
}

/** Routes outside the endpoint table, by `METHOD url`. */
const OTHER_ROUTES: Record<string, OtherRoute> = {
  "GET /healthz": {
    operationId: "meta.healthz", tag: "meta", summary: "Liveness probe", security: SECURITY.optional,
    description: "200 while the process is up, whatever the database does.",
    success: { 200: json(schemaRef("Health"), "The process is up") },
  },
  "GET /readyz": {
    operationId: "meta.readyz", tag: "meta", summary: "Readiness probe", security: SECURITY.optional,
    description: "200 when the database and the rate-limit store answer, 503 otherwise.",
    success: {
      200: json(schemaRef("Readiness"), "Ready"),
      503: json({ anyOf: [schemaRef("Readiness"), schemaRef("ErrorBody")] }, "Not ready: the failing dependencies"),
    },
  },
  "GET /metrics": {
    operationId: "meta.metrics", tag: "meta", summary: "Prometheus metrics", security: SECURITY.optional,
    description: "The Prometheus text format. Absent here when `--metrics-port` serves it on a port of its own.",
    conditional: false,
    success: { 200: { description: "Metrics", content: { "text/plain": { schema: { type: "string" } } } } },
  },
  "GET /openapi.json": {
    operationId: "meta.openapi", tag: "meta", summary: "This API description", security: SECURITY.optional,
    description: "OpenAPI 3.1, generated from the routes and schemas the server registers. `/docs` browses it.",
    success: { 200: json({ type: "object" }, "The OpenAPI document") },
  },
  "POST /admin/events": {
    operationId: "admin.ingestEvents", tag: "admin", summary: "Ingest events", security: SECURITY.siteAdmin,
    description: "Site administrators only (Basic auth, or a token with `site_admin`); anyone else gets 404. " +
      "Events already stored (by id) are skipped. All or nothing: one bad line refuses the whole body (400 or 422) and " +
      "writes nothing (`feedgate import` skips bad lines instead). An empty body is 400. `Content-Encoding: gzip` is " +
      "accepted, the body limit counting inflated bytes (413); other encodings are 415.",
    body: {
      content: {
        "application/x-ndjson": { schema: { type: "string", description: "One event per line, as GH Archive has them" } },
        "application/json": { schema: { type: "array", items: Event } },
      },
    },
    success: { 200: json(schemaRef("IngestSummary"), "What was added and skipped") },
  },
  "POST /admin/world": {
    operationId: "admin.seedWorld", tag: "admin", summary: "Load a world document", security: SECURITY.siteAdmin,
    description: "Site administrators only; anyone else gets 404. A world document as `feedgate seed` reads it " +
      "(users, orgs, repos, tokens, events, issue_events; not events_files), in one transaction: an error writes " +
      "nothing. An empty body is 400; `Content-Encoding: gzip` is accepted as for `/admin/events`.",
    body: { content: { "application/json": { schema: { type: "object", description: "A world document" } } } },
    success: { 200: json(schemaRef("IngestSummary"), "What was added and skipped") },
  },
};

const PATH_PARAMETERS: Record<string, string> = {
  user: "An account's login", repo: "A repository's name", org: "An organization's login", id: "The authorization's id",
  hook_id: "The hook's id", delivery_id: "The delivery's id",
};
/** GitHub's id-based paths (`/repositories/:id/events`) name what the id is by their first segment. */
const ID_KINDS: Record<string, string> = { repositories: "repository", organizations: "organization", user: "user" };

const openapiPath = (url: string) => url.replace(/:(\w+)/g, "{$1}");

/** The documented form of a query parameter: its pattern, bound and default from the table row. */
function describeParam(spec: ParamSpec): string {
  return [
    spec.pattern ? `Digits only (\`${spec.pattern}\`).` : "",
    spec.max !== undefined ? `At most ${spec.max}; larger values are served as ${spec.max}.` : "",
    spec.default !== undefined ? `Default ${spec.default}.` : "",
  ].filter(Boolean).join(" ");
}

function withDescriptions(schema: unknown, describe: (name: string) => Json): unknown {
  const object = schema as { properties?: Record<string, Json> } | undefined;
  if (!object?.properties) return schema;
  const properties = Object.fromEntries(Object.entries(object.properties).map(([name, property]) => [name, { ...property, ...describe(name) }]));
  return { ...object, properties };
}

/** What the row's accepted scopes are for: private events in feeds, hooks otherwise. */
function scopesText(endpoint: Endpoint): string {
  const scopes = `\`${endpoint.acceptedScopes.join("` or `")}\``;
  if (endpoint.resource !== "Hook") return `Private events are included for a caller who may read them, with a password or a token with ${scopes}.`;
  return `For the repository's owner, members of the organization that owns it, and site administrators (organization hooks: ` +
    `its members and site administrators), with a password or a token with ${scopes}` +
    `${endpoint.acceptedScopes.includes("public_repo") ? " (`public_repo`: public repositories only)" : ""}; anyone else gets 404.`;
}

/** The route as its table row describes it: operation name, texts, security, parameter descriptions. */
function fromTable(route: RouteOptions, schema: FastifySchema, endpoint: Endpoint) {
  const operation = OPERATIONS.get(endpoint);
  if (!operation) return null;
  const method = String(route.method);
  const byId = route.url !== endpoint.path;
  const idKind = ID_KINDS[route.url.split("/")[1] ?? ""];
  // A second route for one row (GitHub's id-based path, POST for PATCH) needs an operationId of its own.
  const operationId = `${operation.name}${byId ? "ById" : ""}${method !== endpoint.method ? `With${method[0]}${method.slice(1).toLowerCase()}` : ""}`;
  const description = [
    byId ? `GitHub's id-based form of \`${endpoint.method} ${openapiPath(endpoint.path)}\`: the same ${endpoint.response.endsWith("[]") ? "feed" : "resource"}, found by the ${idKind}'s numeric id.` : "",
    method !== endpoint.method ? `The same as \`${endpoint.method} ${openapiPath(endpoint.path)}\`, for clients that cannot send ${endpoint.method}.` : "",
    endpoint.auth === "password"
      ? "Basic authentication with the account's password (and a two-factor account's one-time code) only: a token is refused with 403."
      : endpoint.auth === "required" ? "Any valid credential, password or token; anonymous callers get 401 \"Requires authentication\"."
        : "Anonymous callers see public data; credentials, when sent, must be valid.",
    endpoint.acceptedScopes.length > 0 ? scopesText(endpoint) : "",
    endpoint.params.cursor ? "Paged with `per_page` and `cursor`; the `Link` header names the next page (`rel=\"next\"`)."
      : endpoint.params.per_page ? "Paged with `page` and `per_page`; the `Link` header names the other pages." : "",
  ].filter(Boolean).join(" ");
  const pathParams = schema.params ?? (byId
    ? { type: "object", properties: { id: { type: "string" } }, required: ["id"] } : undefined);
  return {
    ...schema,
    operationId,
    summary: byId ? `${operation.summary} (by ${idKind} id)` : operation.summary,
    description,
    tags: [operation.tag],
    externalDocs: { url: endpoint.documentationUrl, description: "GitHub's documentation of the operation" },
    security: SECURITY[endpoint.auth],
    params: withDescriptions(pathParams, (name) => ({
      description: byId && name === "id" ? `The ${idKind}'s numeric id` : PATH_PARAMETERS[name] ?? "",
    })),
    querystring: withDescriptions(schema.querystring, (name) => {
      const spec = endpoint.params[name];
      return spec ? { description: describeParam(spec), ...(spec.default !== undefined ? { default: String(spec.default) } : {}) } : {};
    }),
    [RESPONSES]: tableResponses(route, endpoint),
  };
}

const header = (name: string) => ({ $ref: `#/components/headers/${name}` });
const headers = (names: string[]) => Object.fromEntries(names.map((name) => [name, header(name)]));

const errorName = (status: number, rateLimited: boolean) => `Error${status}${rateLimited ? "" : "NotRateLimited"}`;

/** Every error response, once with the rate-limit headers and once without; operations refer to them. */
const ERROR_RESPONSES = Object.fromEntries([true, false].flatMap((rateLimited) => Object.entries(ERRORS).map(([status, text]) => [
  errorName(Number(status), rateLimited), {
    ...json(schemaRef("ErrorBody"), text),
    headers: headers([...ALWAYS_HEADERS, ...(rateLimited ? RATE_LIMIT_HEADERS : []), ...(ERROR_HEADERS[Number(status)] ?? [])]),
  },
])));

/** Error responses a route can give, by what it takes (path parameters, query, body) and who may call it. */
function errorResponses(route: RouteOptions, extra: { notFound: boolean; unprocessable: boolean }) {
  const method = String(route.method);
  const statuses = [400, 401, 403, 415, 500, 503];
  if (extra.notFound || route.url.includes(":")) statuses.push(404);
  if (extra.unprocessable || method === "POST" || method === "PATCH") statuses.push(422);
  if (method === "POST" || method === "PATCH") statuses.push(413);
  const rateLimited = route.config?.rateLimit !== false;
  return Object.fromEntries(statuses.sort().map((status) =>
    [status, { $ref: `#/components/responses/${errorName(status, rateLimited)}` }]));
}

const commonHeaders = (route: RouteOptions) =>
  [...ALWAYS_HEADERS, ...(route.config?.rateLimit === false ? [] : RATE_LIMIT_HEADERS)];

function tableResponses(route: RouteOptions, endpoint: Endpoint): Responses {
  const method = String(route.method);
  const common = commonHeaders(route);
  const body = RESPONSE_BODIES[endpoint.response];
  const list = endpoint.response.endsWith("[]");
  const status = body === null ? 204 : endpoint.response === "accepted" ? 202
    : method === "POST" && endpoint.method === "POST" ? 201 : 200;
  const successHeaders = [...common,
    ...(method === "GET" ? ["ETag", "Last-Modified"] : []),
    ...(list ? ["Link"] : []),
    ...(endpoint.response === "Event[]" || endpoint.response === "IssueEvent[]" ? ["X-Poll-Interval"] : []),
    ...(status === 201 ? ["Location"] : [])];
  const success: OpenAPIV3_1.ResponseObject = {
    description: status === 204 ? "No Content" : status === 201 ? "Created" : status === 202 ? "Accepted" : "OK",
    headers: headers(successHeaders),
    ...(body ? { content: { "application/json": { schema: body } } } : {}),
  };
  return {
    [status]: success,
    ...(method === "GET" ? { 304: notModified(successHeaders) } : {}),
    ...errorResponses(route, { notFound: false, unprocessable: Object.values(endpoint.params).some((p) => p.in === "query") }),
  };
}

const notModified = (names: string[]) => ({
  description: "Not Modified: the validators sent still match; no body, and no rate limit used",
  headers: headers(names),
});

function otherResponses(route: RouteOptions, other: OtherRoute): Responses {
  const common = commonHeaders(route);
  const get = route.method === "GET";
  const conditional = get && other.conditional !== false;
  const success = Object.fromEntries(Object.entries(other.success).map(([status, response]) =>
    [status, { ...response, headers: headers([...common, ...(get && status === "200" ? ["ETag"] : [])]) }]));
  return {
    ...errorResponses(route, { notFound: other.tag === "admin", unprocessable: false }),
    ...(conditional ? { 304: notModified([...common, "ETag"]) } : {}),
    ...success,
  };
}

function describeRoute(route: RouteOptions, schema: FastifySchema): FastifySchema {
  const endpoint = route.config?.endpoint;
  const described = endpoint ? fromTable(route, schema, endpoint) : null;
  if (described) return described;
  const other = OTHER_ROUTES[`${String(route.method)} ${route.url}`];
  // An undescribed route is still listed, without a summary: tests/server/openapi.test.ts names it.
  if (!other) return schema;
  return {
    ...schema,
    operationId: other.operationId,
    summary: other.summary,
    description: other.description + (route.config?.rateLimit === false ? " Not rate-limited." : ""),
    tags: [other.tag],
    security: other.security,
    ...(other.body ? { body: other.body } : {}),
    [RESPONSES]: otherResponses(route, other),
  } as FastifySchema;
}

const API_DESCRIPTION = `GitHub's REST v3 wire format for access authorizations and activity event feeds.

- **Authentication** on every route: Basic (login:password, or a token as the password), \`Authorization: token X\`,
  \`Authorization: Bearer X\`, or \`?access_token=X\`; two-factor accounts add their one-time code in
  \`X-GitHub-OTP\` or \`X-Service-OTP\`. Authorizations are managed with a password only.
- **Versions**: \`Accept: application/vnd.github.v3+json\`, \`application/json\`, \`*/*\` or none select ${SUPPORTED_VERSION};
  another version is refused, naming this one.
- **Errors** always have the shape \`{message, documentation_url, errors?}\` (the \`ErrorBody\` schema).
- **Rate limits** are reported in \`X-RateLimit-*\` on every response; a 304 costs nothing.
- **Lists** are paged with \`page\` and \`per_page\` and carry a \`Link\` header when they span pages.`;

/** The options of @fastify/swagger (dynamic mode): the document's frame and the two hooks. */
export function openapiOptions(numericIds: boolean): FastifyDynamicSwaggerOptions {
  return {
    openapi: {
      openapi: "3.1.0",
      info: { title: "feedgate", version: SUPPORTED_VERSION, description: API_DESCRIPTION, license: { name: "MIT", identifier: "MIT" } },
      tags: TAGS,
      components: {
        // TypeBox schemas are JSON Schema; @fastify/swagger converts them to OpenAPI's dialect.
        schemas: schemas(numericIds) as unknown as Record<string, OpenAPIV3_1.SchemaObject>,
        securitySchemes: SECURITY_SCHEMES,
        headers: Object.fromEntries(Object.entries(HEADERS).map(([name, [type, description]]) => [name, { description, schema: { type } }])),
        parameters: CONDITIONAL_PARAMETERS,
        responses: ERROR_RESPONSES,
      },
    },
    transform: ({ schema, url, route }) => {
      if (schema?.hide) return { schema, url };
      // Response schemas, when a route has them, are Fastify's serializers; the document's come from the table.
      const { response: _serializers, ...request } = (schema ?? {}) as FastifySchema & { response?: unknown };
      return { schema: describeRoute(route, request), url };
    },
    transformObject: (document) => {
      const openapi = (document as { openapiObject: OpenAPIV3_1.Document }).openapiObject;
      for (const item of Object.values(openapi.paths ?? {})) {
        for (const [method, operation] of Object.entries(item ?? {}) as [string, OpenAPIV3_1.OperationObject & Json][]) {
          const responses = operation[RESPONSES] as Responses | undefined;
          if (!responses) continue;
          delete operation[RESPONSES];
          operation.responses = responses;
          if (method === "get") {
            operation.parameters = [...(operation.parameters ?? []),
              ...Object.keys(CONDITIONAL_PARAMETERS).map((name) => ({ $ref: `#/components/parameters/${name}` }))];
          }
        }
      }
      return openapi;
    },
  };
}

/** The document as served to one request: its server is the base URL the request's answers use. */
export function servedDocument(document: Readonly<Record<string, unknown>>, baseUrl: string) {
  return { ...document, servers: [{ url: baseUrl }] };
}
