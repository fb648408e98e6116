/**
 * The OAuth endpoints' refusals: GitHub answers them with `error`, `error_description` and `error_uri` (HTTP 200 on
 * `/login/oauth/access_token`, which Octokit and gh read from the body), not with the REST API's error shape.
 */
const TROUBLESHOOTING =
  "https://docs.github.com/apps/managing-oauth-apps/troubleshooting-oauth-app-access-token-request-errors";
const DEVICE_FLOW = "https://docs.github.com/developers/apps/authorizing-oauth-apps#error-codes-for-the-device-flow";
const REFRESHING =
  "https://docs.github.com/apps/creating-github-apps/authenticating-with-a-github-app/refreshing-user-access-tokens";
const AUTHORIZATION_ERRORS =
  "https://docs.github.com/apps/managing-oauth-apps/troubleshooting-authorization-request-errors";

/** Each error GitHub names, with its description and the page it points at. */
export const OAUTH_ERRORS = {
  incorrect_client_credentials: ["The client_id and/or client_secret passed are incorrect.", TROUBLESHOOTING],
  redirect_uri_mismatch: [
    "The redirect_uri MUST match the registered callback URL for this application.",
    TROUBLESHOOTING,
  ],
  bad_verification_code: ["The code passed is incorrect or expired.", TROUBLESHOOTING],
  bad_refresh_token: ["The refresh token passed is incorrect or expired.", REFRESHING],
  // GitHub's wording for a verifier that does not match is not published (spec 12): the code is refused as a bad one.
  pkce_mismatch: ["The code_verifier does not match the code_challenge.", TROUBLESHOOTING],
  unsupported_grant_type: ["The grant type is not supported.", DEVICE_FLOW],
  authorization_pending: ["The authorization request is still pending.", DEVICE_FLOW],
  slow_down: ["Too many requests have been made in the same timeframe.", DEVICE_FLOW],
  expired_token: ["The device code has expired.", DEVICE_FLOW],
  incorrect_device_code: ["The device_code provided is not valid.", DEVICE_FLOW],
  access_denied: ["The authorization request was denied.", DEVICE_FLOW],
  device_flow_disabled: ["Device flow must be explicitly enabled for this App", DEVICE_FLOW],
  application_suspended: ["Your application has been suspended. Contact support@github.com.", AUTHORIZATION_ERRORS],
  invalid_request: ["The code_challenge_method must be S256: the plain method is not supported.", AUTHORIZATION_ERRORS],
} as const;

export type OAuthErrorName = keyof typeof OAUTH_ERRORS;

/** The wire name of an error: a PKCE mismatch is GitHub's `bad_verification_code`. */
const WIRE_NAME: Partial<Record<OAuthErrorName, string>> = { pkce_mismatch: "bad_verification_code" };

export class OAuthError extends Error {
  override name = "OAuthError";
  constructor(
    readonly error: OAuthErrorName,
    /** Fields sent beside the error (`interval` with `slow_down`). */
    readonly extra: Record<string, string | number> = {},
  ) {
    super(OAUTH_ERRORS[error][0]);
  }

  /** The answer's fields, in GitHub's order. */
  fields(): Record<string, string | number> {
    const [description, uri] = OAUTH_ERRORS[this.error];
    return {
      error: WIRE_NAME[this.error] ?? this.error,
      error_description: description,
      error_uri: uri,
      ...this.extra,
    };
  }
}
