/**
 * An operation of the endpoint table as the document describes it, from its row alone: operation name, summary and
 * tag, who may call it, its parameters, and its responses (the row's response kind, plus what the plugins imply).
 */
import type { FastifySchema, RouteOptions } from "fastify";
import type { OpenAPIV3_1 } from "openapi-types";
import { endpoints, type Endpoint, type ParamSpec } from "../../api/endpoints.js";
import { successStatus } from "../../api/responses.js";
import type { Components } from "./components.js";
import { commonHeaders, errorResponses, headers, notModified, type Json, type Responses } from "./responses.js";
import { SECURITY } from "./security.js";

/** Each row's operation name (`events.getFromRepo`), found by identity: routes carry the row itself. */
const OPERATION_NAMES = new Map<Endpoint, string>(
  Object.entries(endpoints).flatMap(([family, rows]) =>
    Object.entries(rows).map(([name, row]) => [row as Endpoint, `${family}.${name}`] as const),
  ),
);

/** The row's operation name, or undefined for a row that is not in the table. */
export const operationName = (endpoint: Endpoint) => OPERATION_NAMES.get(endpoint);

const PATH_PARAMETERS: Record<string, string> = {
  user: "An account's login",
  repo: "A repository's name",
  org: "An organization's login",
  id: "The authorization's id",
  hook_id: "The hook's id",
  delivery_id: "The delivery's id",
  username: "A user's login",
  invitation_id: "The invitation's id",
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
  ]
    .filter(Boolean)
    .join(" ");
}

function withDescriptions(schema: unknown, describe: (name: string) => Json): unknown {
  const object = schema as { properties?: Record<string, Json> } | undefined;
  if (!object?.properties) return schema;
  const properties = Object.fromEntries(
    Object.entries(object.properties).map(([name, property]) => [name, { ...property, ...describe(name) }]),
  );
  return { ...object, properties };
}

/** What the row's accepted scopes are for: private events in feeds, hooks otherwise. */
function scopesText(endpoint: Endpoint): string {
  const scopes = `\`${endpoint.acceptedScopes.join("` or `")}\``;
  if (endpoint.tag === "collaborators")
    return (
      `With a password or a token with ${scopes}: a repository's collaborators and invitations are its ` +
      "administrators' to manage and readable with push access; the invitee's own invitations are the invitee's."
    );
  if (endpoint.resource !== "Hook")
    return `Private events are included for a caller who may read them, with a password or a token with ${scopes}.`;
  return (
    `For the repository's owner, members of the organization that owns it, and site administrators (organization hooks: ` +
    `its owners and site administrators), with a password or a token with ${scopes}` +
    `${endpoint.acceptedScopes.includes("public_repo") ? " (`public_repo`: public repositories only)" : ""}; anyone else gets 404.`
  );
}

function tableResponses(route: RouteOptions, endpoint: Endpoint, components: Components): Responses {
  const method = String(route.method);
  const body = components.body(endpoint.response);
  const status = successStatus(endpoint);
  const successHeaders = [
    ...commonHeaders(route),
    ...(method === "GET" ? ["ETag", "Last-Modified"] : []),
    ...(endpoint.response.endsWith("[]") ? ["Link"] : []),
    // A feed page may be served stale during a database outage (plugins/stale-if-error.ts).
    ...(endpoint.response === "Event[]" || endpoint.response === "IssueEvent[]"
      ? ["X-Poll-Interval", "Age", "Warning"]
      : []),
    ...(status === 201 || status === 302 ? ["Location"] : []),
  ];
  const descriptions = { 200: "OK", 201: "Created", 202: "Accepted", 204: "No Content", 302: "Found" } as const;
  const success: OpenAPIV3_1.ResponseObject = {
    description: descriptions[status],
    headers: headers(successHeaders),
    ...(body ? { content: { "application/json": { schema: body } } } : {}),
  };
  return {
    [status]: success,
    // A row that creates without a POST may also create nothing (`PUT .../collaborators/{u}`: an added collaborator).
    ...(endpoint.creates ? { 204: { description: "No Content", headers: headers(commonHeaders(route)) } } : {}),
    ...(method === "GET" ? { 304: notModified(successHeaders) } : {}),
    ...errorResponses(route, {
      notFound: false,
      unprocessable: Object.values(endpoint.params).some((p) => p.in === "query"),
    }),
  };
}

