/**
 * ApiError and the GitHub-shaped error body. Services throw ApiError; the error handler turns it into
 * `{message, documentation_url, errors?}` with the status and any extra headers.
 * Messages are GitHub's, byte for byte, because clients match on them (wire notes 3.4 and 1.4).
 */
import type { ValidationError } from "../api/schemas.js";

export const GENERAL_DOCS = "https://developer.github.com/v3";

export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly options: {
      documentationUrl?: string;
      /** GitHub's validation entries; or, in GitHub's newer errors, one sentence saying what was wrong. */
      errors?: ValidationError[] | string;
      /** GitHub's newer errors repeat the status in the body, as a string (`"status": "400"`). */
      statusInBody?: boolean;
      headers?: Record<string, string>;
      /** What went wrong underneath, for the log; never shown to the client. */
      cause?: unknown;
    } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = "ApiError";
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
      documentation_url: this.options.documentationUrl ?? fallbackDocs,
      ...(this.options.errors ? { errors: this.options.errors } : {}),
      ...(this.options.statusInBody ? { status: String(this.statusCode) } : {}),
    };
  }
}

export const notFound = () => new ApiError(404, "Not Found", { documentationUrl: GENERAL_DOCS });

/**
 * A method and path no route of feedgate's serves (`GET /repos/{owner}/{repo}/pulls`): GitHub's 404 and body shape,
 * since clients branch on the status, but a message and a header that tell a test-writer the route is missing
 * from feedgate, not the resource from its data.
 */
export const unimplemented = (method: string, path: string) =>
  new ApiError(404, `Not Found: feedgate does not implement ${method} ${path}`, {
    documentationUrl: GENERAL_DOCS,
    headers: { "X-Feedgate-Unimplemented": "true" },
  });

export const requiresAuthentication = () => new ApiError(401, "Requires authentication");

export const badCredentials = () => new ApiError(401, "Bad credentials", { documentationUrl: GENERAL_DOCS });

export const otpRequired = () =>
  new ApiError(401, "Must specify two-factor authentication OTP code.", {
    documentationUrl: "https://developer.github.com/v3/auth#working-with-two-factor-authentication",
    // Real clients read GitHub's header name; the spec names its own. Send both.
    headers: { "X-GitHub-OTP": "required; app", "X-Service-OTP": "required; app" },
  });

export const loginAttemptsExceeded = () =>
  new ApiError(403, "Maximum number of login attempts exceeded. Please try again later.", {
    documentationUrl: GENERAL_DOCS,
  });

/**
 * A suspended account's password or token: GitHub answers 403 with this message (octokit.rb maps 403 bodies
 * matching /account was suspended/ to Octokit::AccountSuspended, lib/octokit/error.rb, since PR #761; reports
 * such as sourcegraph#16638 quote "returned status 403: Sorry. Your account was suspended."). GitHub's
 * documentation_url for it is not recorded anywhere we found: the general one, as for "Bad credentials".
 */
export const accountSuspended = () =>
  new ApiError(403, "Sorry. Your account was suspended.", { documentationUrl: GENERAL_DOCS });

export const basicAuthOnly = () =>
  new ApiError(403, "This API can only be accessed with username and password Basic Auth", {
    documentationUrl: "https://developer.github.com/v3/oauth_authorizations/#oauth-authorizations-api",
  });

/**
 * A valid credential sent to an operation that takes none: GitHub documents "Any authenticated requests will return
 * a 403" for credential revocation without recording the message; this one is feedgate's.
 */
export const authenticatedNotAccepted = (documentationUrl: string) =>
  new ApiError(403, "This endpoint does not accept authenticated requests; send no credentials.", { documentationUrl });

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
