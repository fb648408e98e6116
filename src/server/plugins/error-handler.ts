/**
 * The single error handler: every failure leaves as `{message, documentation_url, errors?}` with GitHub's
 * status and wording (wire notes 3.4). Unknown errors are logged and answered 500 "Server Error" without
 * detail; nothing about the input can reach that branch by design (see tests/server/errors.test.ts).
 */
import fp from "fastify-plugin";
import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import {
  ApiError,
  GENERAL_DOCS,
  notFound,
  RepositoryMoved,
  serviceUnavailable,
  unimplemented,
  validationFailed,
} from "../errors.js";
import { FeedgateFailure, StoreUnavailableError } from "../failures.js";
import { NO_NUL_PATTERN, type ValidationError } from "../../api/schemas.js";
import type { StaleIfError } from "./stale-if-error.js";

function docsFor(request: FastifyRequest): string {
  return request.routeOptions.config?.endpoint?.documentationUrl ?? GENERAL_DOCS;
}

/** Resource names GitHub uses in `errors[]`: paging parameters are `Pagination`, the rest the row's resource. */
function resourceFor(request: FastifyRequest, context: string | undefined): string {
  if (context === "querystring") return "Pagination";
  return request.routeOptions.config?.endpoint?.resource ?? "Request";
}

/**
 * The offending value as quoted in a message. Bodies are attacker-shaped: a value nested deeper than the
 * stack made JSON.stringify throw inside this handler (a 500), and a large one was echoed back whole.
 */
function shown(value: unknown): string | undefined {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    return Array.isArray(value) ? "an array" : "an object";
  }
  return text !== undefined && text.length > 100 ? `${text.slice(0, 100)}...` : text;
}

/**
 * A body left without required fields, on an operation GitHub checks against a JSON schema first: its words,
 * `Invalid request.\n\n"title" wasn't supplied.` (`"a", "b" weren't supplied.` for more), with no `errors`.
 */
function unsupplied(request: FastifyRequest, error: FastifyError): ApiError | null {
  if (!request.routeOptions.config?.endpoint?.schemaChecked || error.validationContext !== "body") return null;
  const missing = (error.validation ?? []).flatMap((issue) =>
    issue.keyword === "required" && issue.instancePath === ""
      ? [String((issue.params as { missingProperty?: string }).missingProperty)]
      : [],
  );
  if (!missing.length) return null;
  const names = [...new Set(missing)].map((name) => `"${name}"`);
  const verb = names.length > 1 ? "weren't" : "wasn't";
  return new ApiError(422, `Invalid request.\n\n${names.join(", ")} ${verb} supplied.`, {
    documentationUrl: docsFor(request),
  });
}

/** Ajv's complaints -> GitHub's `errors` entries, naming the field. */
function fromSchemaErrors(request: FastifyRequest, error: FastifyError): ApiError {
  const unsuppliedFields = unsupplied(request, error);
  if (unsuppliedFields) return unsuppliedFields;
  const context = error.validationContext;
  const errors: ValidationError[] = (error.validation ?? []).map((issue) => {
    const field =
      issue.instancePath.split("/").filter(Boolean)[0] ??
      String((issue.params as { missingProperty?: string }).missingProperty ?? "");
    const input = request[context === "querystring" ? "query" : "body"] as Record<string, unknown> | undefined;
    const value = field ? shown(input?.[field]) : undefined;
    const pattern = issue.keyword === "pattern" ? (issue.params as { pattern: string }).pattern : undefined;
    const rule =
      pattern === NO_NUL_PATTERN
        ? "must not contain NUL characters"
        : pattern
          ? `must match ${pattern}`
          : (issue.message ?? "is invalid");
    return {
      resource: resourceFor(request, context),
      field,
      code: issue.keyword === "required" ? "missing_field" : "invalid",
      message: `${field} ${rule}${value !== undefined ? `, got ${value}` : ""}`,
    };
  });
  // Ajv can report the same field once per branch of a union: keep one entry per field.
  const unique = errors.filter((e, i) => errors.findIndex((o) => o.field === e.field) === i);
  return validationFailed(unique, docsFor(request));
}

/** A failure a service raised with its fields -> GitHub's 422, naming the row's resource. */
function fromFailure(request: FastifyRequest, failure: FeedgateFailure): ApiError {
  return validationFailed(
    [
      {
        resource: resourceFor(request, undefined),
        field: failure.field ?? "",
        code: failure.code,
        message: failure.problem,
      },
    ],
    docsFor(request),
  );
}

