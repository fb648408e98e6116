/** ApiError's `code`: each kind of refusal named once and for good, the status's kind otherwise, never on the wire. */
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import {
  accountSuspended,
  ApiError,
  authenticatedNotAccepted,
  badCredentials,
  basicAuthOnly,
  loginAttemptsExceeded,
  notFound,
  otpRequired,
  requiresAuthentication,
  serviceUnavailable,
  statusCodeKind,
  unimplemented,
  validationFailed,
} from "../../src/server/errors.js";

describe("ApiError codes", () => {
  test("each refusal of its own carries its code, whatever status it shares", () => {
    const cases: [ApiError, string, number][] = [
      [badCredentials(), "FEEDGATE_BAD_CREDENTIALS", 401],
      [otpRequired(), "FEEDGATE_OTP_REQUIRED", 401],
      [requiresAuthentication(), "FEEDGATE_REQUIRES_AUTHENTICATION", 401],
      [loginAttemptsExceeded(), "FEEDGATE_LOGIN_ATTEMPTS_EXCEEDED", 403],
      [accountSuspended(), "FEEDGATE_ACCOUNT_SUSPENDED", 403],
      [basicAuthOnly(), "FEEDGATE_BASIC_AUTH_ONLY", 403],
      [authenticatedNotAccepted("https://docs.example/"), "FEEDGATE_CREDENTIALS_NOT_ACCEPTED", 403],
      [notFound(), "FEEDGATE_NOT_FOUND", 404],
      [unimplemented("GET", "/repos/a/b/pulls"), "FEEDGATE_UNIMPLEMENTED", 404],
      [validationFailed([]), "FEEDGATE_VALIDATION_FAILED", 422],
      [serviceUnavailable("the database", new Error("gone")), "FEEDGATE_UNAVAILABLE", 503],
    ];
    for (const [error, code, status] of cases) {
      assert.equal(error.code, code, error.message);
      assert.equal(error.statusCode, status, error.message);
    }
  });

  test("an error that names no code gets its status's kind", () => {
    assert.equal(new ApiError(400, "Problems parsing JSON").code, "FEEDGATE_BAD_REQUEST");
    assert.equal(new ApiError(413, "Request body is too large").code, "FEEDGATE_BODY_TOO_LARGE");
    assert.equal(new ApiError(429, "Too many").code, "FEEDGATE_TOO_MANY_REQUESTS");
    assert.equal(
      new ApiError(403, "No", { code: "FEEDGATE_RATE_LIMIT_EXCEEDED" }).code,
      "FEEDGATE_RATE_LIMIT_EXCEEDED",
    );
    assert.equal(statusCodeKind(405), "FEEDGATE_CLIENT_ERROR");
    assert.equal(statusCodeKind(502), "FEEDGATE_SERVER_ERROR");
  });

  test("the code is not part of the body GitHub's clients read", () => {
    const error = new ApiError(403, "Resource not accessible by personal access token", {
      code: "FEEDGATE_NOT_ACCESSIBLE_BY_TOKEN",
      statusInBody: true,
    });
    assert.deepEqual(error.body("https://docs.github.com/rest"), {
      message: "Resource not accessible by personal access token",
      documentation_url: "https://docs.github.com/rest",
      status: "403",
    });
    assert.deepEqual(Object.keys(badCredentials().body("x")), ["message", "documentation_url"]);
  });
});
