/**
 * Turns a call into a request: checks the parameters against the operation's table row (spec sections 4
 * and 8) and places each where the row says (path, query or JSON body). Every check happens here, before
 * anything is sent, and a refusal names the parameter.
 */
import type { Endpoint, FieldType, ParamSpec } from "../api/endpoints.js";
import { ParameterError } from "./errors.js";
import { checkHeaders } from "./headers.js";

export interface PreparedRequest {
  method: Endpoint["method"];
  /** Path and query, to append to the base URL. */
  target: string;
  body: Record<string, unknown> | undefined;
  /** The caller's headers, lower-case names. */
  headers: Record<string, string>;
}

function refuse(operation: string, parameter: string, problem: string): never {
  throw new ParameterError(parameter, `${operation}: ${parameter} ${problem}`);
}

const shown = (value: unknown) => (typeof value === "string" ? JSON.stringify(value) : String(value));

/**
 * A string, or for `string|number` a finite number too, as JSON carries it; for `record`, an object of strings; for
 * `objects`, a list of objects (the server checks their keys).
 */
function checkField(operation: string, name: string, type: FieldType, value: unknown): unknown {
  if (type === "objects") {
    const isObject = (item: unknown) => typeof item === "object" && item !== null && !Array.isArray(item);
    if (Array.isArray(value) && value.every(isObject)) return value;
    return refuse(operation, name, "must be a list of objects");
  }
  if (type === "boolean") return typeof value === "boolean" ? value : refuse(operation, name, "must be a boolean");
  if (type === "record") {
    const isRecord = typeof value === "object" && value !== null && !Array.isArray(value);
    if (isRecord && Object.values(value).every((item) => typeof item === "string")) return { ...value };
    return refuse(operation, name, "must be an object of strings");
  }
  if (typeof value === "string" || (type === "string|number" && typeof value === "number" && Number.isFinite(value)))
    return value;
  return refuse(
    operation,
    name,
    `must be a ${type === "string" ? "string" : "string or a number"}, got ${shown(value)}`,
  );
}

/** The value as it travels, or a refusal. */
function checkValue(operation: string, name: string, spec: ParamSpec, value: unknown): unknown {
  if (value === null && spec.nullable) return null;
  switch (spec.type) {
    case "string":
      if (typeof value !== "string") refuse(operation, name, `must be a string, got ${shown(value)}`);
      if (spec.in === "path" && value === "") refuse(operation, name, "must not be empty");
      if (spec.pattern && !new RegExp(spec.pattern).test(value)) refuse(operation, name, `must match ${spec.pattern}`);
      return value;
    case "number": {
      // A number counts as its decimal text: 2 -> "2"; 1.5, -1 and NaN then fail the digits rule.
      if (typeof value !== "string" && typeof value !== "number")
        refuse(operation, name, `must be a number or a string of digits, got ${shown(value)}`);
      const text = String(value);
      if (spec.pattern && !new RegExp(spec.pattern).test(text))
        refuse(operation, name, `must match ${spec.pattern}, got ${shown(value)}`);
      if (spec.max !== undefined && Number(text) > spec.max)
        refuse(operation, name, `must be at most ${spec.max}, got ${text}`);
      return text;
    }
    case "array":
      if (!Array.isArray(value) || value.some((item) => typeof item !== "string")) {
        refuse(operation, name, "must be an array of strings");
      }
      return [...value];
    case "boolean":
      if (typeof value !== "boolean") refuse(operation, name, `must be true or false, got ${shown(value)}`);
      return value;
    case "string|number":
      return checkField(operation, name, spec.type, value);
    case "object": {
      if (typeof value !== "object" || value === null || Array.isArray(value))
        refuse(operation, name, "must be an object");
      const properties = spec.properties ?? {};
      const checked: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(value)) {
        const type = properties[key];
        if (!type)
          refuse(
            operation,
            `${name}.${key}`,
            `is not a key of ${name}; it takes ${Object.keys(properties).join(", ")}`,
          );
        if (item !== undefined) checked[key] = checkField(operation, `${name}.${key}`, type, item);
      }
      return checked;
    }
  }
}

export function prepare(endpoint: Endpoint, operation: string, params: unknown): PreparedRequest {
  if (params !== undefined && (typeof params !== "object" || params === null || Array.isArray(params))) {
    throw new ParameterError("params", `${operation}: params must be an object of parameters`);
  }
  const given = (params ?? {}) as Record<string, unknown>;
  for (const name of Object.keys(given)) {
    if (name !== "headers" && !Object.hasOwn(endpoint.params, name)) {
      const known = Object.keys(endpoint.params);
      refuse(
        operation,
        name,
        `is not a parameter of this operation${known.length ? `; it takes ${known.join(", ")}` : ""}`,
      );
    }
  }

  const pathValues: Record<string, string> = {};
  const query = new URLSearchParams();
  let body: Record<string, unknown> | undefined;
  for (const [name, spec] of Object.entries(endpoint.params)) {
    const value = given[name];
    if (value === undefined) {
      if (spec.required) refuse(operation, name, "is required");
      continue;
    }
    const checked = checkValue(operation, name, spec, value);
    if (spec.in === "path") pathValues[name] = checked as string;
    else if (spec.in === "query") query.set(name, checked as string);
    else (body ??= {})[name] = checked;
  }
  // Writes always send a JSON object: the server reads an empty one as "all defaults".
  if (endpoint.method === "POST" || endpoint.method === "PATCH") body ??= {};
  const path = endpoint.path
    .split("/")
    .map((segment) => (segment.startsWith(":") ? encodeURIComponent(pathValues[segment.slice(1)] ?? "") : segment))
    .join("/");
  const search = query.toString();
  return {
    method: endpoint.method,
    target: search ? `${path}?${search}` : path,
    body,
    headers: checkHeaders(given.headers, "headers", { conditional: true }),
  };
}
