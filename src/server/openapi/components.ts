/**
 * The document's named schemas and how operations refer to them: the response kinds' shapes (src/api/responses.ts),
 * the error body, and the bodies of the routes outside the table (src/api/outside-table-schemas.ts). A schema that is
 * one of them, by identity, is written as a `$ref`.
 */
import type { TSchema } from "@sinclair/typebox";
import { hasBody, namedResponseSchemas, responseKinds, type ResponseKind } from "../../api/responses.js";
import { OUTSIDE_TABLE_SCHEMAS } from "../../api/outside-table-schemas.js";
import { ErrorBody } from "../../api/schemas.js";
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
  const schemas: Record<string, TSchema> = { ...named, ErrorBody, ...OUTSIDE_TABLE_SCHEMAS };
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
    // `empty` and `redirect` have no body; every other kind is a named shape or an array of one.
    body: (kind) => (hasBody(kind) ? refs(kinds[kind]) : null),
    refs,
  };
}
