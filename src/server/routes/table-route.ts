/**
 * THE way a route is made from an endpoint-table row: its method and path, the row as config (plugins read its auth
 * rule, scopes and documentation URL; the OpenAPI description its summary and tag), request schemas from the row's
 * parameters and the response schema of its kind (src/api/responses.ts) at its success status, which Fastify then
 * serializes with. The type provider hands handlers typed `params`, `querystring` and `body`, and checks what they
 * return against the response schema.
 */
import { Kind, OptionalKind, Type, type TObject, type TSchema, type TString } from "@sinclair/typebox";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Endpoint } from "../../api/endpoints.js";
import { hasBody, responseSchemas, successStatus, type ResponseKind } from "../../api/responses.js";
import { requestSchema, type RequestSchema } from "../../api/schemas.js";
import { isDeeplyFrozen } from "../versioned-answers.js";

/** How a route differs from its row, where GitHub serves one operation more than one way. */
export interface RouteVariant {
  /** GitHub's POST wherever PATCH is documented (wire notes 1.1), for clients that cannot send PATCH. */
  readonly method?: "POST";
  /** GitHub's id-based form of the row's path (`/repositories/:id/events`): the same operation, found by a numeric id. */
  readonly byId?: string;
  /** `--numeric-ids`: the ids the serializer writes; required where the row's kind carries such ids (see below). */
  readonly numericIds?: boolean;
  /** Not counted against the rate limit: reporting it ("uncounted": `GET /rate_limit`) or not (false). */
  readonly rateLimit?: false | "uncounted";
}

type ServedResponses = ReturnType<typeof responseSchemas>;

/** The success status of a row, as successStatus computes it, for the types. */
type SuccessStatus<E extends Endpoint> = E["response"] extends
  | "accepted"
  | "HookRedeliveries"
  | "Fork"
  | "PullRequestBranchUpdate"
  ? 202
  : E["creates"] extends true
    ? 201
    : E["answers200"] extends true
      ? 200
      : E["method"] extends "POST"
        ? E["response"] extends `${string}[]`
          ? 200
          : 201
        : 200;

/** A route's response schemas: its kind's at its success status; none for `empty` and `redirect` (no body). */
type ResponseSchemas<E extends Endpoint> = E["response"] extends "empty" | "redirect"
  ? object
  : { [S in SuccessStatus<E>]: ServedResponses[E["response"]] };

/** The names of a row's body parameters. */
type BodyNames<E extends Endpoint> = {
  [K in keyof E["params"]]: E["params"][K]["in"] extends "body" ? K : never;
}[keyof E["params"]];

/**
 * Fastify refuses a body schema on GET routes; a DELETE has one only where its row takes a body (GitHub's delete of a
 * file names the blob and the commit message), so that a DELETE without a body is not refused for the lack of one.
 */
type BodySchema<E extends Endpoint> = E["method"] extends "GET"
  ? object
  : E["method"] extends "DELETE"
    ? [BodyNames<E>] extends [never]
      ? object
      : { body: RequestSchema<E, "body"> }
    : { body: RequestSchema<E, "body"> };

const takesBody = (endpoint: Endpoint) =>
  endpoint.method !== "GET" &&
  (endpoint.method !== "DELETE" || Object.values(endpoint.params).some((param) => param.in === "body"));

type PathSchema<E extends Endpoint, V extends RouteVariant> = V["byId"] extends string
  ? TObject<{ id: TString }>
  : RequestSchema<E, "path">;

/** The kinds whose schema follows `--numeric-ids` (authorizations' and issue events' ids): a route must say its mode. */
const BY_ID_MODE: ReadonlySet<ResponseKind> = new Set(
  (Object.keys(responseSchemas(false)) as ResponseKind[]).filter(
    (kind) => JSON.stringify(responseSchemas(false)[kind]) !== JSON.stringify(responseSchemas(true)[kind]),
  ),
);

