/**
 * The SDK's errors. One base class; the server's answers are HttpError with `code` = the HTTP status (Octokit's
 * RequestError shape); failures where no answer came have their own class and a string code, so a caller can
 * tell "the server said no" from "the server could not be reached" without parsing messages.
 * Every error that carries a request carries it redacted: errors end up in logs and bug reports.
 */
import type { Meta } from "./types.js";

/** A request as errors report it: credentials replaced by `[REDACTED]`. */
export interface RedactedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: unknown;
}

const REDACTED = "[REDACTED]";
/** Request headers that carry credentials: Basic passwords and tokens, one-time codes, session cookies. */
const SECRET_HEADERS = new Set(["authorization", "x-service-otp", "x-github-otp", "cookie"]);

/** Query parameters that carry credentials (node-github 0.2.x sent tokens as `access_token`). */
export function redactUrl(url: string): string {
  return url
    .replace(/([?&](?:access_token|client_secret)=)[^&#]*/gi, `$1${REDACTED}`)
    .replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@?#]*@/i, `$1${REDACTED}@`);
}

export function redactRequest(
  method: string,
  url: string,
  headers: Record<string, string>,
  body?: unknown,
): RedactedRequest {
  const shown: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (!SECRET_HEADERS.has(lower)) shown[lower] = value;
    // Keeping the scheme says how the caller authenticated, which is what debugging needs.
    else if (lower === "authorization") shown[lower] = `${value.split(" ")[0]} ${REDACTED}`;
    else shown[lower] = REDACTED;
  }
  return { method, url: redactUrl(url), headers: shown, ...(body === undefined ? {} : { body }) };
}

export class FeedgateError extends Error {
  override name = "FeedgateError";
}

/** A parameter or option was refused before any request was sent. `parameter` names it. */
export class ParameterError extends FeedgateError {
  override name = "ParameterError";
  readonly code = "EPARAMETER";
  constructor(
    readonly parameter: string,
    message: string,
  ) {
    super(message);
  }
}

export interface HttpErrorDetails {
  status: number;
  headers: Record<string, string>;
  meta: Meta;
  request: RedactedRequest;
  /** The parsed JSON body, or the text of a body that was not JSON. */
  body?: unknown;
}

/** The server answered with a failure status, or with a body declared as JSON that could not be parsed (code 500). */
export class HttpError extends FeedgateError {
  override name = "HttpError";
  /** The HTTP status, as node-github's errors had it. */
  readonly code: number;
  readonly status: number;
  /** Every response header, lower-case names. */
  readonly headers: Readonly<Record<string, string>>;
  readonly meta: Meta;
  readonly request: RedactedRequest;
  readonly body: unknown;
  /** GitHub's `documentation_url` and 422 `errors` entries, when the body had them. */
  readonly documentationUrl: string | undefined;
  readonly errors: readonly { resource: string; field: string; code: string; message?: string }[] | undefined;

  constructor(message: string, details: HttpErrorDetails) {
    super(message);
    this.code = this.status = details.status;
    this.headers = details.headers;
    this.meta = details.meta;
    this.request = details.request;
    this.body = details.body;
    const body = (typeof details.body === "object" && details.body !== null ? details.body : {}) as Record<
      string,
      unknown
    >;
    this.documentationUrl = typeof body.documentation_url === "string" ? body.documentation_url : undefined;
    this.errors = Array.isArray(body.errors) ? (body.errors as HttpError["errors"]) : undefined;
  }
}

/** No answer: the connection was refused or reset, DNS failed, or the body could not be read. */
export class NetworkError extends FeedgateError {
  override name = "NetworkError";
  readonly code = "ENETWORK";
  constructor(
    message: string,
    readonly request: RedactedRequest,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** No complete answer within the client's `timeout`. */
export class TimeoutError extends FeedgateError {
  override name = "TimeoutError";
  readonly code = "ETIMEDOUT";
  constructor(
    message: string,
    readonly request: RedactedRequest,
    readonly timeout: number,
  ) {
    super(message);
  }
}