/** Fastify's own errors (body parsing, limits) -> GitHub's. */
function fromFastifyError(request: FastifyRequest, error: FastifyError): ApiError | null {
  switch (error.code) {
    case "FST_ERR_CTP_INVALID_JSON_BODY":
    case "FST_ERR_CTP_EMPTY_JSON_BODY":
      return new ApiError(400, "Problems parsing JSON", { documentationUrl: docsFor(request) });
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return new ApiError(413, "Request body is too large", { documentationUrl: docsFor(request) });
    case "FST_ERR_CTP_INVALID_CONTENT_LENGTH":
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      return new ApiError(400, "Problems parsing JSON", { documentationUrl: docsFor(request) });
    default:
      if (error.validation) return fromSchemaErrors(request, error);
      // Other 4xx raised by Fastify itself (bad URL encoding, and the like): keep the status, GitHub's shape.
      if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
        return new ApiError(error.statusCode, error.message, { documentationUrl: GENERAL_DOCS });
      }
      return null;
  }
}

/**
 * Fastify's `frameworkErrors` option: errors raised while routing (an undecodable URL, an over-long path
 * segment) never reach the error handler and would leave in Fastify's own shape. An over-long segment names
 * nothing, so it is the 404 any other unknown id gets.
 */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const apiError =
    error.code === "FST_ERR_MAX_PARAM_LENGTH"
      ? notFound()
      : // Fastify's message repeats the whole URL, which may carry an access_token: answer without it.
        error.code === "FST_ERR_BAD_URL"
        ? new ApiError(400, "The request URL could not be decoded", { documentationUrl: GENERAL_DOCS })
        : null;
  if (!apiError) {
    request.log.error({ err: error }, "unhandled routing error");
    return reply.code(500).send({ message: "Server Error", documentation_url: GENERAL_DOCS });
  }
  return reply.code(apiError.statusCode).send(apiError.body(GENERAL_DOCS));
}

/** The most of a path an unimplemented route's message repeats: any GitHub route fits, a payload smuggled in does not. */
const SHOWN_PATH_MAX = 100;

/**
 * The path as that message shows it: without its query (where `access_token` travels), printable ASCII only (the rest
 * percent-encoded), and cut to SHOWN_PATH_MAX characters, so an attacker's URL is neither echoed whole nor raw.
 */
export function shownPath(url: string): string {
  const path = url.split(/[?#]/, 1)[0]!;
  const printable = path.replace(
    /[^\x21-\x7e]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`,
  );
  return printable.length > SHOWN_PATH_MAX ? `${printable.slice(0, SHOWN_PATH_MAX)}...` : printable;
}

/** @param degrade answers an outage with a stale public feed page where it has one (./stale-if-error.ts). */
export default fp<{ degrade?: StaleIfError }>(
  async (app, { degrade }) => {
    app.setErrorHandler(async (error: FastifyError, request, reply) => {
      if (error instanceof StoreUnavailableError && degrade?.answer(request, reply, error)) return reply;
      const apiError =
        error instanceof RepositoryMoved
          ? error.at(request.method, request.url, request.baseUrl)
          : error instanceof ApiError
            ? error
            : error instanceof FeedgateFailure
              ? fromFailure(request, error)
              : error instanceof StoreUnavailableError
                ? serviceUnavailable(error.store, error.cause)
                : fromFastifyError(request, error);
      if (!apiError) {
        request.log.error({ err: error }, "unhandled error");
        return reply.code(500).send({ message: "Server Error", documentation_url: GENERAL_DOCS });
      }
      // Every 5xx is logged once, with its cause; the request id comes with the request's logger.
      if (apiError.statusCode >= 500) request.log.error({ err: apiError.cause ?? apiError }, apiError.message);
      for (const [name, value] of Object.entries(apiError.options.headers ?? {})) reply.header(name, value);
      return reply.code(apiError.statusCode).send(apiError.body(docsFor(request)));
    });

    // No route matched (the console has a handler of its own, under its prefix): under /api/v3 too, the path is the
    // one routed, without the prefix.
    app.setNotFoundHandler(async (request) => {
      throw unimplemented(request.method, shownPath(request.url));
    });
  },
  { name: "error-handler" },
);