function responseSchemasOf<E extends Endpoint>(endpoint: E, numericIds: boolean | undefined): ResponseSchemas<E> {
  if (!hasBody(endpoint.response)) return {} as ResponseSchemas<E>;
  if (numericIds === undefined && BY_ID_MODE.has(endpoint.response)) {
    throw new Error(
      `${endpoint.method} ${endpoint.path}: ${endpoint.response} has ids that follow --numeric-ids; pass numericIds`,
    );
  }
  const schema = responseSchemas(numericIds ?? false)[endpoint.response];
  return { [successStatus(endpoint)]: schema } as ResponseSchemas<E>;
}

const ById = Type.Object({ id: Type.String() });

/**
 * GitHub's id-based paths take a number (`/user/1234`); anything else there is another of GitHub's routes
 * (`/user/repos`, `/user/orgs`), which feedgate does not serve: the not-found handler says so, as for any path
 * without a route. A number no account or repository has is the resource's own 404, from the service.
 */
async function numericIdOnly(request: FastifyRequest, reply: FastifyReply) {
  if (hasNumericId(request.params)) return;
  reply.callNotFound();
  return reply;
}

/** onRequest runs before the params are validated: they are whatever the router matched. */
function hasNumericId(params: unknown): boolean {
  return typeof params === "object" && params !== null && "id" in params && typeof params.id === "string"
    ? /^[0-9]+$/.test(params.id)
    : false;
}

/** Whether an object of this schema, or one inside it, has an optional key before a required one. */
function optionalBeforeRequired(schema: TSchema): boolean {
  if (schema[Kind] === "Array") return optionalBeforeRequired(schema.items as TSchema);
  if (schema[Kind] !== "Object") return false;
  const properties = Object.values(schema.properties as Record<string, TSchema>);
  const firstOptional = properties.findIndex((property) => property[OptionalKind] === "Optional");
  return (
    (firstOptional >= 0 && properties.slice(firstOptional).some((property) => property[OptionalKind] !== "Optional")) ||
    properties.some(optionalBeforeRequired)
  );
}

/**
 * fast-json-stringify, Fastify's serializer, writes an object's required keys before its optional ones. Where a kind
 * has optional keys among required ones (a repository's `permissions` and `parent`, before `network_count` as on
 * GitHub), that would reorder what its converter wrote in GitHub's order: those routes serialize with JSON.stringify.
 */
const CONVERTER_ORDER: ReadonlySet<ResponseKind> = new Set(
  (Object.keys(responseSchemas(false)) as ResponseKind[]).filter((kind) =>
    optionalBeforeRequired(responseSchemas(false)[kind]),
  ),
);
const stringify = () => (data: unknown) => {
  if (typeof data !== "object" || data === null || !isDeeplyFrozen(data)) return JSON.stringify(data);
  let json = frozenJson.get(data);
  if (json === undefined) frozenJson.set(data, (json = JSON.stringify(data)));
  return json;
};

/**
 * The JSON of kept answers (../versioned-answers.ts), which are frozen all the way down and so always serialize to
 * the same text: made once per object, and gone with it.
 */
const frozenJson = new WeakMap<object, string>();

/** The route options of a row (add the handler); `variant` for GitHub's other forms of the same operation. */
export function tableRoute<const E extends Endpoint, const V extends RouteVariant = object>(endpoint: E, variant?: V) {
  const method = variant?.method ?? endpoint.method;
  const bodySchema = (takesBody(endpoint) ? { body: requestSchema(endpoint, "body") } : {}) as BodySchema<E>;
  return {
    method,
    url: variant?.byId ?? endpoint.path,
    config: { endpoint, ...(variant?.rateLimit === undefined ? {} : { rateLimit: variant.rateLimit }) },
    ...(variant?.byId ? { onRequest: numericIdOnly } : {}),
    ...(CONVERTER_ORDER.has(endpoint.response) ? { serializerCompiler: stringify } : {}),
    schema: {
      params: (variant?.byId ? ById : requestSchema(endpoint, "path")) as PathSchema<E, V>,
      querystring: requestSchema(endpoint, "query"),
      ...bodySchema,
      response: responseSchemasOf(endpoint, variant?.numericIds),
    },
  };
}