/**
 * The route as its table row describes it: operation name, texts, security, parameter descriptions; its responses
 * under `responsesKey`, for the document's last pass to move into place. Null for a row that is not in the table.
 */
export function tableOperation(
  route: RouteOptions,
  schema: FastifySchema,
  endpoint: Endpoint,
  components: Components,
  responsesKey: string,
) {
  const name = operationName(endpoint);
  if (!name) return null;
  const method = String(route.method);
  const byId = route.url !== endpoint.path;
  const idKind = ID_KINDS[route.url.split("/")[1] ?? ""];
  // A second route for one row (GitHub's id-based path, POST for PATCH) needs an operationId of its own.
  const operationId = `${name}${byId ? "ById" : ""}${method !== endpoint.method ? `With${method[0]}${method.slice(1).toLowerCase()}` : ""}`;
  const description = [
    byId
      ? `GitHub's id-based form of \`${endpoint.method} ${openapiPath(endpoint.path)}\`: the same ${endpoint.response.endsWith("[]") ? "feed" : "resource"}, found by the ${idKind}'s numeric id.`
      : "",
    method !== endpoint.method
      ? `The same as \`${endpoint.method} ${openapiPath(endpoint.path)}\`, for clients that cannot send ${endpoint.method}.`
      : "",
    endpoint.auth === "password"
      ? "Basic authentication with the account's password (and a two-factor account's one-time code) only: a token is refused with 403."
      : endpoint.auth === "required"
        ? 'Any valid credential, password or token; anonymous callers get 401 "Requires authentication".'
        : endpoint.auth === "anonymous"
          ? "Send no credentials: an authenticated request is refused with 403, as on GitHub."
          : endpoint.auth === "client"
            ? "Basic authentication with the OAuth app's client id and client secret."
            : endpoint.auth === "app"
              ? "A GitHub App's JWT (`Authorization: Bearer`), signed RS256 with the app's private key; nothing else."
              : "Anonymous callers see public data; credentials, when sent, must be valid.",
    endpoint.rateLimit
      ? `Limited to ${endpoint.rateLimit.limit} requests per ${endpoint.rateLimit.windowSeconds} seconds per ` +
        (endpoint.rateLimit.per === "user"
          ? `user (${endpoint.rateLimit.anonymousLimit ?? endpoint.rateLimit.limit} per client IP for anonymous callers)`
          : "client IP") +
        `, a window of its own (\`X-RateLimit-Resource: ${endpoint.rateLimit.resource}\`), not the core one; a spent ` +
        `window answers ${endpoint.rateLimit.status}.`
      : "",
    endpoint.acceptedScopes.length > 0 ? scopesText(endpoint) : "",
    endpoint.params.cursor
      ? 'Paged with `per_page` and `cursor`; the `Link` header names the next page (`rel="next"`).'
      : endpoint.params.per_page
        ? "Paged with `page` and `per_page`; the `Link` header names the other pages."
        : "",
  ]
    .filter(Boolean)
    .join(" ");
  return {
    ...schema,
    operationId,
    summary: byId ? `${endpoint.summary} (by ${idKind} id)` : endpoint.summary,
    description,
    tags: [endpoint.tag],
    externalDocs: { url: endpoint.documentationUrl, description: "GitHub's documentation of the operation" },
    security: SECURITY[endpoint.auth],
    params: withDescriptions(schema.params, (param) => ({
      description: byId && param === "id" ? `The ${idKind}'s numeric id` : (PATH_PARAMETERS[param] ?? ""),
    })),
    querystring: withDescriptions(schema.querystring, (param) => {
      const spec = endpoint.params[param];
      return spec
        ? { description: describeParam(spec), ...(spec.default !== undefined ? { default: String(spec.default) } : {}) }
        : {};
    }),
    [responsesKey]: tableResponses(route, endpoint, components),
  };
}
