/**
 * ApiError and the GitHub-shaped error body. Services throw ApiError; the error handler turns it into
 * `{message, documentation_url, errors?}` with the status and any extra headers.
 * Messages are GitHub's, byte for byte, because clients match on them (wire notes 3.4 and 1.4).
 */
import type { ValidationError } from "../api/schemas.js";

export const GENERAL_DOCS = "https://developer.github.com/v3";

/**
 * What kind of refusal an ApiError is, by a name that stays the same across releases (as Fastify's `FST_ERR_*` and
 * undici's `UND_ERR_*` codes do), so that code telling errors apart reads it rather than the status (several kinds
 * share one) or the message (GitHub's wording, which GitHub may change). The error's own kinds first, then the one
 * each status gets when its constructor names none (statusCodeKind).
 */
export type ApiErrorCode =
  /** 401 "Bad credentials": an unknown, wrong, expired or revoked password or token. */
  | "FEEDGATE_BAD_CREDENTIALS"
  /** 401 "Must specify two-factor authentication OTP code.": the password is right, the code missing or wrong. */
  | "FEEDGATE_OTP_REQUIRED"
  /** 403: too many failed logins; the account is locked out for a while. */
  | "FEEDGATE_LOGIN_ATTEMPTS_EXCEEDED"
  /** 403 "Sorry. Your account was suspended." */
  | "FEEDGATE_ACCOUNT_SUSPENDED"
  /** 403: an operation that takes a password (Basic auth) was given a token. */
  | "FEEDGATE_BASIC_AUTH_ONLY"
  /** 403: an operation that takes no credentials (credential revocation) was given valid ones. */
  | "FEEDGATE_CREDENTIALS_NOT_ACCEPTED"
  /** 403 "Resource not accessible by personal access token": a fine-grained token lacks the permission. */
  | "FEEDGATE_NOT_ACCESSIBLE_BY_TOKEN"
  | "FEEDGATE_BAD_APP_JWT"
  | "FEEDGATE_NOT_ACCESSIBLE_BY_INTEGRATION"
  /** 403 (or an operation's own status, 422 for credential revocation): the caller's rate-limit window is spent. */
  | "FEEDGATE_RATE_LIMIT_EXCEEDED"
  /** 404 naming a method and path no route of feedgate's serves (`X-Feedgate-Unimplemented`). */
  | "FEEDGATE_UNIMPLEMENTED"
  /** 400 naming an `X-GitHub-Api-Version` feedgate does not serve. */
  | "FEEDGATE_UNSUPPORTED_API_VERSION"
  // The kinds of the statuses, for errors that name no kind of their own.
  /** 400: the request cannot be read (a body that is not JSON, a URL that does not decode...). */
  | "FEEDGATE_BAD_REQUEST"
  /** 401: credentials are needed and none were given. */
  | "FEEDGATE_REQUIRES_AUTHENTICATION"
  /** 403: the caller may not do this. */
  | "FEEDGATE_FORBIDDEN"
  /** 404: no such resource, or one the caller may not know of (GitHub's 404-not-403). */
  | "FEEDGATE_NOT_FOUND"
  /** 413: the body is larger than the route takes. */
  | "FEEDGATE_BODY_TOO_LARGE"
  /** 415: a media type or Content-Encoding feedgate does not take. */
  | "FEEDGATE_UNSUPPORTED_MEDIA_TYPE"
  /** 422 "Validation Failed" and GitHub's other refusals of a well-formed request's content. */
  | "FEEDGATE_VALIDATION_FAILED"
  /** 429: too many at once (live streams per client). */
  | "FEEDGATE_TOO_MANY_REQUESTS"
  /** 503: a store this instance depends on cannot be reached, or the server is stopping; retry later. */
  | "FEEDGATE_UNAVAILABLE"
  /** Any other 4xx, and any other 5xx. */
  | "FEEDGATE_CLIENT_ERROR"
  | "FEEDGATE_SERVER_ERROR";

