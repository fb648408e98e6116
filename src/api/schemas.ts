/**
 * TypeBox schemas: the wire shapes of responses, and request schemas derived from the endpoint table so
 * that validation cannot drift from it. No Node-only imports.
 */
import {
  Type, type Static, type TArray, type TNull, type TObject, type TOptional, type TSchema, type TString, type TUnion,
} from "@sinclair/typebox";
import type { Endpoint, Endpoints, ParamLocation, ParamSpec } from "./endpoints.js";

const NullableString = Type.Union([Type.String(), Type.Null()]);

/**
 * The `id` of an authorization or an issue event a server sends: a string, as the spec's field tables say, or, on a
 * server started with `--numeric-ids`, a JSON integer as GitHub sent it (wire notes 1.2, 2.4). Event ids are strings
 * in both modes. feedgate/client reads either and hands its callers strings (src/client/ids.ts).
 */
const wireIdSchema = (numericIds: boolean) => (numericIds ? Type.Integer() : Type.String());

/**
 * The authorization object, keys in the order github.com sent them in 2018 (wire notes 1.2).
 * Absent values are null, never missing.
 */
const authorizationSchema = <I extends TSchema>(id: I) => Type.Object({
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

function paramSchema(spec: ParamSpec): TSchema {
  let schema: TSchema;
  if (spec.type === "array") schema = Type.Array(Type.String());
  // Query numbers travel as text; the spec's rule is the digits pattern, checked on the text.
  else if (spec.type === "number") schema = Type.String({ pattern: spec.pattern ?? "^[0-9]+$" });
  else schema = Type.String({ pattern: spec.pattern ?? (spec.in === "body" ? NO_NUL_PATTERN : undefined) });
  return spec.nullable ? Type.Union([schema, Type.Null()]) : schema;
}

/** The TypeBox type `paramSchema` builds for a row's parameter, so its static type follows the table. */
type ParamSchema<S extends ParamSpec> = S["type"] extends "array" ? TArray<TString>
  : S["nullable"] extends true ? TUnion<[TString, TNull]> : TString;

/** The TypeBox object `requestSchema` builds for one location of a row. */
export type RequestSchema<E extends Endpoint, L extends ParamLocation> = TObject<{
  [K in keyof E["params"] as E["params"][K]["in"] extends L ? K : never]:
    E["params"][K]["required"] extends true ? ParamSchema<E["params"][K]> : TOptional<ParamSchema<E["params"][K]>>
}>;

/** What one location of a request to an endpoint holds once validated: handlers and services take these types. */
export type RequestOf<E extends Endpoint, L extends ParamLocation> = Static<RequestSchema<E, L>>;

/**
 * The JSON schema of one location (`path`, `query` or `body`) of an endpoint, built from its table row; its static
 * type is derived from the row too, so a route's typed `params`, `querystring` and `body` cannot drift from it.
 * Unknown keys are allowed: GitHub silently ignores them (wire notes 1.3).
 */
export function requestSchema<E extends Endpoint, L extends ParamLocation>(endpoint: E, location: L): RequestSchema<E, L> {
  const properties: Record<string, TSchema> = {};
  for (const [name, spec] of Object.entries(endpoint.params)) {
    if (spec.in !== location) continue;
    properties[name] = spec.required ? paramSchema(spec) : Type.Optional(paramSchema(spec));
  }
  return Type.Object(properties) as unknown as RequestSchema<E, L>;
}

/** `page` and `per_page`, as every list's row declares them. */
export type PageQuery = RequestOf<Endpoints["authorization"]["getAll"], "query">;

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
const issueEventSchema = <I extends TSchema>(id: I) => Type.Object({
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

/**
 * The response shapes exactly as a server in one mode sends them: its serializers and its OpenAPI description.
 * @param numericIds `--numeric-ids`: ids as integers; otherwise as strings (then these equal the exports above).
 */
export function servedSchemas(numericIds: boolean) {
  const id = wireIdSchema(numericIds);
  return { Authorization: authorizationSchema(id), IssueEvent: issueEventSchema(id) };
}
/** An authorization as a server in either mode sends it. */
export type ServedAuthorization = Static<ReturnType<typeof servedSchemas>["Authorization"]>;
