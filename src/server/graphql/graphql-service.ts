/**
 * One GraphQL request, as GitHub's `POST /graphql` runs it: parsed, validated against the served schema
 * (./schema.ts) with GitHub's rule for unknown fields, executed through REST's services (./graph-context.ts). What cannot run
 * answers `{errors}` without `data`, as GitHub does; look-ups that find nothing answer `null` beside their error.
 */
import {
  type DocumentNode,
  execute,
  FieldsOnCorrectTypeRule,
  KnownArgumentNamesRule,
  parse,
  specifiedRules,
  validate,
} from "graphql";
import type { Principal } from "../services/authenticator.js";
import { argumentNotAcceptedRule, toWireGraphError, undefinedFieldRule, type WireGraphError } from "./errors.js";
import type { GraphServices } from "./graph-context.js";
import { graphContext, ROOT } from "./resolvers.js";
import { SCHEMA } from "./schema.js";

// GitHub's words for what a schema does not have: fields and arguments.
const RULES = [
  ...specifiedRules.filter((rule) => rule !== FieldsOnCorrectTypeRule && rule !== KnownArgumentNamesRule),
  undefinedFieldRule,
  argumentNotAcceptedRule,
];

export interface GraphRequest {
  query?: unknown;
  variables?: unknown;
  operationName?: unknown;
}

export interface GraphAnswer {
  data?: unknown;
  errors?: WireGraphError[];
}

/**
 * What a request answers: 200 for every query that could be read as one (its errors included, as GitHub answers
 * them), 400 for a request that is not one (no query, variables that are not an object), as the GraphQL-over-HTTP
 * spec has it: nothing is run for it.
 */
export interface GraphReply {
  status: 200 | 400;
  body: GraphAnswer;
}

const refused = (message: string): GraphReply => ({ status: 400, body: { errors: [{ message }] } });
const answered = (body: GraphAnswer): GraphReply => ({ status: 200, body });

export class GraphqlService {
  constructor(private readonly services: GraphServices) {}

  async run(request: GraphRequest, principal: Principal, baseUrl: string): Promise<GraphReply> {
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
      return answered({ errors: [toWireGraphError(error as Parameters<typeof toWireGraphError>[0])] });
    }
    const invalid = validate(SCHEMA, document, RULES);
    if (invalid.length) return answered({ errors: invalid.map(toWireGraphError) });
    const result = await execute({
      schema: SCHEMA,
      document,
      rootValue: ROOT,
      contextValue: graphContext(principal, baseUrl, this.services),
      variableValues: (variables ?? undefined) as Record<string, unknown> | undefined,
      operationName: (operationName ?? undefined) as string | undefined,
    });
    return answered({
      ...(result.data !== undefined ? { data: result.data } : {}),
      ...(result.errors?.length ? { errors: result.errors.map(toWireGraphError) } : {}),
    });
  }
}
