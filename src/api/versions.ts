/**
 * The interface version (spec section 9) and how it is named on the wire, for the server (which checks what clients
 * ask for) and the SDK (which asks for it). feedgate speaks 3.0.0, which GitHub clients select with GitHub's v3 media
 * type; newer clients name a date in `X-GitHub-Api-Version` instead.
 */
export const SUPPORTED_VERSION = "3.0.0";

/** GitHub's v3 media type, which every GitHub-compatible server reads. */
export const SUPPORTED_MEDIA_TYPE = "application/vnd.github.v3+json";

/** Values of `X-GitHub-Api-Version` that are served: the interface version and GitHub's date versions of v3. */
export const ACCEPTED_VERSION_HEADERS: ReadonlySet<string> = new Set([SUPPORTED_VERSION, "2022-11-28"]);
