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
      errors?: ValidationError[];
      headers?: Record<string, string>;
    } = {},
  ) {
    super(message);
    this.name = "ApiError";
  }

  body(fallbackDocs: string) {
    return {
      message: this.message,
      documentation_url: this.options.documentationUrl ?? fallbackDocs,
      ...(this.options.errors ? { errors: this.options.errors } : {}),
    };
  }
}

export const notFound = () => new ApiError(404, "Not Found", { documentationUrl: GENERAL_DOCS });

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

export const basicAuthOnly = () =>
  new ApiError(403, "This API can only be accessed with username and password Basic Auth", {
    documentationUrl: "https://developer.github.com/v3/oauth_authorizations/#oauth-authorizations-api",
  });

/** 422 "Validation Failed" with GitHub's `errors` entries. */
export const validationFailed = (errors: ValidationError[], documentationUrl?: string) =>
  new ApiError(422, "Validation Failed", { errors, ...(documentationUrl ? { documentationUrl } : {}) });
