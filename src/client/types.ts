/** What every operation resolves to: the data, the response headers the spec names, and the not-modified case. */

/**
 * The response headers a result reports (spec section 2), plus `x-poll-interval`: GitHub asks feed pollers to
 * wait that many seconds, and users asked for clients to expose it (wire notes 2.6 and 4, go-github#242).
 */
export const META_HEADERS = [
  "x-ratelimit-limit",
  "x-ratelimit-remaining",
  "x-ratelimit-reset",
  "x-oauth-scopes",
  "link",
  "location",
  "last-modified",
  "etag",
  "status",
  "x-poll-interval",
  // When the token used expires (`2026-01-15 10:00:00 UTC`), and which calendar version of the API answered.
  "github-authentication-token-expiration",
  "x-github-api-version-selected",
  // What the operation accepts from a fine-grained token (`repository_hooks=write`), where a classic one gets scopes.
  "x-accepted-github-permissions",
] as const;

export type MetaHeader = (typeof META_HEADERS)[number];

/** Whichever of the headers came back, under their lower-case names, as sent. */
export type Meta = { [K in MetaHeader]?: string };

export interface Success<T> {
  readonly notModified: false;
  readonly status: number;
  /** The URL that answered; relative `Link` URLs resolve against it. */
  readonly url: string;
  readonly data: T;
  readonly meta: Meta;
}

/** A conditional request (`If-None-Match` / `If-Modified-Since`) whose resource has not changed: 304, no body. */
export interface NotModified {
  readonly notModified: true;
  readonly status: 304;
  readonly url: string;
  readonly data: undefined;
  readonly meta: Meta;
}

export type Result<T> = Success<T> | NotModified;

export function metaOf(headers: Headers): Meta {
  const meta: Meta = {};
  for (const name of META_HEADERS) {
    const value = headers.get(name);
    if (value !== null) meta[name] = value;
  }
  return meta;
}
