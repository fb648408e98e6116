/**
 * The document's named schemas and how operations refer to them: the response kinds' shapes (src/api/responses.ts),
 * the error body, and the bodies of the routes outside the table (declared beside those routes). A schema that is one
 * of them, by identity, is written as a `$ref`.
 */
import type { TSchema } from "@sinclair/typebox";
import { namedResponseSchemas, responseKinds, type ResponseKind } from "../../api/responses.js";
import { ErrorBody } from "../../api/schemas.js";
import { ADMIN_SCHEMAS } from "../routes/admin-openapi.js";
import { PROBE_SCHEMAS } from "../routes/meta-openapi.js";
import { componentRef } from "./responses.js";

export interface Components {
  /** By name, with the ids a server in this mode sends. */
  readonly schemas: Readonly<Record<string, TSchema>>;
  /** A response kind's body as the document writes it; null: no body (204). */
  body(kind: ResponseKind): unknown;
  /** A value with every named schema in it replaced by its `$ref`. */
  refs(value: unknown): unknown;
}

/** @param numericIds `--numeric-ids`: the ids this server sends, integers or strings. */
export function components(numericIds: boolean): Components {
  const named = namedResponseSchemas(numericIds);
  const schemas: Record<string, TSchema> = { ...named, ErrorBody, ...PROBE_SCHEMAS, ...ADMIN_SCHEMAS };
  const names = new Map<unknown, string>(Object.entries(schemas).map(([name, schema]) => [schema, name]));
  const kinds = responseKinds(named);

  function refs(value: unknown): unknown {
    const name = names.get(value);
    if (name) return componentRef(name);
    if (Array.isArray(value)) return value.map(refs);
    if (typeof value !== "object" || value === null) return value;
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, refs(inner)]));
  }

  return {
    schemas,
    // `empty` is the one kind without a body; every other one is a named shape or an array of one.
    body: (kind) => (kind === "empty" ? null : refs(kinds[kind])),
    refs,
  };
}
