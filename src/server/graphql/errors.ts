/**
 * GitHub's GraphQL errors, which are not graphql-js's: a field the schema lacks is
 * `{path, extensions: {code: "undefinedField", typeName, fieldName}, locations, message: "Field 'x' doesn't exist on
 * type 'T'"}` with the path starting at the operation ("query UserCurrent"), and a look-up that finds nothing is
 * `{type: "NOT_FOUND", path, locations, message: "Could not resolve to a ..."}` beside `null` in the data (GitHub's
 * error shapes, as clients report and match them: gh prints "GraphQL: <message> (<path>)").
 */
import { type ASTNode, type ASTVisitor, GraphQLError, type ValidationContext } from "graphql";
import { ApiError } from "../errors.js";
import { GraphRefusal } from "./graph-context.js";

/** The path GitHub names a selection by: the operation, then each field (by its alias) and fragment on the way. */
function selectionPath(ancestors: ReadonlyArray<ASTNode | ReadonlyArray<ASTNode>>, field: string): string[] {
  const path: string[] = [];
  for (const ancestor of ancestors) {
    if (!("kind" in ancestor)) continue;
    if (ancestor.kind === "OperationDefinition")
      path.push(ancestor.name ? `${ancestor.operation} ${ancestor.name.value}` : ancestor.operation);
    else if (ancestor.kind === "FragmentDefinition") path.push(`fragment ${ancestor.name.value}`);
    else if (ancestor.kind === "InlineFragment")
      path.push(ancestor.typeCondition ? `... on ${ancestor.typeCondition.name.value}` : "...");
    else if (ancestor.kind === "Field") path.push(ancestor.alias?.value ?? ancestor.name.value);
  }
  return [...path, field];
}

/** In place of graphql-js's FieldsOnCorrectTypeRule: the same check, reported in GitHub's words. */
export function undefinedFieldRule(context: ValidationContext): ASTVisitor {
  return {
    Field(node, _key, _parent, _path, ancestors) {
      const type = context.getParentType();
      if (!type || context.getFieldDef()) return;
      const fieldName = node.name.value;
      context.reportError(
        new GraphQLError(`Field '${fieldName}' doesn't exist on type '${type.name}'`, {
          nodes: node,
          path: selectionPath(ancestors, node.alias?.value ?? fieldName),
          extensions: { code: "undefinedField", typeName: type.name, fieldName },
        }),
      );
    },
  };
}

/**
 * In place of graphql-js's KnownArgumentNamesRule: an argument a field does not take, in GitHub's words (`Field
 * 'history' doesn't accept argument 'orderBy'`, code `argumentNotAccepted`, the path ending at the argument); one a
 * directive does not take in graphql-js's.
 */
export function argumentNotAcceptedRule(context: ValidationContext): ASTVisitor {
  return {
    Argument(node, _key, _parent, _path, ancestors) {
      if (context.getArgument()) return;
      const argumentName = node.name.value;
      const directive = context.getDirective();
      if (directive) {
        context.reportError(
          new GraphQLError(`Unknown argument "${argumentName}" on directive "@${directive.name}".`, { nodes: node }),
        );
        return;
      }
      const field = context.getFieldDef();
      if (!field) return;
      context.reportError(
        new GraphQLError(`Field '${field.name}' doesn't accept argument '${argumentName}'`, {
          nodes: node,
          path: selectionPath(ancestors, argumentName),
          extensions: { code: "argumentNotAccepted", name: field.name, typeName: "Field", argumentName },
        }),
      );
    },
  };
}

export interface WireGraphError {
  type?: string;
  path?: ReadonlyArray<string | number>;
  extensions?: Record<string, unknown>;
  locations?: ReadonlyArray<{ line: number; column: number }>;
  message: string;
}

/** The kinds of GitHub's `type` for a refusal of the REST services, by status. */
const TYPE_OF_STATUS: Record<number, string> = {
  401: "FORBIDDEN",
  403: "FORBIDDEN",
  404: "NOT_FOUND",
  422: "UNPROCESSABLE",
};

/**
 * One error as GitHub writes it. A resolver's refusal keeps its message with GitHub's `type`; an error no resolver
 * meant (a fault of the store) is rethrown, for the error handler to answer as it answers any fault.
 */
export function toWireGraphError(error: GraphQLError): WireGraphError {
  const locations = error.locations?.map(({ line, column }) => ({ line, column }));
  const cause = error.originalError;
  if (cause instanceof GraphRefusal)
    return { type: cause.type, path: error.path ?? [], ...(locations ? { locations } : {}), message: cause.message };
  if (cause instanceof ApiError)
    return {
      type: TYPE_OF_STATUS[cause.statusCode] ?? "UNPROCESSABLE",
      path: error.path ?? [],
      ...(locations ? { locations } : {}),
      message: cause.message,
    };
  if (cause && !(cause instanceof GraphQLError)) throw cause;
  return {
    ...(error.path ? { path: error.path } : {}),
    ...(error.extensions && Object.keys(error.extensions).length ? { extensions: error.extensions } : {}),
    ...(locations ? { locations } : {}),
    message: error.message,
  };
}
