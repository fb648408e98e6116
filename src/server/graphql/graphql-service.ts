/**
 * One GraphQL request, as GitHub's `POST /graphql` runs it: parsed, validated against the served schema
 * (./schema.ts) with GitHub's rule for unknown fields, executed through the entry points' service. What cannot run
 * answers `{errors}` without `data`, as GitHub does; look-ups that find nothing answer `null` beside their error.
 */
import { type DocumentNode, execute, FieldsOnCorrectTypeRule, parse, specifiedRules, validate } from "graphql";
import type { Principal } from "../services/authenticator.js";
import type { EntryPointService } from "../services/entry-points.js";
import { toWireGraphError, undefinedFieldRule, type WireGraphError } from "./errors.js";
import { ROOT, type GraphContext } from "./resolvers.js";
import { SCHEMA } from "./schema.js";

const RULES = [...specifiedRules.filter((rule) => rule !== FieldsOnCorrectTypeRule), undefinedFieldRule];

export interface GraphRequest {
  query?: unknown;
  variables?: unknown;
  operationName?: unknown;
}

export interface GraphAnswer {
  data?: unknown;
  errors?: WireGraphError[];
}

const refused = (message: string): GraphAnswer => ({ errors: [{ message }] });

export class GraphqlService {
  constructor(private readonly entryPoints: EntryPointService) {}

  async run(request: GraphRequest, principal: Principal, baseUrl: string): Promise<GraphAnswer> {
    const { query, variables, operationName } = request;
    if (typeof query !== "string" || query.trim() === "")
      return refused("A query attribute must be specified and must be a string.");
    if (variables !== undefined && variables !== null && (typeof variables !== "object" || Array.isArray(variables)))
      return refused("Variables are invalid JSON.");
    if (operationName !== undefined && operationName !== null && typeof operationName !== "string")
      return refused("operationName must be a string.");
    let document: DocumentNode;
    try {
      document = parse(query);
    } catch (error) {
      return { errors: [toWireGraphError(error as Parameters<typeof toWireGraphError>[0])] };
    }
    const invalid = validate(SCHEMA, document, RULES);
    if (invalid.length) return { errors: invalid.map(toWireGraphError) };
    const context: GraphContext = { principal, baseUrl, entryPoints: this.entryPoints };
    const result = await execute({
      schema: SCHEMA,
      document,
      rootValue: ROOT,
      contextValue: context,
      variableValues: (variables ?? undefined) as Record<string, unknown> | undefined,
      operationName: (operationName ?? undefined) as string | undefined,
    });
    return {
      ...(result.data !== undefined ? { data: result.data } : {}),
      ...(result.errors?.length ? { errors: result.errors.map(toWireGraphError) } : {}),
    };
  }
}
