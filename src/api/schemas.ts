/**
 * TypeBox schemas: the wire shapes of responses, and request schemas derived from the endpoint table so
 * that validation cannot drift from it. No Node-only imports.
 */
import { Type, type TSchema, type Static } from "@sinclair/typebox";
import type { Endpoint, ParamLocation, ParamSpec } from "./endpoints.js";

const NullableString = Type.Union([Type.String(), Type.Null()]);

/**
 * The authorization object, keys in the order github.com sent them in 2018 (wire notes 1.2).
 * Absent values are null, never missing.
 */
export const Authorization = Type.Object({
  id: Type.String(),
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

function paramSchema(spec: ParamSpec): TSchema {
  let schema: TSchema;
  if (spec.type === "array") schema = Type.Array(Type.String());
  // Query numbers travel as text; the spec's rule is the digits pattern, checked on the text.
  else if (spec.type === "number") schema = Type.String({ pattern: spec.pattern ?? "^[0-9]+$" });
  else schema = Type.String(spec.pattern ? { pattern: spec.pattern } : {});
  return spec.nullable ? Type.Union([schema, Type.Null()]) : schema;
}

/**
 * The JSON schema of one location (`path`, `query` or `body`) of an endpoint, built from its table row.
 * Unknown keys are allowed: GitHub silently ignores them (wire notes 1.3).
 */
export function requestSchema(endpoint: Endpoint, location: ParamLocation) {
  const properties: Record<string, TSchema> = {};
  for (const [name, spec] of Object.entries(endpoint.params)) {
    if (spec.in !== location) continue;
    properties[name] = spec.required ? paramSchema(spec) : Type.Optional(paramSchema(spec));
  }
  return Type.Object(properties);
}

export interface PageQuery {
  page?: string;
  per_page?: string;
}
