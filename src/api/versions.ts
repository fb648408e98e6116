/**
 * The interface version (spec section 9) and how it is named on the wire, for the server (which checks what clients
 * ask for) and the SDK (which asks for it). feedgate speaks 3.0.0, which GitHub clients select with GitHub's v3 media
 * type; newer clients name a date in `X-GitHub-Api-Version` instead.
 */
export const SUPPORTED_VERSION = "3.0.0";

/** GitHub's v3 media type, which every GitHub-compatible server reads. */
export const SUPPORTED_MEDIA_TYPE = "application/vnd.github.v3+json";

/**
 * GitHub's calendar versions of the REST API that feedgate serves, newest first. 2026-03-10 is the first with
 * breaking changes (https://docs.github.com/rest/about-the-rest-api/breaking-changes); of them, the ones on routes
 * feedgate serves are the `versioned` facts below.
 */
export const API_VERSIONS = ["2026-03-10", "2022-11-28"] as const;
export type ApiVersion = (typeof API_VERSIONS)[number];

/** What a request that names no version (or names the interface version, 3.0.0) is served, as on GitHub. */
export const DEFAULT_API_VERSION: ApiVersion = "2022-11-28";

/** The version a request asks for in `X-GitHub-Api-Version`, or null when feedgate does not serve it. */
export function servedVersion(asked: string | undefined): ApiVersion | null {
  if (asked === undefined) return DEFAULT_API_VERSION;
  const value = asked.trim();
  if (value === SUPPORTED_VERSION) return DEFAULT_API_VERSION;
  return (API_VERSIONS as readonly string[]).includes(value) ? (value as ApiVersion) : null;
}

/**
 * Whether the version still has what 2026-03-10 removed: the top-level `rate` of `GET /rate_limit`, the root's
 * `authorizations_url` and `hub_url`, and a repository's `has_downloads`.
 */
export const keepsRemovedFields = (version: ApiVersion) => version === "2022-11-28";