const STATUS_KINDS: Record<number, ApiErrorCode> = {
  400: "FEEDGATE_BAD_REQUEST",
  401: "FEEDGATE_REQUIRES_AUTHENTICATION",
  403: "FEEDGATE_FORBIDDEN",
  404: "FEEDGATE_NOT_FOUND",
  413: "FEEDGATE_BODY_TOO_LARGE",
  415: "FEEDGATE_UNSUPPORTED_MEDIA_TYPE",
  422: "FEEDGATE_VALIDATION_FAILED",
  429: "FEEDGATE_TOO_MANY_REQUESTS",
  503: "FEEDGATE_UNAVAILABLE",
};

/** The kind an error of `status` is when it names none of its own. */
export const statusCodeKind = (status: number): ApiErrorCode =>
  STATUS_KINDS[status] ?? (status < 500 ? "FEEDGATE_CLIENT_ERROR" : "FEEDGATE_SERVER_ERROR");

/**
 * An answer that refuses the request: its status, GitHub's message and body fields, and its `code` (ApiErrorCode),
 * which is feedgate's alone and never sent (GitHub's error bodies have no such field).
 */
export class ApiError extends Error {
  /** What kind of refusal this is: the one field to tell errors apart by. */
  readonly code: ApiErrorCode;

  constructor(
    readonly statusCode: number,
    message: string,
    readonly options: {
      /** The kind of refusal, when the status alone does not say it (statusCodeKind is the default). */
      code?: ApiErrorCode;
      documentationUrl?: string;
      /** GitHub's validation entries; or, in GitHub's newer errors, one sentence saying what was wrong. */
      errors?: ValidationError[] | string;
      /** GitHub's newer errors repeat the status in the body, as a string (`"status": "400"`). */
      statusInBody?: boolean;
      /** Where the resource is now (a redirect's body names it, after the message). */
      url?: string;
      headers?: Record<string, string>;
      /** What went wrong underneath, for the log; never shown to the client. */
      cause?: unknown;
    } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = "ApiError";
    this.code = options.code ?? statusCodeKind(statusCode);
  }

  body(fallbackDocs: string) {
    if (typeof this.options.errors === "string") {
      return {
        message: this.message,
        errors: this.options.errors,
        documentation_url: this.options.documentationUrl ?? fallbackDocs,
        ...(this.options.statusInBody ? { status: String(this.statusCode) } : {}),
      };
    }
    return {
      message: this.message,
      ...(this.options.url ? { url: this.options.url } : {}),
      documentation_url: this.options.documentationUrl ?? fallbackDocs,
      ...(this.options.errors ? { errors: this.options.errors } : {}),
      ...(this.options.statusInBody ? { status: String(this.statusCode) } : {}),
    };
  }
}

export const notFound = () => new ApiError(404, "Not Found", { documentationUrl: GENERAL_DOCS });

/**
 * A request naming a repository by a name it was renamed from: GitHub redirects to the repository's id-based path,
 * 301 for GET and HEAD, 307 for other methods (so that a client following it repeats the write), with this body
 * (octokit/fixtures' rename-repository scenario; 18F/charlie#85 records a POST's 307). `at` makes the answer for
 * the request: the rest of its path and its query after the repository's name, under `/repositories/{id}`.
 */
export class RepositoryMoved extends ApiError {
  constructor(readonly wireId: number) {
    super(301, "Moved Permanently", { documentationUrl: REDIRECT_DOCS });
  }

