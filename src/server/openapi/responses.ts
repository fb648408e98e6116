/**
 * What the document says every operation may answer: the headers (as components), the error responses (once with
 * the rate-limit headers and once without), 304, and the conditional request headers GETs take.
 */
import type { RouteOptions } from "fastify";
import type { OpenAPIV3_1 } from "openapi-types";

export type Json = Record<string, unknown>;
export type Responses = Record<string, OpenAPIV3_1.ResponseObject | OpenAPIV3_1.ReferenceObject>;

const HEADERS: Record<string, [type: "string" | "integer", description: string]> = {
  Status: ["string", "The status line, as GitHub sends it (`200 OK`)."],
  "X-GitHub-Media-Type": ["string", "The media type served: `github.v3; format=json`."],
  "X-GitHub-Request-Id": ["string", "This request's id, as in the server's log lines."],
  "X-GitHub-Api-Version-Selected": [
    "string",
    "The calendar version served: `X-GitHub-Api-Version` when it names one (`2022-11-28` or `2026-03-10`), else `2022-11-28`.",
  ],
  "Cache-Control": [
    "string",
    "`public` or `private, max-age=60, s-maxage=60` on 200 and 304 GETs; `no-store` otherwise.",
  ],
  "X-OAuth-Scopes": ["string", "Classic tokens only: the token's scopes, comma-separated."],
  "X-Accepted-OAuth-Scopes": ["string", "Classic tokens only: the scopes this operation checks for."],
  "X-Accepted-GitHub-Permissions": [
    "string",
    "Fine-grained tokens only: the permissions this operation accepts, " +
      "`name=level` joined by `,` within a set and sets joined by `; ` (`repository_hooks=write`), or " +
      "`allows_permissionless_access=true` where it needs none.",
  ],
  "GitHub-Authentication-Token-Expiration": [
    "string",
    "Requests with an expiring token only: when it stops being " +
      "accepted, in GitHub's form `2026-01-15 10:00:00 UTC` (the authorization's `expires_at`). From then on it is 401.",
  ],
  "X-RateLimit-Limit": [
    "integer",
    "Requests allowed in the window: per user when authenticated, per client IP otherwise.",
  ],
  "X-RateLimit-Remaining": ["integer", "Requests left in the window."],
  "X-RateLimit-Reset": ["integer", "When the window ends, in epoch seconds."],
  "X-RateLimit-Used": ["integer", "Requests used in the window."],
  "X-RateLimit-Resource": ["string", "The limit's resource: `core`."],
  ETag: ["string", "Strong validator of the body; send it back in `If-None-Match` for a 304."],
  "Last-Modified": ["string", "Where a time applies: the newest event's, or the authorization's `updated_at`."],
  Link: ["string", '`<url>; rel="prev"`, `next`, `last`, `first`, when the list spans pages.'],
  "X-Poll-Interval": ["integer", "Seconds a poller should wait before asking again."],
  Location: ["string", "The new authorization's or hook's URL; a redirect's target (a repository archive's)."],
  "Retry-After": ["integer", "Seconds to wait before retrying."],
  Age: [
    "integer",
    "On a feed page served stale while the database cannot be reached (--stale-if-error): seconds since " +
      "the database last gave it.",
  ],
  Warning: ["string", '`110 - "Response is Stale"` on a feed page served stale while the database cannot be reached.'],
  "X-GitHub-OTP": ["string", "`required; app` when a two-factor account sent no valid one-time code."],
  "X-Service-OTP": ["string", "Same as X-GitHub-OTP."],
};
export const HEADER_COMPONENTS = Object.fromEntries(
  Object.entries(HEADERS).map(([name, [type, description]]) => [name, { description, schema: { type } }]),
);
const RATE_LIMIT_HEADERS = Object.keys(HEADERS).filter((name) => name.startsWith("X-RateLimit-"));
const ALWAYS_HEADERS = [
  "Status",
  "X-GitHub-Media-Type",
  "X-GitHub-Request-Id",
  "X-GitHub-Api-Version-Selected",
  "Cache-Control",
  "X-OAuth-Scopes",
  "X-Accepted-OAuth-Scopes",
  "X-Accepted-GitHub-Permissions",
  "GitHub-Authentication-Token-Expiration",
];

export const CONDITIONAL_PARAMETERS: Record<string, OpenAPIV3_1.ParameterObject> = {
  "If-None-Match": {
    name: "If-None-Match",
    in: "header",
    schema: { type: "string" },
    description: "An ETag from an earlier answer: 304 without a body, and no rate limit used, while it still matches.",
  },
  "If-Modified-Since": {
    name: "If-Modified-Since",
    in: "header",
    schema: { type: "string" },
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

export const componentRef = (name: string): OpenAPIV3_1.ReferenceObject => ({ $ref: `#/components/schemas/${name}` });
const header = (name: string) => ({ $ref: `#/components/headers/${name}` });
export const headers = (names: string[]) => Object.fromEntries(names.map((name) => [name, header(name)]));

const errorName = (status: number, rateLimited: boolean) => `Error${status}${rateLimited ? "" : "NotRateLimited"}`;

/** Every error response, once with the rate-limit headers and once without; operations refer to them. */
export const ERROR_RESPONSES = Object.fromEntries(
  [true, false].flatMap((rateLimited) =>
    Object.entries(ERRORS).map(([status, text]) => [
      errorName(Number(status), rateLimited),
      {
        description: text,
        content: { "application/json": { schema: componentRef("ErrorBody") } },
        headers: headers([
          ...ALWAYS_HEADERS,
          ...(rateLimited ? RATE_LIMIT_HEADERS : []),
          ...(ERROR_HEADERS[Number(status)] ?? []),
        ]),
      },
    ]),
  ),
);

/** Error responses a route can give, by what it takes (path parameters, query, body) and who may call it. */
export function errorResponses(route: RouteOptions, extra: { notFound: boolean; unprocessable: boolean }) {
  const method = String(route.method);
  const statuses = [400, 401, 403, 415, 500, 503];
  if (extra.notFound || route.url.includes(":")) statuses.push(404);
  if (extra.unprocessable || method === "POST" || method === "PATCH") statuses.push(422);
  if (method === "POST" || method === "PATCH") statuses.push(413);
  const rateLimited = route.config?.rateLimit !== false;
  return Object.fromEntries(
    statuses.sort().map((status) => [status, { $ref: `#/components/responses/${errorName(status, rateLimited)}` }]),
  );
}

/** The headers every answer of a route carries: the rate limit's unless the route is not counted. */
export const commonHeaders = (route: RouteOptions) => [
  ...ALWAYS_HEADERS,
  ...(route.config?.rateLimit === false ? [] : RATE_LIMIT_HEADERS),
];

export const notModified = (names: string[]) => ({
  description: "Not Modified: the validators sent still match; no body, and no rate limit used",
  headers: headers(names),
});