  at(method: string, url: string, baseUrl: string): ApiError {
    const rest = /\/repos\/[^/?#]+\/[^/?#]+(.*)$/.exec(url)?.[1] ?? "";
    const location = `${baseUrl}/repositories/${this.wireId}${rest}`;
    return new ApiError(method === "GET" || method === "HEAD" ? 301 : 307, "Moved Permanently", {
      documentationUrl: REDIRECT_DOCS,
      url: location,
      headers: { Location: location },
    });
  }
}

const REDIRECT_DOCS = "https://docs.github.com/v3/#http-redirects";

/**
 * A method and path no route of feedgate's serves (`GET /repos/{owner}/{repo}/pulls`): GitHub's 404 and body shape,
 * since clients branch on the status, but a message and a header that tell a test-writer the route is missing
 * from feedgate, not the resource from its data.
 */
export const unimplemented = (method: string, path: string) =>
  new ApiError(404, `Not Found: feedgate does not implement ${method} ${path}`, {
    code: "FEEDGATE_UNIMPLEMENTED",
    documentationUrl: GENERAL_DOCS,
    headers: { "X-Feedgate-Unimplemented": "true" },
  });

export const requiresAuthentication = () => new ApiError(401, "Requires authentication");

export const badCredentials = () =>
  new ApiError(401, "Bad credentials", { code: "FEEDGATE_BAD_CREDENTIALS", documentationUrl: GENERAL_DOCS });

/** GitHub's answer to a token of a suspended installation. */
export const installationSuspended = () =>
  new ApiError(403, "This installation has been suspended", {
    code: "FEEDGATE_ACCOUNT_SUSPENDED",
    documentationUrl: "https://docs.github.com/rest/apps/apps#suspend-an-app-installation",
    statusInBody: true,
  });

export const otpRequired = () =>
  new ApiError(401, "Must specify two-factor authentication OTP code.", {
    code: "FEEDGATE_OTP_REQUIRED",
    documentationUrl: "https://developer.github.com/v3/auth#working-with-two-factor-authentication",
    // Real clients read GitHub's header name; the spec names its own. Send both.
    headers: { "X-GitHub-OTP": "required; app", "X-Service-OTP": "required; app" },
  });

export const loginAttemptsExceeded = () =>
  new ApiError(403, "Maximum number of login attempts exceeded. Please try again later.", {
    code: "FEEDGATE_LOGIN_ATTEMPTS_EXCEEDED",
    documentationUrl: GENERAL_DOCS,
  });

/**
 * A suspended account's password or token: GitHub answers 403 with this message (octokit.rb maps 403 bodies
 * matching /account was suspended/ to Octokit::AccountSuspended, lib/octokit/error.rb, since PR #761; reports
 * such as sourcegraph#16638 quote "returned status 403: Sorry. Your account was suspended."). GitHub's
 * documentation_url for it is not recorded anywhere we found: the general one, as for "Bad credentials".
 */
export const accountSuspended = () =>
  new ApiError(403, "Sorry. Your account was suspended.", {
    code: "FEEDGATE_ACCOUNT_SUSPENDED",
    documentationUrl: GENERAL_DOCS,
  });

export const basicAuthOnly = () =>
  new ApiError(403, "This API can only be accessed with username and password Basic Auth", {
    code: "FEEDGATE_BASIC_AUTH_ONLY",
    documentationUrl: "https://developer.github.com/v3/oauth_authorizations/#oauth-authorizations-api",
  });

/**
 * A valid credential sent to an operation that takes none: GitHub documents "Any authenticated requests will return
 * a 403" for credential revocation without recording the message; this one is feedgate's.
 */
export const authenticatedNotAccepted = (documentationUrl: string) =>
  new ApiError(403, "This endpoint does not accept authenticated requests; send no credentials.", {
    code: "FEEDGATE_CREDENTIALS_NOT_ACCEPTED",
    documentationUrl,
  });

/** Seconds a client should wait before retrying a 503: long enough for a pool to reconnect, short for a poller. */
export const RETRY_AFTER_SECONDS = 5;

/**
 * 503 while a service this instance depends on (the database, the rate-limit store) cannot be reached or does
 * not answer in time. Clients and load balancers retry a 503 with `Retry-After`; the cause is only logged.
 */
export const serviceUnavailable = (what: string, cause: unknown) =>
  new ApiError(503, `Service Unavailable: ${what} cannot be reached. Please try again later.`, {
    headers: { "Retry-After": String(RETRY_AFTER_SECONDS) },
    cause,
  });

/** 422 "Validation Failed" with GitHub's `errors` entries. */
export const validationFailed = (errors: ValidationError[], documentationUrl?: string) =>
  new ApiError(422, "Validation Failed", { errors, ...(documentationUrl ? { documentationUrl } : {}) });
